import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";

const Manifest = t.type({ name: t.string });

function isLonghaulRoot(dir: string): boolean {
	const path = join(dir, "package.json");
	if (!existsSync(path)) return false;
	const parsed = E.tryCatch(
		(): unknown => JSON.parse(readFileSync(path, "utf8")),
		() => "unreadable",
	);
	const manifest = E.isRight(parsed) ? Manifest.decode(parsed.right) : parsed;
	return E.isRight(manifest) && manifest.right.name === "longhaul";
}

/** Longhaul's package root: the nearest folder above this module whose package.json is Longhaul's. */
export function repoRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
	for (let dir = resolve(from); ; dir = dirname(dir)) {
		if (isLonghaulRoot(dir)) return dir;
		if (dirname(dir) === dir) throw new Error("Longhaul's package.json was not found above this module");
	}
}

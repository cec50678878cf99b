import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/shared.js";

// The folders behind an index.ts: from outside a folder, the only way in is its index (docs/architecture.md,
// Folders). Inside a folder, files import one another directly.
const SEALED = [
	"src/events",
	"src/reducers",
	"src/projections",
	...readdirSync(join(repoRoot, "src/pass")).map((name) => `src/pass/${name}`),
];

function tsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return tsFiles(path);
		return path.endsWith(".ts") ? [path] : [];
	});
}

/** Each relative import of a source file, as the path of the module it names. */
function importsOf(file: string): string[] {
	const text = readFileSync(file, "utf8");
	return [...text.matchAll(/from\s+"(\.{1,2}\/[^"]+)"/g)].map((m) =>
		resolve(dirname(file), (m[1] ?? "").replace(/\.js$/, ".ts")),
	);
}

const sealedOf = (path: string) => SEALED.map((f) => join(repoRoot, f)).find((f) => path.startsWith(`${f}/`));

describe("the layout", () => {
	it("every src/pass folder is a phase behind its index.ts", () => {
		for (const folder of SEALED) expect(statSync(join(repoRoot, folder, "index.ts")).isFile()).toBe(true);
	});

	it("no file of src or bench reaches into a sealed folder past its index", () => {
		const files = ["src", "bench", "scripts"].flatMap((dir) => tsFiles(join(repoRoot, dir)));
		const bypasses = files.flatMap((file) =>
			importsOf(file).flatMap((target) => {
				const folder = sealedOf(target);
				if (folder === undefined || file.startsWith(`${folder}/`) || target === join(folder, "index.ts")) return [];
				return [`${relative(repoRoot, file)} -> ${relative(repoRoot, target)}`];
			}),
		);
		expect(bypasses).toEqual([]);
	});
});

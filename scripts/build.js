// Longhaul's build: tsc compiles src, bench and scripts into dist/ when they changed since the last build.
// Plain JavaScript that needs nothing installed: npm's `prepare` runs it in every install, and the `longhaul`
// launcher (bin/longhaul.js) imports it. Where this copy has no TypeScript of its own (an install without dev
// dependencies: pi's git route, `npm install --omit=dev`, an npm tarball), there is nothing to build: pi loads
// src/extension.ts itself, and a published tarball carries its dist/. See docs/evaluation.md, "One command line".
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** Longhaul's package root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const STAMP = join(root, "dist", ".sources");
const CONFIGS = ["tsconfig.json", "tsconfig.build.json"];

function tsFiles(dir) {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return tsFiles(path);
		return entry.isFile() && entry.name.endsWith(".ts") ? [path] : [];
	});
}

/** The sha256 of every input of the build (paths and bytes), in a stable order. */
export function sourcesDigest() {
	const inputs = [
		...["src", "bench", "scripts"].flatMap((dir) => tsFiles(join(root, dir))),
		...CONFIGS.map((c) => join(root, c)),
	];
	const hash = createHash("sha256");
	for (const path of inputs.map((p) => relative(root, p)).sort()) {
		hash.update(`${path}\0`);
		hash.update(existsSync(join(root, path)) ? readFileSync(join(root, path)) : "");
		hash.update("\0");
	}
	return hash.digest("hex");
}

/** This copy's own tsc (a dev dependency), or undefined where dev dependencies are not installed. */
export function ownTsc() {
	const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
	return existsSync(tsc) ? tsc : undefined;
}

/** True when dist/ holds a build of the sources as they are now. */
export function isFresh() {
	return existsSync(STAMP) && readFileSync(STAMP, "utf8") === sourcesDigest();
}

/** Runs tsc (its output goes to stderr, so a command's stdout stays its own); undefined, or why it failed. */
export function build(tsc) {
	const digest = sourcesDigest();
	const run = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], {
		cwd: root,
		stdio: ["ignore", 2, 2],
	});
	if (run.status !== 0) return `tsc failed (exit ${run.status ?? run.signal})`;
	writeFileSync(STAMP, digest);
	return undefined;
}

// `node scripts/build.js` (npm's prepare, npm run build): build where there is a TypeScript, when stale.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
	const tsc = ownTsc();
	if (tsc === undefined) {
		process.stderr.write("longhaul: no dev dependencies here, nothing to build (pi loads src/extension.ts itself)\n");
	} else if (!isFresh()) {
		const failed = build(tsc);
		if (failed !== undefined) {
			process.stderr.write(`longhaul: ${failed}\n`);
			process.exitCode = 1;
		}
	}
}

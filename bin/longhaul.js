#!/usr/bin/env node
// `longhaul <command>`: runs the compiled command line in dist/. In a clone (its own TypeScript installed), it
// first builds when the sources changed since the last build, so it never runs stale code; `npm ci` builds once.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, isFresh, ownTsc, root } from "../scripts/build.js";

const main = join(root, "dist", "src", "adapters", "cli", "main.js");
const tsc = ownTsc();
const stale = tsc !== undefined && !isFresh();
if (stale) process.stderr.write("longhaul: the sources changed since the last build; building dist/ first (tsc)\n");
const failed = stale ? build(tsc) : undefined;
if (failed !== undefined) {
	process.stderr.write(`longhaul: the build failed (${failed}); fix it or run npm run build\n`);
	process.exitCode = 2;
} else if (!existsSync(main)) {
	process.stderr.write(
		"longhaul: this copy has no build (dist/): the longhaul command runs from a clone after npm ci, or from npm install -g longhaul\n",
	);
	process.exitCode = 2;
} else {
	const { runLonghaul } = await import(pathToFileURL(main).href);
	// The benchmarks are not part of the package (src never imports bench/): a clone builds them beside src, and the
	// command line is handed them here; an install has none, and `longhaul bench` says it runs in a clone.
	const bench = join(root, "dist", "bench", "run.js");
	const loadBench = existsSync(bench) ? async () => (await import(pathToFileURL(bench).href)).runBench : undefined;
	process.exitCode = await runLonghaul(process.argv.slice(2), loadBench);
}

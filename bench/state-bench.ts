import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { median, report } from "./measure.js";

/** A script that only reads the file and `JSON.parse`s each line: the floor any reader of the file pays. */
export const PARSE_SCRIPT = `const fs=require("fs");for(const l of fs.readFileSync(process.argv[1],"utf8").split("\\n")){if(l)JSON.parse(l)}`;

const RUNS = 11;

export function wall(command: string, args: readonly string[], cwd: string): number {
	const start = performance.now();
	const result = spawnSync(command, args, { cwd, stdio: ["ignore", "ignore", "inherit"] });
	if (result.status !== 0) throw new Error(`bench child failed: ${command} ${args.join(" ")}`);
	return performance.now() - start;
}

/** Medians of two commands run in turn, RUNS times each, so that both see the same machine. */
export function sideBySide(a: () => number, b: () => number): { a: number; b: number } {
	const as: number[] = [];
	const bs: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		as.push(a());
		bs.push(b());
	}
	return { a: median(as), b: median(bs) };
}

export function absent(name: string, transcript: string): boolean {
	if (existsSync(transcript)) return false;
	process.stdout.write(`skip ${name}: ${transcript} is absent (the real transcripts in ../shared)\n`);
	return true;
}

/**
 * (docs/contracts.md, Performance targets): `longhaul state FILE --json` as a whole node process, against a node
 * process that only parses the lines.
 */
export function stateBench(root: string, transcript: string): void {
	if (absent("state vs parse floor", transcript)) return;
	const launcher = join(root, "bin", "longhaul.js");
	const { a: state, b: floor } = sideBySide(
		() => wall(process.execPath, [launcher, "state", transcript, "--json"], root),
		() => wall(process.execPath, ["-e", PARSE_SCRIPT, transcript], root),
	);
	const ratio = state / floor;
	report(
		`node bin/longhaul.js state ${basename(transcript)} --json`,
		`${ratio.toFixed(2)}x (${state.toFixed(0)} vs ${floor.toFixed(0)} ms)`,
		"<= 3x node parsing each line",
		ratio <= 3,
	);
}

/** npm itself, as the running npm names it (the same npm for both sides), else the one on PATH. */
function npm(): { command: string; prefix: readonly string[] } {
	const cli = process.env.npm_execpath;
	return cli?.endsWith(".js") ? { command: process.execPath, prefix: [cli] } : { command: "npm", prefix: [] };
}

/**
 * (docs/contracts.md, Performance targets): the README's `npm run state -- FILE`, whole process, against npm running a
 * script that only parses.
 */
export function npmStateBench(root: string, transcript: string): void {
	if (absent("npm run state vs npm run parse", transcript)) return;
	const floorPackage = mkdtempSync(join(tmpdir(), "longhaul-bench-parse-"));
	writeFileSync(join(floorPackage, "parse.cjs"), PARSE_SCRIPT.replace("process.argv[1]", "process.argv[2]"));
	writeFileSync(
		join(floorPackage, "package.json"),
		JSON.stringify({ name: "parse-floor", private: true, scripts: { parse: "node parse.cjs" } }),
	);
	const { command, prefix } = npm();
	try {
		const { a: state, b: floor } = sideBySide(
			() => wall(command, [...prefix, "run", "state", "--", transcript], root),
			() => wall(command, [...prefix, "run", "parse", "--", transcript], floorPackage),
		);
		const ratio = state / floor;
		report(
			`npm run state -- ${basename(transcript)}`,
			`${ratio.toFixed(2)}x (${state.toFixed(0)} vs ${floor.toFixed(0)} ms)`,
			"<= 2x npm run parsing each line",
			ratio <= 2,
		);
	} finally {
		rmSync(floorPackage, { recursive: true, force: true });
	}
}

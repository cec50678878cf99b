import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// mutation/score.mjs, which docs/evaluation.md's scores come from: a mutant outside every function is counted apart.

const dir = mkdtempSync(join(tmpdir(), "longhaul-score-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const source = [
	"const PATTERN = /^R[1-9]$/;", // line 1: at load
	"export function isRule(u: string): boolean {",
	"\treturn PATTERN.test(u) && u.length > 1;", // line 3: in a body
	"}",
	"export const twice = (n: number) => n * 2;", // line 5: `n * 2` is the arrow's body
].join("\n");

const mutant = (id: string, status: string, line: number, column: number) => ({
	id,
	mutatorName: "Test",
	status,
	location: { start: { line, column }, end: { line, column: column + 1 } },
});

function scoreOf(mutants: readonly unknown[]): string {
	const path = join(dir, `report-${mutants.length}.json`);
	writeFileSync(path, JSON.stringify({ files: { "src/x.ts": { source, mutants } } }));
	return execFileSync(process.execPath, ["mutation/score.mjs", path], { encoding: "utf8" });
}

describe("the mutation score script", () => {
	it("counts mutants outside every function apart, and scores the rest killed or timed out over all", () => {
		const out = scoreOf([
			mutant("1", "Survived", 1, 17),
			mutant("2", "Killed", 1, 18),
			mutant("3", "Killed", 3, 9),
			mutant("4", "Timeout", 3, 28),
			mutant("5", "Survived", 3, 31),
			mutant("6", "NoCoverage", 5, 37),
			mutant("7", "Ignored", 3, 9),
		]);
		expect(out).toBe(
			"src/x.ts: 50.00% (2 killed, 2 not; 2 at load)\nall: 50.00% (2 killed, 2 not; 2 at load, left out)\n",
		);
	});

	it("says there is no score when every mutant is at load", () => {
		expect(scoreOf([mutant("1", "Survived", 1, 17)])).toBe(
			"src/x.ts: - (0 killed, 0 not; 1 at load)\nall: - (0 killed, 0 not; 1 at load, left out)\n",
		);
	});
});

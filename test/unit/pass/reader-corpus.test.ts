import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readCorpus, score } from "../../../bench/reader-corpus.js";

const path = new URL("../../fixtures/reader-corpus/corpus.jsonl", import.meta.url);
const { rows, bad } = readCorpus(readFileSync(path, "utf8"));

describe("the reader corpus (the labeled messages npm run bench scores the reader on)", () => {
	it("every line decodes, and it holds at least 300 messages, each once and each with a reason", () => {
		expect(bad).toEqual([]);
		expect(rows.length).toBeGreaterThanOrEqual(300);
		expect(new Set(rows.map((row) => row.text)).size).toBe(rows.length);
		expect(rows.filter((row) => row.reason.trim() === "")).toEqual([]);
	});

	it("sets a third aside as holdout, and each split holds both labels", () => {
		const holdout = rows.filter((row) => row.split === "holdout");
		expect(holdout.length).toBe(Math.floor(rows.length / 3));
		for (const split of ["tune", "holdout"]) {
			const labels = new Set(rows.filter((row) => row.split === split).map((row) => row.label));
			expect([...labels].sort()).toEqual(["not", "standing"]);
		}
	});
});

describe("scoring a reader on labeled rows", () => {
	const row = (text: string, label: "standing" | "not") => ({ text, label, reason: "r", split: "tune" as const });
	const rowsToScore = [row("a", "standing"), row("b", "standing"), row("c", "not"), row("d", "not")];

	it("counts precision over the picks and recall over the standing rows, listing the rows read wrongly", () => {
		const s = score(rowsToScore, (text) => text === "a" || text === "c");
		expect([s.truePositives, s.falsePositives, s.falseNegatives]).toEqual([1, 1, 1]);
		expect([s.precision, s.recall]).toEqual([0.5, 0.5]);
		expect(s.wrong.map((w) => w.text)).toEqual(["b", "c"]);
	});

	it("a reader that picks nothing has precision 1 and recall 0", () => {
		const s = score(rowsToScore, () => false);
		expect([s.precision, s.recall]).toEqual([1, 0]);
	});
});

import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { ANSWER_BOUNDS, type RawAnswer, readAnswer, readRelaxedAnswer } from "../../../../src/pass/answer/answer.js";
import { CUT_MARK, cutProse, repairAnswer } from "../../../../src/pass/answer/repair.js";

const B = ANSWER_BOUNDS;
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

function relaxed(u: unknown): RawAnswer {
	const read = readRelaxedAnswer(JSON.stringify(u));
	if (E.isLeft(read)) throw new Error(read.left.note);
	return read.right;
}

const finding = (text: string) => ({ text, evidence: ["C1"] });
const value = (i: number) => ({ name: `v${i}`, value: `${i}`, turn: "u1" });

describe("reading an answer with its repairable bounds relaxed to twice", () => {
	it("reads a narrative, a Now and lists past their bounds but within twice, which readAnswer refuses", () => {
		const over = {
			labels: [],
			narrative: "n".repeat(B.narrative + 56),
			now: "w".repeat(B.now * 2),
			values: Array.from({ length: B.values + 1 }, (_, i) => value(i)),
			decisions: Array.from({ length: B.decisions * 2 }, () => finding("d")),
		};
		expect(E.isLeft(readAnswer(JSON.stringify(over)))).toBe(true);
		expect(relaxed(over).values).toHaveLength(B.values + 1);
	});

	it("refuses past twice a bound, naming the schema's bound for the retry note", () => {
		const read = readRelaxedAnswer(JSON.stringify({ labels: [], narrative: "n".repeat(B.narrative * 2 + 1) }));
		expect(E.isLeft(read) ? read.left.note : "read").toContain(
			`at narrative: expected a string of at most ${B.narrative}`,
		);
	});

	it("never relaxes labels, words, evidence ids or value strings", () => {
		const cases = [
			{ labels: [{ msg: "u1", label: "rule", words: "w".repeat(B.words + 1) }] },
			{ labels: [{ msg: "u1", label: "x".repeat(B.label + 1) }] },
			{
				labels: [],
				decisions: [{ text: "d", evidence: Array.from({ length: B.evidence + 1 }, (_, i) => `C${i + 1}`) }],
			},
			{ labels: [], values: [{ name: "n".repeat(B.valueName + 1), value: "1", turn: "u1" }] },
			{ labels: [], values: [{ name: "port", value: "9".repeat(B.value + 1), turn: "u1" }] },
		];
		for (const answer of cases) expect(E.isLeft(readRelaxedAnswer(JSON.stringify(answer)))).toBe(true);
	});
});

describe("repairing an answer to the schema's bounds", () => {
	it("keeps the first decisions, dead ends and values, and counts each left out", () => {
		const answer = relaxed({
			labels: [],
			decisions: Array.from({ length: B.decisions + 2 }, (_, i) => finding(`decision ${i}`)),
			deadEnds: Array.from({ length: B.deadEnds + 1 }, (_, i) => finding(`dead end ${i}`)),
			values: Array.from({ length: B.values + 1 }, (_, i) => value(i)),
			narrative: "went on",
		});
		const { answer: repaired, cuts } = repairAnswer(answer);
		expect(repaired.decisions.map((d) => d.text)).toEqual(answer.decisions.slice(0, B.decisions).map((d) => d.text));
		expect(repaired.deadEnds).toHaveLength(B.deadEnds);
		expect(repaired.values.map((v) => v.name)).toEqual(answer.values.slice(0, B.values).map((v) => v.name));
		expect(cuts).toEqual([
			{ item: `decisions[${B.decisions}]`, reason: "past-count" },
			{ item: `decisions[${B.decisions + 1}]`, reason: "past-count" },
			{ item: `deadEnds[${B.deadEnds}]`, reason: "past-count" },
			{ item: `values[${B.values}]`, reason: "past-count" },
		]);
	});

	it("cuts the model's prose at a word with …, and leaves labels, words and evidence as given", () => {
		const long = words(120);
		const answer = relaxed({
			labels: [{ msg: "u1", label: "rule", words: "never add dependencies" }],
			decisions: [{ text: long.slice(0, B.text + 40), evidence: ["C1", "E2"] }],
			objective: long.slice(0, B.objective + 10),
			narrative: long.slice(0, B.narrative + 56),
			now: `${long} ${long}`.slice(0, B.now + 1),
		});
		const { answer: repaired, cuts } = repairAnswer(answer);
		for (const [text = "", given = "", max] of [
			[repaired.narrative, answer.narrative, B.narrative],
			[repaired.objective, answer.objective, B.objective],
			[repaired.now, answer.now, B.now],
			[repaired.decisions[0]?.text, answer.decisions[0]?.text, B.text],
		] as const) {
			expect(text.length).toBeLessThanOrEqual(max);
			expect(text).toMatch(/ word[0-9]+…$/);
			// What is kept is the model's own text up to a whole word: the next character given was a space.
			expect(given.startsWith(text.slice(0, -1))).toBe(true);
			expect(given.charAt(text.length - 1)).toBe(" ");
		}
		expect(repaired.labels).toEqual(answer.labels);
		expect(repaired.decisions[0]?.evidence).toEqual(["C1", "E2"]);
		expect(cuts.map((c) => c.item)).toEqual(["decisions[0].text", "objective", "narrative", "now"]);
		expect(new Set(cuts.map((c) => c.reason))).toEqual(new Set(["cut-text"]));
	});

	it("cuts a decision's text one character past its bound, not one at it", () => {
		const answer = relaxed({
			labels: [],
			decisions: [finding("d".repeat(B.text)), finding("e".repeat(B.text + 1))],
		});
		const { answer: repaired, cuts } = repairAnswer(answer);
		expect(repaired.decisions[0]?.text).toBe("d".repeat(B.text));
		expect(cuts).toEqual([{ item: "decisions[1].text", reason: "cut-text" }]);
	});

	it("returns an answer within the bounds as it was, with nothing cut", () => {
		const answer = relaxed({ labels: [], narrative: "n".repeat(B.narrative), values: [value(1)] });
		expect(repairAnswer(answer)).toEqual({ answer, cuts: [] });
	});
});

describe("cutProse", () => {
	it("cuts where a word ends, before the punctuation that trails it", () => {
		expect(cutProse("alpha beta, gamma delta", 14)).toBe("alpha beta…");
		expect(cutProse("alpha beta gamma", 11)).toBe("alpha beta…");
	});

	it("cuts inside one long word only when no word ends in reach", () => {
		expect(cutProse("abcdefghij", 5)).toBe(`abcd${CUT_MARK}`);
	});

	it("never splits a surrogate pair", () => {
		const cut = cutProse("😀😀😀😀", 4);
		expect(cut).toBe("😀…");
		expect(cut.length).toBeLessThanOrEqual(4);
	});

	it("leaves a text that fits as it is", () => {
		expect(cutProse("short", 5)).toBe("short");
	});

	it("keeps within the bound at a pair's low half, and beside a character just past the surrogates", () => {
		expect(cutProse("a\u{10000}bcd", 3)).toBe("a…");
		expect(cutProse("a\u{10FFFF}bcd", 3)).toBe("a…");
		expect(cutProse("ab\uFF01cd", 3)).toBe("ab…");
		expect(cutProse("\uDC00abc", 1)).toBe("…");
	});

	it("cuts inside the first word when only spaces come before it", () => {
		expect(cutProse("   abcdefghij", 8)).toBe("   abcd…");
	});
});

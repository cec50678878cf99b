import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCorpus, readTranscriptLabels, score } from "../../../bench/reader-corpus.js";
import { branchOf, readTranscript, userMessages } from "../../../src/events/index.js";
import { copyShared, hasShared } from "../../support/shared.js";

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

describe("the labels of the real transcripts' messages (transcripts.json)", () => {
	const labels = readTranscriptLabels(
		readFileSync(join(new URL("../../fixtures/reader-corpus/", import.meta.url).pathname, "transcripts.json"), "utf8"),
	);

	it("decode, and name each message once", () => {
		expect(labels).toBeDefined();
		for (const labeled of Object.values(labels ?? {})) {
			const both = Object.keys(labeled.standing).filter((ref) => ref in labeled.not);
			expect(both).toEqual([]);
		}
	});

	/** A rule word or "from now on" anywhere in a message's raw text, quotes and pasted output included. */
	const RULE_WORD =
		/\b(?:never|always|don'?t|don\u2019t|do not|must|mustn'?t|stop|only|from now on|from here on|going forward)\b/i;

	it.skipIf(!hasShared)(
		"list every message that holds a rule word, so one listed nowhere reads `not` by the reader's definition (needs ../shared)",
		() => {
			for (const [name, labeled] of Object.entries(labels ?? {})) {
				const users = userMessages(branchOf(readTranscript(readFileSync(copyShared(name), "utf8")).entries).entries);
				const listed = new Set([...Object.keys(labeled.standing), ...Object.keys(labeled.not)]);
				expect(
					users.filter((u) => RULE_WORD.test(u.text)).map((u) => u.ref),
					name,
				).toEqual([...listed].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))));
			}
		},
	);
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

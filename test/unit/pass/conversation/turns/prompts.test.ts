import { describe, expect, it } from "vitest";
import { QUESTIONS_HEADER, type Question, WORDS_OVER } from "../../../../../src/pass/accept/index.js";
import type { Failure } from "../../../../../src/pass/conversation/turns/codecs.js";
import { type AskInput, askPrompt, repairPrompt } from "../../../../../src/pass/conversation/turns/prompts.js";
import { RULE_DEFINITION } from "../../../../../src/pass/prompt/index.js";

const none: AskInput = { offered: [], standing: [], modified: [], unfixed: [] };

/** The JSON of a prompt's `Answer {…}.` line, the example the model is to follow. */
function example(prompt: string): unknown {
	const line = prompt.split("\n").find((l) => l.startsWith("Answer {")) ?? "";
	return JSON.parse(line.slice("Answer ".length, -1));
}

describe("turns mode section prompts", () => {
	it("asks the labels turn to label every message offered, and names standing ones as needing no label", () => {
		const plain = askPrompt("labels", { ...none, offered: ["u3", "u4"] }).split("\n");
		const takingOver = askPrompt("labels", { ...none, offered: ["u3", "u4"], standing: ["u1", "u2"] }).split("\n");
		expect(plain[0]).toBe("Turn 3 of 5: labels.");
		expect(plain[1]).toBe("Label every one of these user messages: u3, u4.");
		expect(takingOver[1]).toBe(
			"Label every one of these user messages: u3, u4. u1, u2 are recorded as rules by code and need no label.",
		);
	});

	it("gives the labels turn the three labels, the words bound and an example answer", () => {
		const prompt = askPrompt("labels", { ...none, offered: ["u1"] });
		const lines = prompt.split("\n");
		expect(lines).toHaveLength(6);
		expect(lines[2]).toBe(RULE_DEFINITION);
		expect(lines[3]).toContain('"rule"');
		expect(lines[3]).toContain('"lifts R<n>"');
		expect(lines[3]).toContain('"not a rule"');
		expect(lines[4]).toContain(`over ${WORDS_OVER} characters labeled "rule", add "words"`);
		expect(example(prompt)).toMatchObject({
			labels: [{ msg: "u7", label: "rule" }, { label: "not a rule" }, { label: "lifts R2" }],
		});
	});

	it("asks the findings turn for decisions and dead ends with ledger ids, and to place each unfixed error", () => {
		const plain = askPrompt("findings", none).split("\n");
		const unfixed = askPrompt("findings", {
			...none,
			unfixed: [
				{ id: "E2", head: "lint failed" },
				{ id: "E5", head: "tests failed" },
			],
		});
		expect(plain).toHaveLength(3);
		expect(plain[0]).toBe("Turn 4 of 5: decisions and dead ends.");
		expect(plain[1]).toContain("should not be tried again");
		expect(plain[1]?.endsWith("each with the ledger ids that show it (C<n>, E<n>).")).toBe(true);
		expect(plain.join("\n")).not.toContain("not fixed");
		expect(unfixed).toContain(
			'These errors of the span are not fixed: E2, E5. Cite each in a dead end\'s evidence, or list it in "openErrors"',
		);
		expect(example(unfixed)).toEqual({
			decisions: [{ text: "…", evidence: ["C12"] }],
			deadEnds: [{ text: "…", evidence: ["E3"] }],
			openErrors: [],
		});
	});

	it("asks the narrative for one line of at most 300 characters naming at most 8 of the files modified", () => {
		const files = ["a1.ts", "a2.ts", "a3.ts", "a4.ts", "a5.ts", "a6.ts", "a7.ts", "a8.ts", "a9.ts"];
		const named = askPrompt("narrative", { ...none, modified: files });
		const plain = askPrompt("narrative", none);
		expect(named).toContain(
			"at most 300 characters, for the work log: what this span did. Name the files it modified (a1.ts, a2.ts, a3.ts, a4.ts, a5.ts, a6.ts, a7.ts, a8.ts).",
		);
		expect(named).not.toContain("a9.ts");
		expect(plain).toContain("what this span did.\n");
		expect(plain).not.toContain("Name the files");
		expect(example(plain)).toEqual({ narrative: "…" });
	});
});

describe("turns mode repair prompts", () => {
	const failure = (note: string): Failure => ({ item: "decisions[20]", code: "too-many", note });
	const question: Question = {
		msg: "u4",
		label: "rule",
		targets: ["R1"],
		text: "Does u4 withdraw R1 (never add dependencies)?",
	};

	it("lists the failures under one header, asking again in full, or for the messages named when labeling", () => {
		const input = {
			failures: [failure('"decisions" holds more than 20 items'), failure('"excuse" must be a string')],
			unmet: [],
			questions: [],
			maxChars: 2000,
		};
		const findings = repairPrompt({ ...input, section: "findings" });
		const labels = repairPrompt({ ...input, section: "labels" });
		const lines = findings.text.split("\n");
		expect(lines).toHaveLength(3);
		expect(lines[0]).toContain("Answer again in full, fixed:");
		expect(lines.slice(1)).toEqual(['- "decisions" holds more than 20 items', '- "excuse" must be a string']);
		expect(labels.text.split("\n")[0]).toContain("Answer again for the messages named, fixed:");
		expect(findings.text).not.toContain("misses what is expected");
		expect(findings.asked).toEqual([]);
	});

	it("lists the unmet expectations alone with the way to excuse one", () => {
		const repair = repairPrompt({
			section: "narrative",
			failures: [],
			unmet: [{ check: "modified-file-named", note: "name src/parser.ts" }],
			questions: [],
			maxChars: 2000,
		});
		const lines = repair.text.split("\n");
		expect(lines).toHaveLength(2);
		expect(lines[0]).toContain('add "excuse": "<one sentence why it cannot be met>"');
		expect(lines[1]).toBe("- name src/parser.ts");
		expect(repair.text).not.toContain("has problems");
	});

	it("shows each failure whole or not at all, each with its newline within the room", () => {
		const failures = [failure("E2 unknown"), failure("E3 unknown"), failure("E4 unknown")];
		const shown = (maxChars: number) =>
			repairPrompt({ section: "findings", failures, unmet: [], questions: [], maxChars }).text.split("\n").slice(1);
		expect(shown(25)).toEqual(["- E2 unknown"]);
		expect(shown(26)).toEqual(["- E2 unknown", "- E3 unknown"]);
		expect(shown(39)).toEqual(["- E2 unknown", "- E3 unknown", "- E4 unknown"]);
	});

	it("asks the lift questions after the failures, and says when one was asked", () => {
		const repair = repairPrompt({
			section: "labels",
			failures: [failure("u9 is not a message of the span")],
			unmet: [],
			questions: [question],
			maxChars: 2000,
		});
		const lines = repair.text.split("\n");
		expect(lines.slice(1)).toEqual(["- u9 is not a message of the span", QUESTIONS_HEADER, `- ${question.text}`]);
		expect(repair.asked).toEqual([question]);
		const tooSmall = repairPrompt({ section: "labels", failures: [], unmet: [], questions: [question], maxChars: 20 });
		expect(tooSmall).toEqual({ text: "", asked: [] });
	});
});

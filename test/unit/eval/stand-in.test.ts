import { describe, expect, it } from "vitest";
import {
	isDiffPrompt,
	NOTHING_RECORDED,
	type RecordedAnswers,
	standInAnswer,
	standInSummary,
} from "../../../src/eval/stand-in.js";
import { QUESTIONS_HEADER } from "../../../src/pass/accept/questions.js";

const prompt = (span: number, refs: readonly string[], state = "") =>
	[
		`# Span ${span}`,
		"",
		"## State so far",
		state,
		"",
		"## Messages to label",
		...refs.map((msg) => JSON.stringify({ msg, text: `text of ${msg}` })),
		"",
		'{"role":"user","msg":"u99"}',
	].join("\n");

const parse = (text: string): unknown => JSON.parse(text);

describe("the replay's stand-in summarizer", () => {
	it("labels every listed message 'not a rule' when the recording has no labels, with a stand-in narrative", () => {
		const answer = parse(standInAnswer(prompt(1, ["u1", "u2"]), NOTHING_RECORDED));
		expect(answer).toMatchObject({
			labels: [
				{ msg: "u1", label: "not a rule" },
				{ msg: "u2", label: "not a rule" },
			],
			decisions: [],
			narrative: expect.stringContaining("replay stand-in"),
		});
	});

	it("answers the recording's labels and findings, naming a lifted rule by the id the replay gave its source", () => {
		const recorded: RecordedAnswers = {
			byMsg: new Map([
				["u3", "rule"],
				["u5", "lifts R1"],
			]),
			ruleSources: new Map([["R1", "u2"]]),
			spans: new Map([
				[
					2,
					{
						objective: "ship it",
						decisions: [{ text: "use a bucket", evidence: ["C1"] }],
						deadEnds: [],
						values: [],
						narrative: "recorded line",
						now: "recorded now",
					},
				],
			]),
		};
		const state = "## Rules in force\nR7\n> keep it small\n(u2)";
		const answer = parse(standInAnswer(prompt(2, ["u3", "u4", "u5"], state), recorded));
		expect(answer).toMatchObject({
			labels: [
				{ msg: "u3", label: "rule" },
				{ msg: "u4", label: "not a rule" },
				{ msg: "u5", label: "lifts R7" },
			],
			objective: "ship it",
			decisions: [{ text: "use a bucket", evidence: ["C1"] }],
			narrative: "recorded line",
			now: "recorded now",
		});
	});

	it("answers a question call with no change", () => {
		expect(parse(standInAnswer(`${prompt(1, ["u1"])}\n\n${QUESTIONS_HEADER}`, NOTHING_RECORDED))).toEqual({
			labels: [],
		});
	});

	it("tells Longhaul's calls from pi's summarizer, which gets the recorded summary or a marker", () => {
		expect(isDiffPrompt(prompt(1, []))).toBe(true);
		expect(isDiffPrompt("<conversation>\n[User]: hi\n</conversation>")).toBe(false);
		expect(standInSummary("<conversation>…</conversation>", "## Goal\nx")).toBe("## Goal\nx");
		expect(standInSummary("<conversation>…</conversation>", undefined)).toContain("replay stand-in");
		expect(standInSummary("This is the PREFIX of a turn that was too large", "## Goal")).toContain("prefix");
	});
});

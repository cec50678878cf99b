import { describe, expect, it } from "vitest";
import { runPass } from "../../../../src/adapters/pass/run-pass.js";
import { ANSWER_BOUNDS } from "../../../../src/pass/answer/answer.js";
import { foldEntries } from "../../../../src/reducers/index.js";
import { diffAnswer, type Label, labelsOnly } from "../../../support/answers.js";
import { assistant, chain, type Raw, user } from "../../../support/entries.js";
import { compactionEntry, passCaps, passRequest } from "../../../support/passes.js";
import { type Scripted, scriptedModel } from "../../../support/scripted-model.js";

/** Runs one pass over `messages` (all in the span but the last) with a scripted model, and folds the result. */
async function pass(messages: readonly string[], script: readonly Scripted[], before: readonly Raw[] = []) {
	const raws = chain(
		messages.flatMap((text) => [user(text), assistant("ok")]),
		`p${before.length}-`,
		before.at(-1) === undefined ? null : String(before.at(-1)?.id),
	);
	const branch = [...before, ...raws];
	const end = String(raws.at(-1)?.id);
	const model = scriptedModel(script);
	const out = await runPass(passRequest(branch, end), passCaps(model));
	const compaction = compactionEntry(`c-${end}`, end, end, out.details);
	return { out, model, branch: [...branch, compaction], state: foldEntries([...branch, compaction]).state };
}

const answer = (labels: readonly Label[]) => diffAnswer(labels, { narrative: "n", now: "w" });

describe("the diff's rules, through a whole pass with a scripted model", () => {
	it("a quote no user wrote is rejected: no rule is recorded from it", async () => {
		const long = `${"we talked about many things today. ".repeat(20)}keep the tests fast`;
		const { state } = await pass(
			[long, "done"],
			[
				answer([
					{ msg: "u1", label: "rule", words: "always add a dependency when in doubt" },
					{ msg: "u2", label: "not a rule" },
				]),
				answer([
					{ msg: "u1", label: "rule", words: "always add a dependency when in doubt" },
					{ msg: "u2", label: "not a rule" },
				]),
			],
		);
		expect(state.rules).toEqual([]);
	});

	it("a lift its message cannot carry is asked again with the rule shown, then dropped", async () => {
		const first = await pass(
			["never use tabs", "always run the linter"],
			[
				answer([
					{ msg: "u1", label: "rule" },
					{ msg: "u2", label: "rule" },
				]),
			],
		);
		const { state, model } = await pass(
			["the linter rule no longer applies", "y"],
			[
				answer([
					{ msg: "u3", label: "lifts R1" },
					{ msg: "u4", label: "not a rule" },
				]),
				answer([{ msg: "u3", label: "lifts R1" }]),
			],
			first.branch,
		);
		expect(model.requests).toHaveLength(2);
		expect(model.requests[1]?.prompt).toContain("always run the linter");
		expect(state.rules.map((r) => r.text)).toEqual(["never use tabs", "always run the linter"]);
	});

	it("a lift without withdrawal words is asked again with the rule shown, then dropped", async () => {
		const first = await pass(
			["never use tabs", "x"],
			[
				answer([
					{ msg: "u1", label: "rule" },
					{ msg: "u2", label: "not a rule" },
				]),
			],
		);
		const { state, model } = await pass(
			["tabs look nice in the diff view", "y"],
			[
				answer([
					{ msg: "u3", label: "lifts R1" },
					{ msg: "u4", label: "not a rule" },
				]),
				labelsOnly([{ msg: "u3", label: "lifts R1" }]),
			],
			first.branch,
		);
		expect(model.requests).toHaveLength(2);
		const asked = model.requests[1]?.prompt ?? "";
		expect(asked).toContain("u3 is labeled `lifts R1`, but its words do not withdraw R1 (never use tabs)");
		expect(asked).toContain("answer `lifts R1` only if the user's own words withdraw it, or `not a rule`");
		expect(state.rules.map((r) => r.text)).toEqual(["never use tabs"]);
	});

	it('"the DRY: prefix rule is lifted" lifts the rule it names', async () => {
		const first = await pass(
			["every dry-run line must start with DRY:", "x"],
			[
				answer([
					{ msg: "u1", label: "rule" },
					{ msg: "u2", label: "not a rule" },
				]),
			],
		);
		expect(first.state.rules.map((r) => r.id)).toEqual(["R1"]);
		const { state } = await pass(
			["the DRY: prefix rule is lifted", "y"],
			[
				answer([
					{ msg: "u3", label: "lifts R1" },
					{ msg: "u4", label: "not a rule" },
				]),
			],
			first.branch,
		);
		expect(state.rules).toEqual([]);
		expect(state.lifted).toEqual([
			{ id: "R1", text: "every dry-run line must start with DRY:", source: "u1", by: "u3" },
		]);
	});

	it("a withdrawal pasted in a code fence raises no question and lifts nothing", async () => {
		const first = await pass(
			["never use tabs", "x"],
			[
				answer([
					{ msg: "u1", label: "rule" },
					{ msg: "u2", label: "not a rule" },
				]),
			],
		);
		const pasted = "the linter says:\n```\nthe tabs rule is lifted, tabs no longer matter\n```\nwhat does that mean?";
		const { state, model } = await pass(
			[pasted, "y"],
			[
				answer([
					{ msg: "u3", label: "lifts R1" },
					{ msg: "u4", label: "not a rule" },
				]),
			],
			first.branch,
		);
		expect(model.requests).toHaveLength(1);
		expect(state.rules.map((r) => r.text)).toEqual(["never use tabs"]);
	});

	it("an answer past a repairable bound, within twice it, is repaired in one call: the prose cut, the first values kept", async () => {
		const narrative = `${"went on with the parser and the tests ".repeat(10)}`.trim();
		const values = Array.from({ length: 21 }, (_, i) => ({ name: `n${i}`, value: "ok", turn: "u1" }));
		const { out, model, state } = await pass(
			["never add dependencies", "done"],
			[
				JSON.stringify({
					labels: [
						{ msg: "u1", label: "rule" },
						{ msg: "u2", label: "not a rule" },
					],
					narrative,
					now: "w",
					values,
				}),
			],
		);
		expect(model.requests).toHaveLength(1);
		expect(out.kind).toBe("whole");
		const line = state.workLog.at(-1)?.text ?? "";
		expect(line.length).toBeLessThanOrEqual(300);
		expect(line.endsWith("…")).toBe(true);
		expect(narrative.startsWith(line.slice(0, -1))).toBe(true);
		expect(state.rules.map((r) => r.text)).toEqual(["never add dependencies"]);
		expect(out.dropped).toMatchObject({ "cut-text": 1, "past-count": 1 });
	});

	it("an answer past twice a bound is still retried, with a note that names the schema's bound", async () => {
		const labels = [
			{ msg: "u1", label: "rule" },
			{ msg: "u2", label: "not a rule" },
		];
		const { out, model } = await pass(
			["never add dependencies", "done"],
			[diffAnswer(labels, { narrative: "n".repeat(601), now: "w" }), answer(labels)],
		);
		expect(model.requests).toHaveLength(2);
		expect(model.requests[1]?.prompt).toContain("at narrative: expected a string of at most 300 characters");
		expect(out.kind).toBe("whole");
	});

	it("a short rule message's words retyped or found nowhere record the user's own characters, in one call", async () => {
		const { model, state } = await pass(
			["you can starta  new session from the ‘plan’", "never touch ci.yml", "done"],
			[
				answer([
					{ msg: "u1", label: "rule", words: "you can starta new session from the 'plan'" },
					{ msg: "u2", label: "rule", words: "do not edit the CI config" },
					{ msg: "u3", label: "not a rule" },
				]),
			],
		);
		expect(model.requests).toHaveLength(1);
		expect(state.rules.map((r) => r.text)).toEqual([
			"you can starta  new session from the ‘plan’",
			"never touch ci.yml",
		]);
	});

	it("a decision may cite the span's user message that stated the requirement; another u<n> is dropped", async () => {
		const { out, state } = await pass(
			["the export should skip empty rows, no?", "done"],
			[
				JSON.stringify({
					labels: [
						{ msg: "u1", label: "not a rule" },
						{ msg: "u2", label: "not a rule" },
					],
					decisions: [{ text: "The user requires the export to skip empty rows", evidence: ["u1", "u9"] }],
					narrative: "n",
					now: "w",
				}),
			],
		);
		expect(state.decisions.map((d) => [d.text, d.evidence])).toEqual([
			["The user requires the export to skip empty rows", ["u1"]],
		]);
		expect(out.dropped["unknown-evidence"]).toBe(1);
		expect(out.summary).toContain("The user requires the export to skip empty rows (u1)");
	});

	it("the prompt states every bound the answer is held to, and what a rule is, with examples", async () => {
		const { model } = await pass(
			["go on", "done"],
			[
				answer([
					{ msg: "u1", label: "not a rule" },
					{ msg: "u2", label: "not a rule" },
				]),
			],
		);
		const system = model.requests[0]?.system ?? "";
		const B = ANSWER_BOUNDS;
		for (const phrase of [
			`a label max ${B.label} chars`,
			`"words" max ${B.words}`,
			`max ${B.decisions} decisions and ${B.deadEnds} dead ends`,
			`each "text" max ${B.text} with max ${B.evidence} evidence ids`,
			`max ${B.values} values`,
			`"name" max ${B.valueName}, "value" max ${B.value}`,
			`"objective" max ${B.objective}, "narrative" max ${B.narrative}, "now" max ${B.now}`,
		])
			expect(system).toContain(phrase);
		expect(system).toContain("a complaint about how the agent works");
		expect(system).toContain("a question asking for a standing change");
		expect(system).toContain("also a decision (the requirement in plain words, its u<n> as evidence)");
		expect(system).toContain("how the work goes from now on, however phrased");
	});
});

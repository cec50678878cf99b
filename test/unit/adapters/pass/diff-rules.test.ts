import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../../../src/adapters/config.js";
import { type PassCapabilities, runPass } from "../../../../src/adapters/pass/run-pass.js";
import { createRedactor } from "../../../../src/adapters/redact/index.js";
import { foldEntries } from "../../../../src/reducers/index.js";
import { assistant, chain, type Raw, user } from "../../../support/entries.js";
import { type Scripted, scriptedModel } from "../../../support/scripted-model.js";

const settings = { ...DEFAULT_CONFIG, narrativeMode: "single" as const };

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
	const caps: PassCapabilities = {
		model,
		noModelReason: "none",
		takeWorld: async () => ({ taken: false, reason: "test" }),
		status: () => {},
		now: () => 0,
		redact: createRedactor(true).redactAll,
	};
	const out = await runPass(
		{ branch, firstKeptEntryId: end, cwd: "/", signal: new AbortController().signal, settings },
		caps,
	);
	const compaction = {
		type: "compaction",
		id: `c-${end}`,
		parentId: end,
		timestamp: "t",
		summary: out.summary,
		firstKeptEntryId: end,
		tokensBefore: 1,
		details: out.details,
	};
	return { out, model, branch: [...branch, compaction], state: foldEntries([...branch, compaction]).state };
}

const answer = (labels: readonly { msg: string; label: string; words?: string }[]) =>
	JSON.stringify({ labels, narrative: "n", now: "w" });

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
				JSON.stringify({ labels: [{ msg: "u3", label: "lifts R1" }] }),
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
});

import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { diffTurns, type TurnsOptions } from "../../../../src/adapters/pass/turns.js";
import { SpanRecordCodec } from "../../../../src/events/entries.js";
import type { Event } from "../../../../src/events/event.js";
import type { World } from "../../../../src/events/world.js";
import { acceptAnswer } from "../../../../src/pass/accept/accept.js";
import type { ConversationInput, TurnsInput } from "../../../../src/pass/conversation/index.js";
import { ledgerEvents } from "../../../../src/pass/ledger/ledger.js";
import { derivedSpan, sliceSpan } from "../../../../src/pass/span/span.js";
import { renderSummary } from "../../../../src/projections/summary.js";
import { foldEntries, type State } from "../../../../src/reducers/index.js";
import { labelsOnly } from "../../../support/answers.js";
import { applied } from "../../../support/applied.js";
import { assistant, bashCall, chain, type Raw, toolResult, user } from "../../../support/entries.js";
import { nowSet, objective, ruleAdded, ruleLifted } from "../../../support/events.js";
import { type ScriptedStep, scriptedConversationModel } from "../../../support/scripted-model.js";

// ---------------------------------------------------------------------------------------------------------------
// A span: a rule, a failing test run fixed by a later run, an edit, a lint error left unfixed.
// ---------------------------------------------------------------------------------------------------------------

const editCall = (id: string, path: string): Raw => ({
	type: "message",
	message: {
		role: "assistant",
		content: [{ type: "toolCall", id, name: "edit", arguments: { path, oldText: "a", newText: "b" } }],
		stopReason: "toolUse",
		timestamp: 0,
	},
});

const editResult = (id: string): Raw => ({
	type: "message",
	message: {
		role: "toolResult",
		toolCallId: id,
		toolName: "edit",
		content: [{ type: "text", text: "edited" }],
		isError: false,
		timestamp: 0,
	},
});

const span = chain([
	user("never add dependencies"),
	bashCall("t1", "npm test"),
	toolResult("t1", "3 failed\nCommand exited with code 1", true),
	user("fix the failing tests please"),
	editCall("t2", "src/parser.ts"),
	editResult("t2"),
	bashCall("t3", "npm test"),
	toolResult("t3", "12 passed"),
	bashCall("t4", "npm run lint"),
	toolResult("t4", "lint failed\nCommand exited with code 2", true),
	user("next part"),
	assistant("working on it"),
]);

const world: World = { taken: false, reason: "not a git repository" };

function ledgerIds(state: State): Set<string> {
	return new Set([...state.commands.map((c) => c.id), ...state.errors.map((e) => e.id)]);
}

const OLD_STATE: Event[] = [objective("the old objective"), nowSet("the old Now")];

/** The input run-pass would build for a span, on a state that already has an objective and a Now. */
function input(
	takeover?: TurnsInput["takeover"],
	branch: readonly Raw[] = span,
	firstKept = "e12",
	prior: readonly Event[] = [],
): TurnsInput {
	const folded = foldEntries(branch);
	const before = applied(folded.state, [...OLD_STATE, ...prior]);
	const slice = sliceSpan(folded, derivedSpan(folded.branch, firstKept), before);
	const ledger = ledgerEvents(slice.messages, slice.span, before);
	const after = applied(before, ledger);
	return {
		ctx: {
			state: after,
			span: slice.span,
			toLabel: [...slice.carried, ...slice.users],
			branch: slice.branchUsers,
			turnText: slice.turnText,
			ledger: ledgerIds(after),
		},
		stateText: renderSummary(before).text,
		ledger,
		world,
		messages: slice.messages,
		messageRefs: slice.users.map((u) => u.ref),
		notes: [],
		...(takeover === undefined ? {} : { takeover }),
	};
}

function options(overrides: Partial<TurnsOptions> = {}): TurnsOptions {
	return {
		turnsBudgetMs: 300_000,
		turnBudgetMs: 120_000,
		retryNoteChars: 2000,
		signal: new AbortController().signal,
		now: () => 0,
		...overrides,
	};
}

const answers = {
	narrative: JSON.stringify({ narrative: "fixed the failing tests in src/parser.ts; lint still fails" }),
	objective: JSON.stringify({ objective: "make the parser tests pass" }),
	labels: labelsOnly([
		{ msg: "u1", label: "rule" },
		{ msg: "u2", label: "not a rule" },
		{ msg: "u3", label: "not a rule" },
	]),
	findings: JSON.stringify({
		decisions: [{ text: "kept the test runner", evidence: ["C2"] }],
		deadEnds: [],
		openErrors: ["E2"],
	}),
	now: JSON.stringify({ now: "fix the lint error next" }),
};
const allFive = [answers.narrative, answers.objective, answers.labels, answers.findings, answers.now];

function textOf(sent: ConversationInput | undefined): string {
	return sent?.kind === "text" ? sent.text : "";
}

/** The text of the newest input of each send. */
function prompts(model: ReturnType<typeof scriptedConversationModel>): string[] {
	return model.sent.map((s) => textOf(s.inputs.at(-1)));
}

function foldOnto(turnsInput: TurnsInput, events: readonly Event[] | undefined): State {
	return applied(turnsInput.ctx.state, events ?? []);
}

// ---------------------------------------------------------------------------------------------------------------

describe("turns mode", () => {
	it("asks narrative, objective, labels, decisions and dead ends, and Now, one a turn, in one conversation", async () => {
		const model = scriptedConversationModel(allFive);
		const turnsInput = input();
		const statuses: string[] = [];
		const out = await diffTurns(turnsInput, model, options({ status: (text) => statuses.push(text) }));
		const asked = prompts(model);
		expect(asked).toHaveLength(5);
		expect(statuses).toEqual([
			"Longhaul: turn 1/5 narrative",
			"Longhaul: turn 2/5 objective",
			"Longhaul: turn 3/5 labels",
			"Longhaul: turn 4/5 findings",
			"Longhaul: turn 5/5 now",
		]);
		expect(asked[0]).toContain("Turn 1 of 5: narrative.");
		expect(asked[1]).toMatch(/^Turn 2 of 5: objective\./);
		expect(asked[2]).toMatch(/^Turn 3 of 5: labels\./);
		expect(asked[3]).toMatch(/^Turn 4 of 5: decisions and dead ends\./);
		expect(asked[4]).toMatch(/^Turn 5 of 5: Now\./);
		expect(model.sent.map((s) => s.inputs.length)).toEqual([1, 2, 3, 4, 5]);
		expect(out.answered).toEqual(["narrative", "objective", "labels", "findings", "now"]);
		expect(out.reason).toBeNull();
		const state = foldOnto(turnsInput, out.accepted?.events);
		expect(state.rules.map((r) => [r.text, r.source])).toEqual([["never add dependencies", "u1"]]);
		expect(state.objective).toBe("make the parser tests pass");
		expect(state.now).toBe("fix the lint error next");
		expect(state.decisions.map((d) => d.evidence)).toEqual([["C2"]]);
		expect(state.workLog.at(-1)?.text).toBe("fixed the failing tests in src/parser.ts; lint still fails");
		expect(out.unlabeled).toEqual([]);
		expect(out.calls).toHaveLength(5);
	});

	it("carries the Digest in the first turn only: state, whole messages, ledger, files, World, condensed transcript", async () => {
		const long = `never push to main. ${"this explains at length why the release branch matters. ".repeat(8)}the end`;
		const model = scriptedConversationModel(allFive);
		const base = input();
		const withLong: TurnsInput = {
			...base,
			ctx: { ...base.ctx, toLabel: base.ctx.toLabel.map((u) => (u.ref === "u3" ? { ...u, text: long } : u)) },
		};
		await diffTurns(withLong, model, options());
		const [first = "", ...rest] = prompts(model);
		expect(first).toContain("# Digest of span 1");
		expect(first).toContain("the old objective");
		expect(first).toContain(JSON.stringify({ msg: "u3", text: long }));
		expect(first).toContain("C1 [exit 1] npm test");
		expect(first).toContain("E2 (bash C3): lint failed");
		expect(first).toContain("E1 fixed by C2");
		expect(first).toContain("modified: src/parser.ts");
		expect(first).toContain("(no snapshot: not a git repository)");
		expect(first).toContain(
			JSON.stringify({
				role: "call",
				tool: "bash",
				id: "C3",
				error: true,
				result: "lint failed Command exited with code 2",
			}),
		);
		expect(first).toContain('"tool":"edit","args":"src/parser.ts","call":"t2"');
		for (const later of rest) expect(later).not.toContain("# Digest");
		expect(model.sent.every((s) => s.tools.map((t) => t.name).join() === "show")).toBe(true);
		expect(prompts(model).join("\n")).not.toMatch(/"values"/);
	});

	it("repairs a bad quote in a repair turn that asks only for the failing message", async () => {
		const badQuote = labelsOnly([
			{ msg: "u1", label: "rule", words: "never add any dependencies" },
			{ msg: "u2", label: "not a rule" },
			{ msg: "u3", label: "not a rule" },
		]);
		const fixed = labelsOnly([{ msg: "u1", label: "rule", words: "never add dependencies" }]);
		const model = scriptedConversationModel([
			answers.narrative,
			answers.objective,
			badQuote,
			fixed,
			answers.findings,
			answers.now,
		]);
		const turnsInput = input();
		const out = await diffTurns(turnsInput, model, options());
		const repair = prompts(model)[3] ?? "";
		expect(repair).toContain("Answer again for the messages named");
		expect(repair).toContain("u1");
		expect(repair).toContain("copy the user's words exactly");
		expect(prompts(model)[4]).toMatch(/^Turn 4 of 5/);
		expect(out.turns.filter((t) => t.section === "labels").map((t) => [t.kind, t.outcome])).toEqual([
			["ask", "failures"],
			["repair", "answer"],
		]);
		expect(foldOnto(turnsInput, out.accepted?.events).rules.map((r) => r.text)).toEqual(["never add dependencies"]);
		expect(out.accepted?.labeled).toEqual(["u1", "u2", "u3"]);
	});

	it("drops an item still failing after two repair turns, and the message stays unlabeled", async () => {
		const bad = labelsOnly([
			{ msg: "u1", label: "rule", words: "never add any dependencies" },
			{ msg: "u2", label: "not a rule" },
			{ msg: "u3", label: "not a rule" },
		]);
		const stillBad = labelsOnly([{ msg: "u1", label: "rule", words: "no dependencies ever" }]);
		const model = scriptedConversationModel([
			answers.narrative,
			answers.objective,
			bad,
			stillBad,
			stillBad,
			answers.findings,
			answers.now,
		]);
		const turnsInput = input();
		const out = await diffTurns(turnsInput, model, options());
		expect(out.turns.filter((t) => t.section === "labels").map((t) => t.kind)).toEqual(["ask", "repair", "repair"]);
		expect(prompts(model)[5]).toMatch(/^Turn 4 of 5/);
		expect(out.accepted?.dropped).toContainEqual({ item: "u1", reason: "words-unwritten" });
		expect(out.unlabeled).toEqual(["u1"]);
		expect(out.accepted?.labeled).toEqual(["u2", "u3"]);
		expect(foldOnto(turnsInput, out.accepted?.events).rules).toEqual([]);
	});

	it("drops a narrative over its cap after two repairs; the other sections still stand", async () => {
		const tooLong = JSON.stringify({ narrative: `fixed src/parser.ts ${"and more ".repeat(40)}` });
		const model = scriptedConversationModel([tooLong, tooLong, tooLong, ...allFive.slice(1)]);
		const turnsInput = input();
		const out = await diffTurns(turnsInput, model, options());
		expect(prompts(model)[1]).toContain('"narrative" is');
		expect(prompts(model)[1]).toContain("its cap is 300");
		expect(out.accepted?.events.some((e) => e.type === "narrative-line")).toBe(false);
		expect(out.accepted?.dropped).toContainEqual({ item: "narrative", reason: "narrative-too-long" });
		expect(foldOnto(turnsInput, out.accepted?.events).now).toBe("fix the lint error next");
	});

	it("gives a lift refused because its rule was replaced, first raised on the last turn, one more turn", async () => {
		const narrowed = chain([
			user("always indent with spaces"),
			user("indent with two spaces instead of always indent with spaces"),
			user("thanks"),
			user("indenting with two spaces no longer applies"),
			assistant("ok"),
		]);
		const prior: Event[] = [
			ruleAdded("always indent with spaces", "u1"),
			ruleAdded("indent with two spaces instead of always indent with spaces", "u2"),
			ruleLifted("R1", "u2"),
		];
		const base = input(undefined, narrowed, "e5", prior);
		const spanOnly: TurnsInput = { ...base, ctx: { ...base.ctx, toLabel: base.ctx.toLabel.slice(2) } };
		const invalid = labelsOnly([{ msg: "u4", label: "banana" }]);
		const model = scriptedConversationModel([
			JSON.stringify({ narrative: "talked about indentation" }),
			answers.objective,
			labelsOnly([
				{ msg: "u3", label: "not a rule" },
				{ msg: "u4", label: "banana" },
			]),
			invalid,
			labelsOnly([{ msg: "u4", label: "lifts R1" }]),
			labelsOnly([{ msg: "u4", label: "lifts R2" }]),
			answers.findings,
			answers.now,
		]);
		const out = await diffTurns(spanOnly, model, options());
		const labelTurns = out.turns.filter((t) => t.section === "labels").map((t) => t.kind);
		expect(labelTurns).toEqual(["ask", "repair", "repair", "extra"]);
		const extra = prompts(model)[5] ?? "";
		expect(extra).toContain("Questions about your labels");
		expect(extra).toContain("R1 was already replaced by R2");
		expect(extra).not.toContain("problems");
		expect(out.accepted?.labels).toContainEqual({ msg: "u4", label: "lifts R1, R2" });
		expect(foldOnto(spanOnly, out.accepted?.events).rules).toEqual([]);
	});

	it("asks a lift question raised by the first answer in the next turn, once", async () => {
		const replacing = chain([
			user("always indent with spaces"),
			user("from now on indent with tabs instead of spaces"),
			assistant("ok"),
		]);
		const prior: Event[] = [ruleAdded("always indent with spaces", "u1")];
		const base = input(undefined, replacing, "e3", prior);
		const spanOnly: TurnsInput = { ...base, ctx: { ...base.ctx, toLabel: base.ctx.toLabel.slice(1) } };
		const model = scriptedConversationModel([
			JSON.stringify({ narrative: "switched indentation" }),
			answers.objective,
			labelsOnly([{ msg: "u2", label: "rule" }]),
			labelsOnly([{ msg: "u2", label: "rule and lifts u1" }]),
			answers.findings,
			answers.now,
		]);
		const out = await diffTurns(spanOnly, model, options());
		expect(prompts(model)[3]).toContain("u2 is labeled `rule` and may replace the rule u1 gave");
		expect(out.turns.filter((t) => t.section === "labels").map((t) => t.kind)).toEqual(["ask", "repair"]);
		const state = foldOnto(spanOnly, out.accepted?.events);
		expect(state.rules.map((r) => r.text)).toEqual(["from now on indent with tabs instead of spaces"]);
	});

	it("adds nothing for a section with no readable answer after two repairs, and names why", async () => {
		const model = scriptedConversationModel([answers.narrative, "no idea", "no idea", "no idea", ...allFive.slice(2)]);
		const turnsInput = input();
		const out = await diffTurns(turnsInput, model, options());
		expect(prompts(model)[2]).toContain("holds no JSON object");
		expect(out.turns.filter((t) => t.section === "objective").map((t) => t.outcome)).toEqual([
			"unreadable",
			"unreadable",
			"unreadable",
		]);
		expect(out.reason).toBe("no-json");
		expect(out.answered).not.toContain("objective");
		expect(foldOnto(turnsInput, out.accepted?.events).objective).toBe("the old objective");
	});

	it("keeps an excused expectation with its one-sentence reason, for the span record", async () => {
		const unplaced = JSON.stringify({ decisions: [], deadEnds: [] });
		const twoSentences = JSON.stringify({
			decisions: [],
			deadEnds: [],
			excuse: "The lint error is not ours. It was there before.",
		});
		const excused = JSON.stringify({
			decisions: [],
			deadEnds: [],
			excuse: "The lint error comes from a file this span never touched.",
		});
		const model = scriptedConversationModel([...allFive.slice(0, 3), unplaced, twoSentences, excused, answers.now]);
		const out = await diffTurns(input(), model, options());
		const [firstRepair = "", secondRepair = ""] = prompts(model).slice(4, 6);
		expect(firstRepair).toContain("E2 is not fixed");
		expect(firstRepair).toContain('add "excuse"');
		expect(secondRepair).toContain("one sentence");
		expect(out.excused).toEqual([
			{ check: "unfixed-error-placed", reason: "The lint error comes from a file this span never touched." },
		]);
		expect(out.unmet).toEqual([]);
		const record = SpanRecordCodec.decode({ v: 1, span: 1, compactionId: "c1", excused: out.excused });
		expect(E.isRight(record)).toBe(true);
	});

	it("accepts an answer whose expectation stays unmet after two repairs, and says so", async () => {
		const noFile = JSON.stringify({ narrative: "fixed the tests" });
		const model = scriptedConversationModel([noFile, noFile, noFile, ...allFive.slice(1)]);
		const turnsInput = input();
		const out = await diffTurns(turnsInput, model, options());
		expect(prompts(model)[1]).toContain("names none of the files this span modified (src/parser.ts)");
		expect(out.unmet).toEqual(["modified-file-named"]);
		expect(out.excused).toEqual([]);
		expect(foldOnto(turnsInput, out.accepted?.events).workLog.at(-1)?.text).toBe("fixed the tests");
	});

	it("abandons a turn slower than its budget and goes on; the section it missed carries", async () => {
		const model = scriptedConversationModel([answers.narrative, { hang: true }, ...allFive.slice(2)]);
		const turnsInput = input();
		const out = await diffTurns(turnsInput, model, options({ turnBudgetMs: 20 }));
		expect(out.turns.map((t) => [t.section, t.outcome])).toEqual([
			["narrative", "answer"],
			["objective", "failed"],
			["labels", "answer"],
			["findings", "answer"],
			["now", "answer"],
		]);
		expect(out.reason).toBe("turn-budget");
		expect(out.answered).not.toContain("objective");
		const state = foldOnto(turnsInput, out.accepted?.events);
		expect(state.objective).toBe("the old objective");
		expect(state.now).toBe("fix the lint error next");
		expect(model.sent[2]?.inputs).toHaveLength(2);
	});

	it("sends the Digest again with the next turn when the first turn was abandoned", async () => {
		const model = scriptedConversationModel([{ hang: true }, ...allFive.slice(1)]);
		const out = await diffTurns(input(), model, options({ turnBudgetMs: 20 }));
		const asked = prompts(model);
		expect(asked[1]).toContain("# Digest of span 1");
		expect(asked[1]).toContain("Turn 2 of 5: objective.");
		expect(asked.slice(2).some((p) => p.includes("# Digest"))).toBe(false);
		expect(out.answered).toEqual(["objective", "labels", "findings", "now"]);
	});

	it("ends the pass at its time budget: sections not reached are not asked and carry from the state", async () => {
		let clock = 0;
		const slow = (reply: string): ScriptedStep => {
			return () => {
				clock += 200_000;
				return reply;
			};
		};
		const model = scriptedConversationModel(allFive.map(slow));
		const turnsInput = input();
		const out = await diffTurns(turnsInput, model, options({ now: () => clock }));
		expect(model.sent).toHaveLength(2);
		expect(out.answered).toEqual(["narrative", "objective"]);
		expect(out.reason).toBe("turns-budget");
		expect(out.unlabeled).toEqual(["u1", "u2", "u3"]);
		const state = foldOnto(turnsInput, out.accepted?.events);
		expect(state.objective).toBe("make the parser tests pass");
		expect(state.now).toBe("the old Now");
		expect(state.rules).toEqual([]);
	});

	it("has no answer at all when every turn is too slow", async () => {
		const model = scriptedConversationModel(allFive.map((): ScriptedStep => ({ hang: true })));
		const out = await diffTurns(input(), model, options({ turnBudgetMs: 5 }));
		expect(out.accepted).toBeUndefined();
		expect(out.reason).toBe("turn-budget");
		expect(out.unlabeled).toEqual(["u1", "u2", "u3"]);
	});

	it("rejects when the compaction is aborted mid-turn", async () => {
		const controller = new AbortController();
		const model = scriptedConversationModel([
			answers.narrative,
			() => {
				controller.abort();
				return { hang: true };
			},
		]);
		await expect(diffTurns(input(), model, options({ signal: controller.signal }))).rejects.toThrow("aborted");
	});

	it("answers show(ref), refuses an unknown id without failing the turn, and caps the calls of a turn", async () => {
		const show = (id: string, ref: string) => ({ id, name: "show", arguments: { ref } });
		const model = scriptedConversationModel([
			{ toolCalls: [show("a", "E99"), show("b", "C3")] },
			{ toolCalls: [show("c", "t2"), show("d", "u1")] },
			answers.narrative,
			{ toolCalls: [show("e", "u2")] },
			...allFive.slice(1),
		]);
		const out = await diffTurns(input(), model, options());
		const toolAnswers = model.sent
			.map((s) => s.inputs.at(-1))
			.flatMap((i) => (i?.kind === "tool-answers" ? [i.answers] : []));
		const [first = [], second = [], third = []] = toolAnswers;
		expect(first.map((a) => a.refused)).toEqual([true, false]);
		expect(first[0]?.text).toContain('unknown id "E99"');
		expect(first[1]?.text).toContain("C3 [exit 2] npm run lint");
		expect(first[1]?.text).toContain("lint failed");
		expect(second[0]?.text).toContain("edit");
		expect(second[1]).toMatchObject({ refused: true });
		expect(second[1]?.text).toContain("capped at 3 calls a turn");
		expect(third).toEqual([{ id: "e", name: "show", text: "u2: fix the failing tests please", refused: false }]);
		expect(out.turns.map((t) => t.shows).slice(0, 2)).toEqual([4, 1]);
		expect(out.answered).toEqual(["narrative", "objective", "labels", "findings", "now"]);
	});

	it("gives up a turn whose model keeps calling tools past the cap", async () => {
		const again = { toolCalls: [{ id: "x", name: "show", arguments: { ref: "u1" } }] };
		const model = scriptedConversationModel([again, again, again, again, again, again, ...allFive.slice(1)]);
		const out = await diffTurns(input(), model, options());
		expect(out.turns[0]).toMatchObject({ section: "narrative", outcome: "failed", codes: ["tool-loop"] });
		expect(out.answered).toEqual(["objective", "labels", "findings", "now"]);
	});

	it("taking over, records a standing rule by code beside the rule it replaces, never offering it a label", async () => {
		const earlier = chain([
			user("always indent with spaces"),
			user("from now on indent with tabs instead of spaces"),
			user("fix the failing tests please"),
			assistant("on it"),
		]);
		const rule: Event = ruleAdded("always indent with spaces", "u1");
		const base = input({ summary: "an earlier summary", earlier: [], standing: ["u2"] }, earlier, "e4", [rule]);
		const takeover: TurnsInput = {
			...base,
			ctx: { ...base.ctx, toLabel: base.ctx.toLabel.filter((u) => u.ref !== "u1") },
		};
		const single = acceptAnswer(takeover.ctx, {
			labels: [{ msg: "u2", label: "rule" }],
			decisions: [],
			deadEnds: [],
			values: [],
		});
		expect(single.questions.map((q) => q.msg)).toEqual(["u2"]);
		const model = scriptedConversationModel([
			JSON.stringify({ narrative: "started on the tests" }),
			answers.objective,
			labelsOnly([
				{ msg: "u2", label: "not a rule" },
				{ msg: "u3", label: "not a rule" },
			]),
			labelsOnly([]),
			answers.findings,
			answers.now,
		]);
		const out = await diffTurns(takeover, model, options());
		const asked = prompts(model);
		expect(asked[0]).toContain("an earlier summary");
		expect(asked[0]).toContain("## Earlier user messages code recorded as rules");
		expect(asked[2]).toContain("Label every one of these user messages: u3.");
		expect(asked[2]).toContain("u2 are recorded as rules by code");
		expect(asked[3]).toContain("u2 is not one of the messages to label");
		expect(asked.join("\n")).not.toContain("Questions about your labels");
		const state = foldOnto(takeover, out.accepted?.events);
		expect(state.rules.map((r) => [r.text, r.source])).toEqual([
			["always indent with spaces", "u1"],
			["from now on indent with tabs instead of spaces", "u2"],
		]);
		expect(out.accepted?.labels).toEqual([
			{ msg: "u2", label: "rule" },
			{ msg: "u3", label: "not a rule" },
		]);
	});

	it("has no answer from a model that cannot hold a conversation", async () => {
		const { converse: _converse, ...single } = scriptedConversationModel([]);
		const out = await diffTurns(input(), single, options());
		expect(out).toMatchObject({ accepted: undefined, reason: "model-cannot-converse", unlabeled: ["u1", "u2", "u3"] });
	});
});

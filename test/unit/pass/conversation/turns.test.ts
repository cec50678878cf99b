import { describe, expect, it } from "vitest";
import type { AcceptContext } from "../../../../src/pass/accept/accept.js";
import {
	type ConversationState,
	type ConversationStep,
	cannotConverse,
	type Plan,
	start,
	type TurnsInput,
	turnsOutcomeOf,
	turnsPlan,
} from "../../../../src/pass/conversation/index.js";
import type { TurnSectionResult } from "../../../../src/pass/conversation/turn-section.js";
import { labelsOnly } from "../../../support/answers.js";
import { applied } from "../../../support/applied.js";
import { ruleAdded, ruleLifted } from "../../../support/events.js";
import { callOf, doneConversation, reply, sendOf, showCall as showCalls, textOf as stepText } from "./heard.js";
import { replacingSpan, spanContext, when } from "./span-context.js";

// Turns mode as the same decider with five sections, told given-when-then: given the span's plan and budgets, when
// the driver hears these replies at these times, then the decider sends this next, or is done. No model involved.

const { input } = spanContext();
const budgets = { turnsBudgetMs: 300_000, turnBudgetMs: 120_000, retryNoteChars: 2000 };

function given(overrides: Partial<typeof budgets> = {}, turnsInput: TurnsInput = input) {
	return start(turnsPlan(turnsInput, { ...budgets, ...overrides }, 32_000), 0);
}

const showCall = (ref: string, at = 1) => showCalls([ref], at);

function textOf(ask: ReturnType<typeof sendOf>): string {
	return ask.input.kind === "text" ? ask.input.text : "";
}

const answers = {
	narrative: JSON.stringify({ narrative: "ran the lint; it fails" }),
	objective: JSON.stringify({ objective: null }),
	labels: labelsOnly([
		{ msg: "u1", label: "rule" },
		{ msg: "u2", label: "not a rule" },
		{ msg: "u3", label: "not a rule" },
	]),
	findings: JSON.stringify({ decisions: [], deadEnds: [], openErrors: ["E1"] }),
	now: JSON.stringify({ now: "fix the lint next" }),
};

describe("turns mode's conversation", () => {
	it("opens with the Digest and the narrative's ask, a fresh turn within the turn's budget, for pi's footer", () => {
		const first = sendOf(given());
		expect(textOf(first)).toContain("Turn 1 of 5: narrative.");
		expect(textOf(first).indexOf("Turn 1 of 5")).toBeGreaterThan(0);
		expect(first).toMatchObject({
			purpose: "diff",
			fresh: true,
			deadline: 120_000,
			status: "Longhaul: turn 1/5 narrative",
		});
		expect(first.tools.map((t) => t.name)).toEqual(["show"]);
	});

	it("asks the five sections in order, the Digest only in the first, and accepts their parts as one answer", () => {
		const second = when(given(), reply(answers.narrative));
		expect(textOf(sendOf(second)).startsWith("Turn 2 of 5: objective.")).toBe(true);
		const done = when(
			second,
			reply(answers.objective),
			reply(answers.labels),
			reply(answers.findings),
			reply(answers.now),
		);
		expect(done.kind).toBe("done");
		const outcome = turnsOutcomeOf(done.conversation, input);
		expect(outcome.answered).toEqual(["narrative", "objective", "labels", "findings", "now"]);
		expect(outcome.reason).toBeNull();
		expect(outcome.accepted?.events.filter((e) => e.type === "rule-added")).toHaveLength(1);
		expect(outcome.turns.map((t) => [t.section, t.kind, t.outcome])).toEqual([
			["narrative", "ask", "answer"],
			["objective", "ask", "answer"],
			["labels", "ask", "answer"],
			["findings", "ask", "answer"],
			["now", "ask", "answer"],
		]);
	});

	it("answers show(ref) by code within the turn, before the same deadline, and counts the shows", () => {
		const shown = when(given(), showCall("u2", 10));
		const ask = sendOf(shown);
		expect(ask.fresh).toBe(false);
		expect(ask.deadline).toBe(120_000);
		expect(ask.input).toEqual({
			kind: "tool-answers",
			answers: [{ id: "call-u2", name: "show", text: expect.stringContaining("fix the lint please"), refused: false }],
		});
		const outcome = turnsOutcomeOf(
			when(
				shown,
				reply(answers.narrative, 20),
				reply(answers.objective),
				reply(answers.labels),
				reply(answers.findings),
				reply(answers.now),
			).conversation,
			input,
		);
		expect(outcome.turns[0]).toMatchObject({ section: "narrative", shows: 1, ms: 20 });
	});

	it("fails a turn that only calls tools after its rounds, and asks the next section with the Digest still owed", () => {
		const looped = when(given(), showCall("u1"), showCall("u1"), showCall("u1"), showCall("u1"), showCall("u1"));
		const ask = sendOf(looped);
		expect(textOf(ask)).toContain("Turn 2 of 5: objective.");
		expect(textOf(ask).startsWith("Turn 2")).toBe(false);
		expect(looped.kind === "ask" && looped.conversation.turns[0]).toMatchObject({
			outcome: "failed",
			codes: ["tool-loop"],
		});
	});

	it("hears a timed-out turn as turn-budget and goes on to the next section", () => {
		const after = when(given(), { kind: "timeout", at: 120_000, ms: 120_000 });
		expect(textOf(sendOf(after))).toContain("Turn 2 of 5: objective.");
		const outcome = turnsOutcomeOf(
			when(after, reply(answers.objective), reply(answers.labels), reply(answers.findings), reply(answers.now))
				.conversation,
			input,
		);
		expect(outcome.reason).toBe("turn-budget");
		expect(outcome.answered).not.toContain("narrative");
	});

	it("sends nothing once the pass's time budget is spent: the sections left carry, with the reason", () => {
		const done = when(given({ turnsBudgetMs: 1000 }), reply(answers.narrative, 1000));
		expect(done.kind).toBe("done");
		const outcome = turnsOutcomeOf(done.conversation, input);
		expect(outcome.answered).toEqual(["narrative"]);
		expect(outcome.reason).toBe("turns-budget");
		expect(outcome.calls).toHaveLength(1);
	});

	it("gives the turn after a reply cut at the output limit twice the budget", () => {
		const after = when(given(), reply(answers.narrative, 1, { stopReason: "length" }));
		expect(sendOf(given()).maxTokens).toBe(4096);
		expect(sendOf(after).maxTokens).toBe(8192);
	});

	it("repairs a narrative past its cap twice, then drops it and goes on", () => {
		const long = JSON.stringify({ narrative: "ran the lint ".repeat(40) });
		const repair = when(given(), reply(long));
		expect(sendOf(repair)).toMatchObject({ purpose: "retry", status: "Longhaul: turn 1/5 narrative (repair)" });
		expect(textOf(sendOf(repair))).toContain("its cap is 300");
		const after = when(repair, reply(long), reply(long));
		expect(textOf(sendOf(after))).toContain("Turn 2 of 5: objective.");
		const outcome = turnsOutcomeOf(
			when(after, reply(answers.objective), reply(answers.labels), reply(answers.findings), reply(answers.now))
				.conversation,
			input,
		);
		expect(outcome.accepted?.dropped).toContainEqual({ item: "narrative", reason: "narrative-too-long" });
		expect(outcome.reason).toBeNull();
		expect(outcome.accepted?.events.some((e) => e.type === "narrative-line")).toBe(false);
	});

	it("asks again only for the messages whose labels failed", () => {
		const partial = labelsOnly([{ msg: "u1", label: "rule" }]);
		const labels = when(given(), reply(answers.narrative), reply(answers.objective), reply(partial));
		const ask = sendOf(labels);
		expect(ask.purpose).toBe("retry");
		expect(textOf(ask)).toContain("u2");
		expect(textOf(ask)).not.toContain("Turn 3 of 5");
	});
});

/** One section of the span's plan, asked in single calls: the section's own rules, without the other four. */
function only(section: string): Plan {
	const plan = turnsPlan(input, budgets, 32_000);
	const sections = plan.sections.filter(
		(s) => (s.kind === "labels" ? "labels" : s.kind === "text" && s.section) === section,
	);
	return { ...plan, transport: { kind: "calls" }, sections };
}

function resultOf(conversation: ConversationState): TurnSectionResult | undefined {
	const first = conversation.results[0];
	return first?.kind === "turn" ? first.result : undefined;
}

const findings = (ids: readonly string[], placed: boolean) =>
	JSON.stringify({
		decisions: ids.map((id) => ({ text: `kept the parser as ${id} showed`, evidence: [id] })),
		deadEnds: [],
		openErrors: placed ? ["E1"] : [],
	});

const evidenceKept = (conversation: ConversationState) =>
	resultOf(conversation)?.part.decisions?.map((d) => d.evidence);

describe("turns mode's text sections", () => {
	it("gives a section with no readable reply after two repairs nothing, names why, and never asks for expectations", () => {
		const prose = "The span ran the lint, which failed; the user asked to fix it.";
		const first = start(only("narrative"), 0);
		const repair = when(first, reply(prose));
		expect(stepText(repair)).toContain("holds no JSON object");
		expect(stepText(repair)).not.toContain("misses what is expected");
		const conversation = doneConversation(when(repair, reply(prose), reply(prose)));
		expect(conversation.calls.map((c) => [c.outcome, c.defects])).toEqual([
			["unreadable", ["no-json"]],
			["unreadable", ["no-json"]],
			["unreadable", ["no-json"]],
		]);
		expect(resultOf(conversation)).toEqual({
			answered: false,
			part: {},
			excused: [],
			unmet: [],
			dropped: [],
			reason: "no-json",
		});
	});

	it("keeps the answer with the fewest failures: a later, worse repair does not replace it", () => {
		const conversation = doneConversation(
			when(
				start(only("findings"), 0),
				reply(findings(["C7"], true)),
				reply(findings(["C5", "C6"], true)),
				reply(findings(["C2", "C3", "C4"], true)),
			),
		);
		expect(evidenceKept(conversation)).toEqual([["C7"]]);
		expect(resultOf(conversation)?.dropped.map((f) => [f.item, f.code])).toEqual([["decisions[0]:C7", "unknown-id"]]);
	});

	it("with as many failures keeps the answer with fewer unmet expectations", () => {
		const conversation = doneConversation(
			when(
				start(only("findings"), 0),
				reply(findings(["C7"], true)),
				reply(findings(["C8"], false)),
				reply(findings(["C5", "C6"], true)),
			),
		);
		expect(evidenceKept(conversation)).toEqual([["C7"]]);
		expect(resultOf(conversation)?.unmet).toEqual([]);
	});

	it("of two answers as good keeps the newer", () => {
		const conversation = doneConversation(
			when(
				start(only("findings"), 0),
				reply(findings(["C7"], true)),
				reply(findings(["C8"], true)),
				reply(findings(["C5", "C6"], true)),
			),
		);
		expect(evidenceKept(conversation)).toEqual([["C8"]]);
	});

	it("counts failures before unmet expectations: fewer failures wins though it leaves an error unplaced", () => {
		const conversation = doneConversation(
			when(
				start(only("findings"), 0),
				reply(findings(["C7", "C8"], true)),
				reply(findings(["C9"], false)),
				reply(findings(["C2", "C3", "C4"], true)),
			),
		);
		expect(evidenceKept(conversation)).toEqual([["C9"]]);
		expect(resultOf(conversation)?.unmet).toEqual(["unfixed-error-placed"]);
	});
});

// The labels section on its own, for a span on a state holding u1's rule: u2 replaces it, u3 withdraws it.
const labelsCtx = replacingSpan();
const { branch: users, state: ruled } = labelsCtx;
/** u2 narrowed u1's rule (R1) into its own (R2): a lift of R1 is refused, its rule replaced. */
const narrowedCtx: AcceptContext = {
	...labelsCtx,
	state: applied(ruled, [ruleAdded(users[1]?.text ?? "", "u2"), ruleLifted("R1", "u2")]),
	toLabel: users.slice(2),
};

function labelsPlan(ctx: AcceptContext = labelsCtx, retryNoteChars = 2000): Plan {
	const offered = new Set(ctx.toLabel.map((u) => u.ref));
	return {
		transport: { kind: "calls" },
		system: "label the messages",
		maxTokens: 32_000,
		sections: [
			{ kind: "labels", first: "Label them.", context: { ctx, offered, standing: new Set(), retryNoteChars } },
		],
	};
}

const labels = (...pairs: readonly (readonly [string, string])[]) =>
	reply(labelsOnly(pairs.map(([msg, label]) => ({ msg, label }))));

const purposes = (conversation: ConversationState) => conversation.calls.map((c) => c.purpose);

describe("turns mode's labels section", () => {
	it("asks again only for the failing messages, and takes from the repair only their labels", () => {
		const first = when(start(labelsPlan(), 0), labels(["u2", "not a rule"], ["u3", "banana"], ["u4", "not a rule"]));
		expect(stepText(first)).toContain("u3");
		expect(stepText(first)).not.toContain("misses what is expected");
		const second = when(first, labels(["u3", "not a rule"], ["u4", "rule"], ["u9", "rule"]));
		expect(stepText(second)).toContain("u9 is not one of the messages to label");
		const conversation = doneConversation(when(second, labels(["u4", "rule"])));
		expect(resultOf(conversation)?.part.labels).toEqual([
			{ msg: "u2", label: "not a rule" },
			{ msg: "u3", label: "not a rule" },
			{ msg: "u4", label: "not a rule" },
		]);
		expect(conversation.calls.map((c) => [c.purpose, c.outcome])).toEqual([
			["diff", "defects"],
			["retry", "defects"],
			["retry", "answer"],
		]);
		expect(conversation.calls[1]?.defects).toEqual(["outside-span"]);
	});

	it("labels nothing when no reply reads, and names the last reply's code", () => {
		const prose = "u2 is a rule, u3 and u4 are not.";
		const conversation = doneConversation(when(start(labelsPlan(), 0), reply(prose), reply(prose), reply(prose)));
		expect(conversation.calls.map((c) => [c.outcome, c.defects])).toEqual([
			["unreadable", ["no-json", "unlabeled", "unlabeled", "unlabeled"]],
			["unreadable", ["no-json", "unlabeled", "unlabeled", "unlabeled"]],
			["unreadable", ["no-json", "unlabeled", "unlabeled", "unlabeled"]],
		]);
		expect(resultOf(conversation)).toEqual({
			answered: false,
			part: { labels: [] },
			excused: [],
			unmet: [],
			dropped: [],
			reason: "no-json",
		});
	});

	it("keeps the labels held through repairs that do not read, and drops only the labels still failing", () => {
		const prose = "Sorry, here they are again: u3 is not a rule.";
		const conversation = doneConversation(
			when(
				start(labelsPlan(), 0),
				labels(["u2", "not a rule"], ["u3", "banana"], ["u4", "not a rule"]),
				reply(prose),
				reply(prose),
			),
		);
		expect(conversation.calls.map((c) => c.outcome)).toEqual(["defects", "unreadable", "unreadable"]);
		const result = resultOf(conversation);
		expect(result?.answered).toBe(true);
		expect(result?.reason).toBeNull();
		expect(result?.part.labels).toEqual([
			{ msg: "u2", label: "not a rule" },
			{ msg: "u4", label: "not a rule" },
		]);
		expect(result?.dropped.map((f) => f.item)).toEqual(["u3"]);
	});

	it("asks a lift question in the next turn, once: a reply that keeps the label ends the section", () => {
		const asked = when(start(labelsPlan(), 0), labels(["u2", "rule"], ["u3", "not a rule"], ["u4", "not a rule"]));
		expect(callOf(asked).purpose).toBe("retry");
		expect(stepText(asked)).toContain("u2 is labeled `rule` and may replace the rule u1 gave");
		expect(stepText(asked)).not.toContain("problems");
		const conversation = doneConversation(when(asked, labels(["u2", "rule"])));
		expect(purposes(conversation)).toEqual(["diff", "retry"]);
		expect(resultOf(conversation)?.part.labels).toContainEqual({ msg: "u2", label: "rule" });
	});

	it("asks in the second repair a question the first repair's reply raised", () => {
		const first = when(start(labelsPlan(), 0), labels(["u2", "rule"], ["u3", "banana"], ["u4", "not a rule"]));
		expect(stepText(first)).toContain("u2 is labeled `rule`");
		const second = when(first, labels(["u2", "rule"], ["u3", "rule"]));
		expect(callOf(second).purpose).toBe("retry");
		expect(stepText(second)).toContain("u3 is labeled `rule` and may replace the rule u1 gave");
		expect(stepText(second)).not.toContain("u2 is labeled");
	});

	it("after the second repair asks no new question about a rule that was not replaced", () => {
		const conversation = doneConversation(
			when(
				start(labelsPlan(), 0),
				labels(["u2", "not a rule"], ["u3", "banana"], ["u4", "not a rule"]),
				labels(["u3", "banana"]),
				labels(["u3", "rule"]),
			),
		);
		expect(purposes(conversation)).toEqual(["diff", "retry", "retry"]);
		expect(resultOf(conversation)?.part.labels).toContainEqual({ msg: "u3", label: "rule" });
	});

	it("gives a lift refused because its rule was replaced, first raised by the last repair, one extra turn of questions only", () => {
		const extra = when(
			start(labelsPlan(narrowedCtx), 0),
			labels(["u3", "banana"], ["u4", "banana"]),
			labels(["u3", "banana"], ["u4", "banana"]),
			labels(["u3", "lifts R1"], ["u4", "banana"]),
		);
		expect(callOf(extra).purpose).toBe("questions");
		expect(stepText(extra)).toContain("R1 was already replaced by R2");
		expect(stepText(extra)).not.toContain("problems");
		const conversation = doneConversation(when(extra, labels(["u3", "lifts R2"], ["u4", "not a rule"])));
		expect(resultOf(conversation)?.part.labels).toEqual([{ msg: "u3", label: "lifts R1, R2" }]);
		expect(resultOf(conversation)?.dropped.map((f) => [f.item, f.code])).toEqual([["u4", "label-invalid"]]);
	});

	it("asks nothing again when no failure fits the note's room, and drops the failing label", () => {
		const conversation = doneConversation(
			when(start(labelsPlan(labelsCtx, 10), 0), labels(["u2", "not a rule"], ["u3", "banana"], ["u4", "not a rule"])),
		);
		expect(purposes(conversation)).toEqual(["diff"]);
		expect(resultOf(conversation)?.part.labels).toEqual([
			{ msg: "u2", label: "not a rule" },
			{ msg: "u4", label: "not a rule" },
		]);
	});

	it("ends the section on a turn that timed out, with turn-budget, keeping the labels held", () => {
		const step: ConversationStep = when(
			given(),
			reply(answers.narrative),
			reply(answers.objective),
			reply(labelsOnly([{ msg: "u1", label: "rule" }])),
			{ kind: "timeout", at: 120_000, ms: 120_000 },
		);
		expect(textOf(sendOf(step))).toContain("Turn 4 of 5");
		const labelsResult = step.kind === "ask" ? step.conversation.results[2] : undefined;
		expect(labelsResult?.kind === "turn" && labelsResult.result.reason).toBe("turn-budget");
		expect(labelsResult?.kind === "turn" && labelsResult.result.part.labels).toEqual([{ msg: "u1", label: "rule" }]);
	});
});

/** The Digest's lines under one heading. */
function digestLines(text: string, heading: string): string[] {
	const lines = text.split("\n");
	const at = lines.indexOf(`## ${heading}`);
	if (at < 0) return [];
	const end = lines.indexOf("", at);
	return lines.slice(at + 1, end);
}

const line = (msg: string, text: string) => JSON.stringify({ msg, text });

describe("turns mode's plan and outcome", () => {
	const takingOver: TurnsInput = {
		...input,
		takeover: { summary: "The other compactor's summary.", earlier: ["u1"], standing: ["u2"] },
	};

	it("taking over, shows the earlier and the standing messages apart, and offers only the others a label", () => {
		const plan = turnsPlan(takingOver, budgets, 32_000);
		const digest = plan.transport.kind === "turns" ? plan.transport.digest : "";
		expect(digestLines(digest, "Earlier user messages code recorded as rules (no label needed)")).toEqual([
			line("u2", "fix the lint please"),
		]);
		expect(digestLines(digest, "Earlier user messages to label (each cut to its start)")).toEqual([
			line("u1", "never add dependencies"),
		]);
		expect(digestLines(digest, "User messages to label (whole)")).toEqual([line("u3", "next part")]);
		const labelsAsk = plan.sections[2]?.kind === "labels" ? plan.sections[2].first : "";
		expect(labelsAsk).toContain("Label every one of these user messages: u1, u3. u2 are recorded as rules by code");
	});

	it("without a takeover, shows every message whole and names no standing rule", () => {
		const plan = turnsPlan(input, budgets, 32_000);
		const digest = plan.transport.kind === "turns" ? plan.transport.digest : "";
		expect(digestLines(digest, "User messages to label (whole)")).toEqual([
			line("u1", "never add dependencies"),
			line("u2", "fix the lint please"),
			line("u3", "next part"),
		]);
		expect(digestLines(digest, "Earlier user messages to label (each cut to its start)")).toEqual([]);
		const labelsAsk = plan.sections[2]?.kind === "labels" ? plan.sections[2].first : "";
		expect(labelsAsk).toContain("Label every one of these user messages: u1, u2, u3.\n");
	});

	it("for a model that cannot converse, answers no section and leaves every message unlabeled", () => {
		const plan = turnsPlan(takingOver, budgets, 32_000);
		expect(cannotConverse(takingOver)).toEqual({
			accepted: undefined,
			reason: "model-cannot-converse",
			calls: [],
			turns: [],
			excused: [],
			unmet: [],
			answered: [],
			unlabeled: ["u1", "u2", "u3"],
			digestChars: plan.transport.kind === "turns" ? plan.transport.digest.length : -1,
		});
	});

	it("counts the Digest the first turn carried, and adds no finding for a findings turn that timed out", () => {
		const first = given();
		const conversation = doneConversation(
			when(
				first,
				reply(answers.narrative),
				reply(answers.objective),
				reply(answers.labels),
				{ kind: "timeout", at: 130_000, ms: 120_000 },
				reply(answers.now, 140_000),
			),
		);
		const outcome = turnsOutcomeOf(conversation, input);
		const carried = textOf(sendOf(first));
		expect(outcome.digestChars).toBe(carried.indexOf("\n\nTurn 1 of 5"));
		expect(outcome.answered).toEqual(["narrative", "objective", "labels", "now"]);
		expect(outcome.accepted?.dropped).toEqual([]);
		expect(outcome.accepted?.events.map((e) => e.type)).toEqual(["rule-added", "narrative-line", "now-set"]);
		expect(outcome.unlabeled).toEqual([]);
	});

	it("accepts the answer as final: a lift the store's check refuses is dropped, not asked about", () => {
		const labelsInput: TurnsInput = {
			...input,
			ctx: labelsCtx,
			ledger: [],
			messages: [],
			messageRefs: ["u2", "u3", "u4"],
		};
		const thanks = labelsOnly([
			{ msg: "u2", label: "not a rule" },
			{ msg: "u3", label: "not a rule" },
			{ msg: "u4", label: "lifts u1" },
		]);
		const conversation = doneConversation(
			when(
				given({}, labelsInput),
				reply(answers.narrative),
				reply(answers.objective),
				reply(thanks),
				reply(thanks),
				reply(JSON.stringify({ decisions: [], deadEnds: [], openErrors: [] })),
				reply(answers.now),
			),
		);
		const outcome = turnsOutcomeOf(conversation, labelsInput);
		expect(outcome.accepted?.dropped).toContainEqual({ item: "u4:u1", reason: "lift-check" });
	});
});

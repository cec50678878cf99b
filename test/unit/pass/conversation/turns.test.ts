import { describe, expect, it } from "vitest";
import {
	type Ask,
	type Heard,
	type Reply,
	type Step,
	start,
	turnsOutcomeOf,
	turnsPlan,
} from "../../../../src/pass/conversation/index.js";
import { spanContext, when } from "./span-context.js";

// Turns mode as the same decider with five sections, told given-when-then: given the span's plan and budgets, when
// the driver hears these replies at these times, then the decider sends this next, or is done. No model involved.

const { input } = spanContext();
const budgets = { turnsBudgetMs: 300_000, turnBudgetMs: 120_000, retryNoteChars: 2000 };

function given(overrides: Partial<typeof budgets> = {}) {
	return start(turnsPlan(input, { ...budgets, ...overrides }, 32_000), 0);
}

const reply = (text: string, at = 1, more: Partial<Reply> = {}): Heard => ({
	kind: "reply",
	reply: { text, stopReason: "stop", inputTokens: 100, outputTokens: 10, toolCalls: [], ...more },
	at,
	ms: 1,
});
const showCall = (ref: string, at = 1): Heard =>
	reply("", at, { stopReason: "toolUse", toolCalls: [{ id: `call-${ref}`, name: "show", arguments: { ref } }] });

function sendOf(step: Step): Extract<Ask, { kind: "send" }> {
	if (step.kind !== "ask" || step.ask.kind !== "send") throw new Error(`expected a send, got ${step.kind}`);
	return step.ask;
}

function textOf(ask: Extract<Ask, { kind: "send" }>): string {
	return ask.input.kind === "text" ? ask.input.text : "";
}

const answers = {
	narrative: JSON.stringify({ narrative: "ran the lint; it fails" }),
	objective: JSON.stringify({ objective: null }),
	labels: JSON.stringify({
		labels: [
			{ msg: "u1", label: "rule" },
			{ msg: "u2", label: "not a rule" },
			{ msg: "u3", label: "not a rule" },
		],
	}),
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
		const outcome = turnsOutcomeOf(done.talk, input);
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
			).talk,
			input,
		);
		expect(outcome.turns[0]).toMatchObject({ section: "narrative", shows: 1, ms: 20 });
	});

	it("fails a turn that only calls tools after its rounds, and asks the next section with the Digest still owed", () => {
		const looped = when(given(), showCall("u1"), showCall("u1"), showCall("u1"), showCall("u1"), showCall("u1"));
		const ask = sendOf(looped);
		expect(textOf(ask)).toContain("Turn 2 of 5: objective.");
		expect(textOf(ask).startsWith("Turn 2")).toBe(false);
		expect(looped.kind === "ask" && looped.talk.turns[0]).toMatchObject({ outcome: "failed", codes: ["tool-loop"] });
	});

	it("hears a timed-out turn as turn-budget and goes on to the next section", () => {
		const after = when(given(), { kind: "timeout", at: 120_000, ms: 120_000 });
		expect(textOf(sendOf(after))).toContain("Turn 2 of 5: objective.");
		const outcome = turnsOutcomeOf(
			when(after, reply(answers.objective), reply(answers.labels), reply(answers.findings), reply(answers.now)).talk,
			input,
		);
		expect(outcome.reason).toBe("turn-budget");
		expect(outcome.answered).not.toContain("narrative");
	});

	it("sends nothing once the pass's time budget is spent: the sections left carry, with the reason", () => {
		const done = when(given({ turnsBudgetMs: 1000 }), reply(answers.narrative, 1000));
		expect(done.kind).toBe("done");
		const outcome = turnsOutcomeOf(done.talk, input);
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
			when(after, reply(answers.objective), reply(answers.labels), reply(answers.findings), reply(answers.now)).talk,
			input,
		);
		expect(outcome.accepted?.dropped).toContainEqual({ item: "narrative", reason: "narrative-too-long" });
		expect(outcome.accepted?.events.some((e) => e.type === "narrative-line")).toBe(false);
	});

	it("asks again only for the messages whose labels failed", () => {
		const partial = JSON.stringify({ labels: [{ msg: "u1", label: "rule" }] });
		const labels = when(given(), reply(answers.narrative), reply(answers.objective), reply(partial));
		const ask = sendOf(labels);
		expect(ask.purpose).toBe("retry");
		expect(textOf(ask)).toContain("u2");
		expect(textOf(ask)).not.toContain("Turn 3 of 5");
	});
});

import { describe, expect, it } from "vitest";
import { next, type Plan, start, turnsPlan } from "../../../../src/pass/conversation/index.js";
import { labelsOnly } from "../../../support/answers.js";
import { callOf, doneConversation, reply, sendOf, showCall, textOf } from "./heard.js";
import { spanContext, when } from "./span-context.js";

// The decider's own laws, whatever the section: deadlines and the time budget on the pass's clock, the output budget,
// the trace of every call and turn, what ends a turn or the conversation. Given a plan, when the driver hears these,
// then the decider asks this next, or is done. No model involved.

const { input } = spanContext();
const T0 = 1_000_000;
const budgets = { turnsBudgetMs: 200_000, turnBudgetMs: 120_000, retryNoteChars: 2000 };
const plan = turnsPlan(input, budgets, 32_000);
const narrative = JSON.stringify({ narrative: "ran the lint; it fails" });
const tooLong = JSON.stringify({ narrative: "ran the lint and read its output ".repeat(12) });

/** The same sections asked in single calls, each carrying its whole prompt. */
function inCalls(sections: Plan["sections"]): Plan {
	return { ...plan, transport: { kind: "calls" }, sections };
}

const narrativeOnly = plan.sections.slice(0, 1);
const narrativeAsk = narrativeOnly[0]?.kind === "text" ? narrativeOnly[0].first : "";

describe("the conversation decider", () => {
	it("is done at once, having asked nothing, when the plan has no sections", () => {
		const conversation = doneConversation(start({ ...plan, sections: [] }, T0));
		expect(conversation).toMatchObject({ started: T0, results: [], calls: [], turns: [], reason: null });
	});

	it("hears nothing more once done: a late reply leaves the finished conversation as it was", () => {
		const conversation = doneConversation(when(start(inCalls(narrativeOnly), T0), reply(narrative, T0 + 5)));
		expect(next(conversation, reply(narrative, T0 + 9))).toEqual({ kind: "done", conversation });
	});

	it("gives each turn the turn's budget on the pass's clock, or what is left of the pass's when that is less", () => {
		const first = start(plan, T0);
		expect(sendOf(first).deadline).toBe(T0 + 120_000);
		const second = when(first, reply(narrative, T0 + 100_000));
		expect(sendOf(second).deadline).toBe(T0 + 200_000);
		expect(second.kind === "ask" && second.conversation.turns).toEqual([
			{ section: "narrative", kind: "ask", shows: 0, ms: 100_000, outcome: "answer", codes: [] },
		]);
	});

	it("sends nothing once the pass's time is spent: every section left ends with turns-budget, no turn traced", () => {
		const conversation = doneConversation(when(start(plan, T0), reply(narrative, T0 + 200_000)));
		expect(conversation.results.map((r) => (r.kind === "turn" ? [r.section, r.result.reason] : []))).toEqual([
			["narrative", null],
			["objective", "turns-budget"],
			["labels", "turns-budget"],
			["findings", "turns-budget"],
			["now", "turns-budget"],
		]);
		expect(conversation.reason).toBe("turns-budget");
		expect(conversation.turns).toHaveLength(1);
		expect(conversation.calls).toHaveLength(1);
	});

	it("traces a call's purpose, budget, stop reason, tokens, time and the gate's codes, and the turn it ended", () => {
		const heard = reply(tooLong, T0 + 900, { inputTokens: 1500, outputTokens: 120 });
		const repair = when(start(plan, T0), { ...heard, ms: 880 });
		expect(repair.kind === "ask" && repair.conversation.calls).toEqual([
			{
				purpose: "diff",
				maxTokens: 4096,
				stopReason: "stop",
				inputTokens: 1500,
				outputTokens: 120,
				ms: 880,
				outcome: "defects",
				defects: ["narrative-too-long"],
			},
		]);
		expect(repair.kind === "ask" && repair.conversation.turns).toEqual([
			{ section: "narrative", kind: "ask", shows: 0, ms: 900, outcome: "failures", codes: ["narrative-too-long"] },
		]);
		const fixed = when(repair, reply(narrative, T0 + 1500));
		expect(fixed.kind === "ask" && fixed.conversation.turns.at(-1)).toEqual({
			section: "narrative",
			kind: "repair",
			shows: 0,
			ms: 600,
			outcome: "answer",
			codes: [],
		});
	});

	it("traces a tool round as a call answered, and the turn only once it ends, with its shows", () => {
		const shown = when(start(plan, T0), showCall(["u1", "E1"], T0 + 40));
		expect(shown.kind === "ask" && shown.conversation.calls).toEqual([
			{
				purpose: "diff",
				maxTokens: 4096,
				stopReason: "toolUse",
				inputTokens: 100,
				outputTokens: 10,
				ms: 1,
				outcome: "answer",
				defects: [],
			},
		]);
		expect(shown.kind === "ask" && shown.conversation.turns).toEqual([]);
		const ended = when(shown, reply(narrative, T0 + 70));
		expect(ended.kind === "ask" && ended.conversation.turns).toEqual([
			{ section: "narrative", kind: "ask", shows: 2, ms: 70, outcome: "answer", codes: [] },
		]);
	});

	it("answers three shows a turn, refuses the fourth as capped, and keeps the turn's deadline and budget", () => {
		const first = when(start(plan, T0), showCall(["u1", "C1"], T0 + 10));
		const second = when(first, showCall(["E1", "u2"], T0 + 20));
		const ask = sendOf(second);
		expect(ask).toMatchObject({ fresh: false, deadline: T0 + 120_000, maxTokens: 4096, status: undefined });
		expect(ask.input.kind === "tool-answers" && ask.input.answers.map((a) => [a.id, a.refused])).toEqual([
			["call-E1", false],
			["call-u2", true],
		]);
		expect(ask.input.kind === "tool-answers" && ask.input.answers[1]?.text).toBe(
			"show is capped at 3 calls a turn: answer with what you have",
		);
	});

	it("fails a turn that threw, tracing no tokens and the error's class, and asks the next with the Digest", () => {
		const after = when(start(plan, T0), { kind: "threw", errorClass: "TypeError", at: T0 + 500, ms: 500 });
		expect(after.kind === "ask" && after.conversation.calls).toEqual([
			{
				purpose: "diff",
				maxTokens: 4096,
				stopReason: "model-threw:TypeError",
				inputTokens: 0,
				outputTokens: 0,
				ms: 500,
				outcome: "threw",
				defects: [],
			},
		]);
		expect(after.kind === "ask" && after.conversation.turns).toEqual([
			{ section: "narrative", kind: "ask", shows: 0, ms: 500, outcome: "failed", codes: ["model-threw:TypeError"] },
		]);
		expect(sendOf(after)).toMatchObject({ fresh: true, status: "Longhaul: turn 2/5 objective" });
		expect(textOf(after).startsWith("# Digest of span")).toBe(true);
	});

	it("fails a turn whose reply stopped on an error, with model-error, and goes on to the next section", () => {
		const after = when(start(plan, T0), reply(narrative, T0 + 300, { stopReason: "error" }));
		expect(after.kind === "ask" && after.conversation.turns).toEqual([
			{ section: "narrative", kind: "ask", shows: 0, ms: 300, outcome: "failed", codes: ["model-error"] },
		]);
		expect(after.kind === "ask" && after.conversation.calls.map((c) => [c.stopReason, c.outcome])).toEqual([
			["error", "threw"],
		]);
		expect(sendOf(after).status).toBe("Longhaul: turn 2/5 objective");
		expect(after.kind === "ask" && after.conversation.reason).toBe("model-error");
	});

	it("doubles the output budget after each reply cut at the limit, never past the model's, and keeps it after one that was not", () => {
		const cut = (text: string) => reply(text, 1, { stopReason: "length" });
		const objective = JSON.stringify({ objective: null });
		const labels = labelsOnly([{ msg: "u1", label: "rule" }]);
		const asks = [start(plan, T0)];
		for (const heard of [reply(narrative), cut(objective), cut(labels), cut("{}")]) {
			const last = asks.at(-1);
			if (last !== undefined) asks.push(when(last, heard));
		}
		expect(asks.map((s) => sendOf(s).maxTokens)).toEqual([4096, 4096, 8192, 16_384, 32_000]);
		expect(sendOf(start({ ...plan, maxTokens: 3000 }, T0)).maxTokens).toBe(3000);
	});

	it("in single calls, asks each call with its whole prompt and no Digest, and traces no turn", () => {
		const first = start(inCalls(narrativeOnly), T0);
		expect(callOf(first)).toEqual({
			kind: "call",
			purpose: "diff",
			system: plan.system,
			prompt: narrativeAsk,
			maxTokens: 4096,
		});
		const retry = when(first, reply(tooLong, T0 + 10));
		expect(callOf(retry)).toMatchObject({ purpose: "retry", maxTokens: 4096 });
		expect(textOf(retry)).toContain("its cap is 300");
		const conversation = doneConversation(when(retry, reply(narrative, T0 + 20)));
		expect(conversation.calls.map((c) => [c.purpose, c.outcome, c.defects])).toEqual([
			["diff", "defects", ["narrative-too-long"]],
			["retry", "answer", []],
		]);
		expect(conversation.turns).toEqual([]);
	});

	it("in single calls, ends the section on a call that threw, stopped on an error or timed out, tracing why", () => {
		const ended = (heard: Parameters<typeof next>[1]) =>
			doneConversation(when(start(inCalls(narrativeOnly), T0), heard));
		const threw = ended({ kind: "threw", errorClass: "RangeError", at: T0 + 7, ms: 7 });
		expect(threw.calls).toEqual([
			{
				purpose: "diff",
				maxTokens: 4096,
				stopReason: "model-threw:RangeError",
				inputTokens: 0,
				outputTokens: 0,
				ms: 7,
				outcome: "threw",
				defects: [],
			},
		]);
		expect(threw.reason).toBe("model-threw:RangeError");
		const error = ended(reply(narrative, T0 + 3, { stopReason: "error" }));
		const stoppedInTurns = when(start(plan, T0), reply(narrative, T0 + 3, { stopReason: "error" }));
		expect(error.calls).toEqual(stoppedInTurns.conversation.calls);
		expect(error.calls.map((c) => [c.stopReason, c.outcome])).toEqual([["error", "threw"]]);
		expect(error.calls[0]?.inputTokens).toBeGreaterThan(0);
		expect(error.reason).toBe("model-error");
		expect(ended({ kind: "timeout", at: T0 + 9, ms: 9 }).reason).toBe("turn-budget");
		expect(error.turns).toEqual([]);
	});
});

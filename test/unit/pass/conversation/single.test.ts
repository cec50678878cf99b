import { describe, expect, it } from "vitest";
import {
	type Ask,
	chunkDiffOf,
	chunkPlan,
	FIRST_BUDGET,
	type Heard,
	RAISED_BUDGET_MIN,
	type Step,
	start,
} from "../../../../src/pass/conversation/index.js";
import { spanContext, WHOLE_ANSWER, when } from "./span-context.js";

// Single mode as a conversation of one section, told given-when-then: given a chunk's plan, when the driver hears
// these replies, then the decider asks this next, or is done with this. No model, scripted or real, is involved.

const { ctx } = spanContext();
const prompt = { system: "the system prompt", user: "the chunk's prompt" };

function given(maxTokens = 32_000) {
	return start(chunkPlan({ prompt, ctx, retryNoteChars: 2000, maxTokens }), 0);
}

const reply = (text: string, stopReason = "stop"): Heard => ({
	kind: "reply",
	reply: { text, stopReason, inputTokens: 100, outputTokens: 10, toolCalls: [] },
	at: 1,
	ms: 1,
});
const threw = (errorClass: string): Heard => ({ kind: "threw", errorClass, at: 1, ms: 1 });

function askOf(step: Step): Extract<Ask, { kind: "call" }> {
	if (step.kind !== "ask" || step.ask.kind !== "call") throw new Error(`expected a call, got ${step.kind}`);
	return step.ask;
}

/** An answer that leaves u3 unlabeled: a defect the model can fix. */
const unlabeled = JSON.stringify({
	...JSON.parse(WHOLE_ANSWER),
	labels: [
		{ msg: "u1", label: "rule" },
		{ msg: "u2", label: "not a rule" },
	],
});

describe("single mode's conversation", () => {
	it("asks the chunk's prompt once, within the first budget, and one verified answer ends it", () => {
		const first = given();
		expect(askOf(first)).toEqual({
			kind: "call",
			purpose: "diff",
			system: "the system prompt",
			prompt: "the chunk's prompt",
			maxTokens: FIRST_BUDGET,
		});
		const done = when(first, reply(WHOLE_ANSWER));
		expect(done.kind).toBe("done");
		const diff = chunkDiffOf(done.talk);
		expect(diff.reason).toBeNull();
		expect(diff.accepted?.events.filter((e) => e.type === "rule-added")).toHaveLength(1);
		expect(diff.calls.map((c) => [c.purpose, c.outcome])).toEqual([["diff", "answer"]]);
	});

	it("asks an answer cut at the output limit with nothing usable again with twice the budget, at least 8,192", () => {
		const raised = when(given(), reply('{"labels": [', "length"));
		expect(askOf(raised)).toMatchObject({
			purpose: "raised",
			prompt: "the chunk's prompt",
			maxTokens: RAISED_BUDGET_MIN,
		});
		expect(chunkDiffOf(when(raised, reply(WHOLE_ANSWER)).talk).calls.map((c) => c.maxTokens)).toEqual([
			FIRST_BUDGET,
			RAISED_BUDGET_MIN,
		]);
	});

	it("never raises the budget past the model's own output limit: the cut answer is retried within it", () => {
		const retry = when(given(FIRST_BUDGET), reply('{"labels": [', "length"));
		expect(askOf(retry)).toMatchObject({ purpose: "retry", maxTokens: FIRST_BUDGET });
	});

	it("retries a format defect once with a note, keeping the parsed answer, and keeps the better of the two", () => {
		const retry = when(given(), reply(unlabeled));
		const ask = askOf(retry);
		expect(ask.purpose).toBe("retry");
		expect(ask.prompt).toContain("Your previous answer had these problems");
		const fixed = chunkDiffOf(when(retry, reply(WHOLE_ANSWER)).talk);
		expect(fixed.calls.map((c) => [c.purpose, c.outcome])).toEqual([
			["diff", "defects"],
			["retry", "answer"],
		]);
		expect(fixed.accepted?.defects).toEqual([]);
	});

	it("keeps the first answer when the retry makes the same mistake and asks no third time", () => {
		const twice = when(given(), reply(unlabeled), reply(unlabeled));
		expect(twice.kind).toBe("done");
		expect(chunkDiffOf(twice.talk).calls).toHaveLength(2);
	});

	it("ends with the reason when the first call throws, and records the call as thrown", () => {
		const done = when(given(), threw("TypeError"));
		const diff = chunkDiffOf(done.talk);
		expect(diff.accepted).toBeUndefined();
		expect(diff.reason).toBe("model-threw:TypeError");
		expect(diff.calls.map((c) => [c.outcome, c.stopReason])).toEqual([["threw", "model-threw:TypeError"]]);
	});

	it("hears a reply stopped on an error as a model error, not as an answer", () => {
		const diff = chunkDiffOf(when(given(), reply(WHOLE_ANSWER, "error")).talk);
		expect(diff.reason).toBe("model-error");
		expect(diff.accepted).toBeUndefined();
	});

	it("settles on the kept answer when the retry throws", () => {
		const diff = chunkDiffOf(when(given(), reply(unlabeled), threw("Error")).talk);
		expect(diff.calls.map((c) => c.purpose)).toEqual(["diff", "retry"]);
		expect(diff.accepted?.events.some((e) => e.type === "rule-added")).toBe(true);
	});
});

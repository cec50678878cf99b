import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import type { AcceptContext } from "../../../../src/pass/accept/accept.js";
import { QUESTIONS_HEADER } from "../../../../src/pass/accept/index.js";
import { type Defect, readRelaxedAnswer } from "../../../../src/pass/answer/index.js";
import {
	type Ask,
	type ConversationStep,
	chunkDiffOf,
	chunkPlan,
	FIRST_BUDGET,
	type Heard,
	RAISED_BUDGET_MIN,
	start,
} from "../../../../src/pass/conversation/index.js";
import { labelsOnly } from "../../../support/answers.js";
import { dataOf } from "../../../support/events.js";
import { users } from "../../../support/users.js";
import { spanContext, WHOLE_ANSWER, when } from "./span-context.js";

// Single mode as a conversation of one section, told given-when-then: given a chunk's plan, when the driver hears
// these replies, then the decider asks this next, or is done with this. No model, scripted or real, is involved.

const { ctx } = spanContext();
const prompt = { system: "the system prompt", user: "the chunk's prompt" };

function given(maxTokens = 32_000, context: AcceptContext = ctx, retryNoteChars = 2000) {
	return start(chunkPlan({ prompt, ctx: context, retryNoteChars, maxTokens }), 0);
}

const reply = (text: string, stopReason = "stop"): Heard => ({
	kind: "reply",
	reply: { text, stopReason, inputTokens: 100, outputTokens: 10, toolCalls: [] },
	at: 1,
	ms: 1,
});
const threw = (errorClass: string): Heard => ({ kind: "threw", errorClass, at: 1, ms: 1 });

function askOf(step: ConversationStep): Extract<Ask, { kind: "call" }> {
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
		const diff = chunkDiffOf(done.conversation);
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
		expect(chunkDiffOf(when(raised, reply(WHOLE_ANSWER)).conversation).calls.map((c) => c.maxTokens)).toEqual([
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
		const fixed = chunkDiffOf(when(retry, reply(WHOLE_ANSWER)).conversation);
		expect(fixed.calls.map((c) => [c.purpose, c.outcome])).toEqual([
			["diff", "defects"],
			["retry", "answer"],
		]);
		expect(fixed.accepted?.defects).toEqual([]);
	});

	it("keeps the first answer when the retry makes the same mistake and asks no third time", () => {
		const twice = when(given(), reply(unlabeled), reply(unlabeled));
		expect(twice.kind).toBe("done");
		expect(chunkDiffOf(twice.conversation).calls).toHaveLength(2);
	});

	it("ends with the reason when the first call throws, and records the call as thrown", () => {
		const done = when(given(), threw("TypeError"));
		const diff = chunkDiffOf(done.conversation);
		expect(diff.accepted).toBeUndefined();
		expect(diff.reason).toBe("model-threw:TypeError");
		expect(diff.calls.map((c) => [c.outcome, c.stopReason])).toEqual([["threw", "model-threw:TypeError"]]);
	});

	it("hears a reply stopped on an error as a model error, not as an answer", () => {
		const diff = chunkDiffOf(when(given(), reply(WHOLE_ANSWER, "error")).conversation);
		expect(diff.reason).toBe("model-error");
		expect(diff.accepted).toBeUndefined();
	});

	it("settles on the kept answer when the retry throws", () => {
		const diff = chunkDiffOf(when(given(), reply(unlabeled), threw("Error")).conversation);
		expect(diff.calls.map((c) => c.purpose)).toEqual(["diff", "retry"]);
		expect(diff.accepted?.events.some((e) => e.type === "rule-added")).toBe(true);
	});
});

/** The defect the relaxed reading finds in a reply that holds no answer. */
function unreadable(text: string): Defect {
	const read = readRelaxedAnswer(text);
	if (E.isRight(read)) throw new Error("expected an unreadable reply");
	return read.left;
}

const retryPrompt = (...notes: readonly string[]) =>
	`the chunk's prompt\n\nYour previous answer had these problems; answer again in full, fixed:\n${notes.map((n) => `- ${n}`).join("\n")}`;

const traceOf = (step: ConversationStep) =>
	chunkDiffOf(step.conversation).calls.map((c) => ({
		purpose: c.purpose,
		maxTokens: c.maxTokens,
		outcome: c.outcome,
		defects: c.defects,
	}));

const narrativeOf = (step: ConversationStep) =>
	chunkDiffOf(step.conversation).accepted?.events.flatMap((e) => (e.type === "narrative-line" ? [e.data.text] : []));

/** The span's whole answer with another narrative, and with u3 left unlabeled. */
const unlabeledSaying = (narrative: string) => JSON.stringify({ ...JSON.parse(unlabeled), narrative });

/** An answer that leaves u2 and u3 unlabeled: two defects. */
const twiceUnlabeled = JSON.stringify({ ...JSON.parse(WHOLE_ANSWER), labels: [{ msg: "u1", label: "rule" }] });

const cut = '{"labels": [';
const prose = "I looked at the span and the lint still fails.";

/** A span of its own messages, no rule in force before it, nothing in the ledger. */
function spanOf(texts: readonly string[]): AcceptContext {
	const branch = users(texts);
	return { ...ctx, toLabel: branch, branch, turnText: () => undefined, ledger: new Set() };
}

const answerOf = (labels: readonly object[], narrative = "reindented") =>
	JSON.stringify({ labels, decisions: [], deadEnds: [], narrative, now: "carry on", values: [] });

/** A span where u2's rule may replace u1's: acceptance raises one lift question about u2. */
const replacing = spanOf(["always indent with tabs", "switch to two-space indentation instead of tabs from now on"]);
const replacingAnswer = answerOf([
	{ msg: "u1", label: "rule" },
	{ msg: "u2", label: "rule" },
]);
const replacingQuestion =
	"u2 is labeled `rule` and may replace the rule u1 gave (always indent with tabs): answer `rule and lifts u1` or `rule`";
/** The same answer with no narrative: a defect, and the same question. */
const defective = answerOf(
	[
		{ msg: "u1", label: "rule" },
		{ msg: "u2", label: "rule" },
	],
	"",
);
const liftReply = labelsOnly([{ msg: "u2", label: "rule and lifts u1" }]);

const rulesOf = (step: ConversationStep) =>
	chunkDiffOf(step.conversation).accepted?.events.flatMap((e) =>
		e.type === "rule-added"
			? [`added ${e.data.source}: ${e.data.words}`]
			: e.type === "rule-lifted"
				? [`lifted ${e.data.target} by ${e.data.by}`]
				: [],
	);

describe("single mode's budgets", () => {
	it("asks the first call within the model's own output limit when it is below the first budget", () => {
		expect(askOf(given(3000)).maxTokens).toBe(3000);
	});

	it("raises the budget once: an answer cut again after the raise is retried within the raised budget", () => {
		const retry = when(given(), reply(cut, "length"), reply(cut, "length"));
		expect(askOf(retry)).toMatchObject({
			purpose: "retry",
			prompt: retryPrompt(unreadable(cut).note),
			maxTokens: RAISED_BUDGET_MIN,
		});
	});

	it("raises the budget no further than the model's own limit", () => {
		expect(askOf(when(given(6000), reply(cut, "length"))).maxTokens).toBe(6000);
	});

	it("does not raise the budget for an answer cut at the limit that still parsed", () => {
		const done = when(given(), reply(WHOLE_ANSWER, "length"));
		expect(done.kind).toBe("done");
		expect(traceOf(done)).toEqual([{ purpose: "diff", maxTokens: FIRST_BUDGET, outcome: "answer", defects: [] }]);
	});

	it("does not raise the budget for an unreadable answer that was not cut: it retries it with its defect", () => {
		const retry = when(given(), reply(prose));
		expect(askOf(retry)).toEqual({
			kind: "call",
			purpose: "retry",
			system: "the system prompt",
			prompt: retryPrompt(unreadable(prose).note),
			maxTokens: FIRST_BUDGET,
		});
	});

	it("ends with the reason when the raised call throws, each call traced", () => {
		const done = when(given(), reply(cut, "length"), threw("TypeError"));
		expect(chunkDiffOf(done.conversation)).toMatchObject({
			accepted: undefined,
			reason: "model-threw:TypeError",
			rejectedQuotes: [],
		});
		expect(traceOf(done)).toEqual([
			{ purpose: "diff", maxTokens: FIRST_BUDGET, outcome: "unreadable", defects: ["json-invalid"] },
			{ purpose: "raised", maxTokens: RAISED_BUDGET_MIN, outcome: "threw", defects: [] },
		]);
	});
});

describe("single mode's retry keeps the better answer", () => {
	it("traces each call's purpose, budget, outcome and defects", () => {
		const done = when(given(), reply(cut, "length"), reply(prose, "length"), reply(unlabeled));
		expect(traceOf(done)).toEqual([
			{ purpose: "diff", maxTokens: FIRST_BUDGET, outcome: "unreadable", defects: ["json-invalid"] },
			{ purpose: "raised", maxTokens: RAISED_BUDGET_MIN, outcome: "unreadable", defects: ["no-json"] },
			{ purpose: "retry", maxTokens: RAISED_BUDGET_MIN, outcome: "defects", defects: ["unlabeled"] },
		]);
	});

	it("names the retry's defect as the reason when neither answer could be read", () => {
		const done = when(given(), reply(cut), reply(prose));
		const diff = chunkDiffOf(done.conversation);
		expect(diff.accepted).toBeUndefined();
		expect(diff.reason).toBe("no-json");
		expect(diff.rejectedQuotes).toEqual([]);
	});

	it("names the kept reply's defect as the reason when the retry of an unreadable answer throws", () => {
		const diff = chunkDiffOf(when(given(), reply(prose), threw("Error")).conversation);
		expect(diff.accepted).toBeUndefined();
		expect(diff.reason).toBe("no-json");
	});

	it("takes the retry's answer when the first could not be read", () => {
		const done = when(given(), reply(prose), reply(WHOLE_ANSWER));
		expect(chunkDiffOf(done.conversation).reason).toBeNull();
		expect(narrativeOf(done)).toEqual(["ran the lint; it fails"]);
	});

	it("keeps the first answer when the retry could not be read", () => {
		const done = when(given(), reply(unlabeledSaying("the first answer")), reply(prose));
		expect(chunkDiffOf(done.conversation).accepted?.defects.map((d) => [d.code, d.msg])).toEqual([["unlabeled", "u3"]]);
		expect(narrativeOf(done)).toEqual(["the first answer"]);
	});

	it("keeps the first answer when the retry has more defects", () => {
		const done = when(given(), reply(unlabeledSaying("the first answer")), reply(twiceUnlabeled));
		expect(narrativeOf(done)).toEqual(["the first answer"]);
	});

	it("takes the retry's answer when it has as many defects as the first: a tie goes to the newer", () => {
		const done = when(given(), reply(unlabeledSaying("the first answer")), reply(unlabeledSaying("the retry")));
		expect(narrativeOf(done)).toEqual(["the retry"]);
		expect(traceOf(done)).toEqual([
			{ purpose: "diff", maxTokens: FIRST_BUDGET, outcome: "defects", defects: ["unlabeled"] },
			{ purpose: "retry", maxTokens: FIRST_BUDGET, outcome: "defects", defects: ["unlabeled"] },
		]);
	});
});

describe("single mode's lift questions", () => {
	it("asks the lift questions once in one more call, with the answer and the questions, within the first budget", () => {
		const questions = when(given(32_000, replacing), reply(replacingAnswer));
		const answer = readRelaxedAnswer(replacingAnswer);
		if (E.isLeft(answer)) throw new Error("the answer should read");
		expect(askOf(questions)).toEqual({
			kind: "call",
			purpose: "questions",
			system: "the system prompt",
			prompt: `the chunk's prompt\n\nYour answer was:\n${JSON.stringify(answer.right)}\n\n${QUESTIONS_HEADER}\n- ${replacingQuestion}`,
			maxTokens: FIRST_BUDGET,
		});
	});

	it("asks the questions within the model's own limit when it is below the first budget", () => {
		expect(askOf(when(given(3000, replacing), reply(replacingAnswer))).maxTokens).toBe(3000);
	});

	it("applies the replies: an asked lift is added, and the questions call is traced as an answer", () => {
		const done = when(given(32_000, replacing), reply(replacingAnswer), reply(liftReply));
		expect(done.kind).toBe("done");
		expect(rulesOf(done)).toEqual([
			"added u1: always indent with tabs",
			"lifted u1 by u2",
			"added u2: switch to two-space indentation instead of tabs from now on",
		]);
		expect(traceOf(done)).toEqual([
			{ purpose: "diff", maxTokens: FIRST_BUDGET, outcome: "answer", defects: [] },
			{ purpose: "questions", maxTokens: FIRST_BUDGET, outcome: "answer", defects: [] },
		]);
	});

	it("traces the questions call as unreadable when its reply labels no asked message, and keeps the answer", () => {
		const unasked = labelsOnly([{ msg: "u1", label: "rule and lifts u2" }]);
		for (const text of ["I have no changes to make.", unasked]) {
			const done = when(given(32_000, replacing), reply(replacingAnswer), reply(text));
			expect(rulesOf(done)).toEqual([
				"added u1: always indent with tabs",
				"added u2: switch to two-space indentation instead of tabs from now on",
			]);
			expect(traceOf(done).at(-1)).toEqual({
				purpose: "questions",
				maxTokens: FIRST_BUDGET,
				outcome: "unreadable",
				defects: [],
			});
		}
	});

	it("settles on the answer as it stood when the questions call throws, and traces the call as thrown", () => {
		const done = when(given(32_000, replacing), reply(replacingAnswer), threw("Error"));
		expect(chunkDiffOf(done.conversation).reason).toBeNull();
		expect(chunkDiffOf(done.conversation).accepted?.questions).toEqual([]);
		expect(rulesOf(done)).toEqual([
			"added u1: always indent with tabs",
			"added u2: switch to two-space indentation instead of tabs from now on",
		]);
		expect(traceOf(done).map((c) => [c.purpose, c.outcome])).toEqual([
			["diff", "answer"],
			["questions", "threw"],
		]);
	});

	it("asks the questions after a retry that answered, its defects traced", () => {
		const questions = when(given(32_000, replacing), reply(prose), reply(defective));
		expect(askOf(questions).purpose).toBe("questions");
		expect(traceOf(questions)).toEqual([
			{ purpose: "diff", maxTokens: FIRST_BUDGET, outcome: "unreadable", defects: ["no-json"] },
			{ purpose: "retry", maxTokens: FIRST_BUDGET, outcome: "defects", defects: ["narrative-missing"] },
		]);
	});

	it("asks no questions after a retry that threw: the kept answer is accepted as it stands", () => {
		const done = when(given(32_000, replacing), reply(defective), threw("Error"));
		expect(done.kind).toBe("done");
		expect(traceOf(done).map((c) => c.purpose)).toEqual(["diff", "retry"]);
		expect(rulesOf(done)).toEqual([
			"added u1: always indent with tabs",
			"added u2: switch to two-space indentation instead of tabs from now on",
		]);
		expect(chunkDiffOf(done.conversation).accepted?.questions).toEqual([]);
	});

	it("asks no question that does not fit in the room for a note: the answer is accepted as final", () => {
		const done = when(given(32_000, replacing, QUESTIONS_HEADER.length + 10), reply(replacingAnswer));
		expect(done.kind).toBe("done");
		expect(traceOf(done).map((c) => c.purpose)).toEqual(["diff"]);
		expect(chunkDiffOf(done.conversation).accepted?.questions).toEqual([]);
	});
});

describe("single mode's rejected quotes", () => {
	const twoRules = spanOf(["never add dependencies", "always run the tests before you commit", "next part"]);

	it("keeps the rule words the model gave that no recorded rule holds, and only those", () => {
		const answer = answerOf([
			{ msg: "u1", label: "rule", words: "add dependencies" },
			{ msg: "u2", label: "rule", words: "use yarn instead" },
			{ msg: "u3", label: "not a rule" },
		]);
		const diff = chunkDiffOf(when(given(32_000, twoRules), reply(answer)).conversation);
		expect(dataOf(diff.accepted?.events ?? [], "rule-added").map((d) => d.words)).toEqual([
			"never add dependencies",
			"always run the tests before you commit",
		]);
		expect(diff.rejectedQuotes).toEqual(["use yarn instead"]);
	});

	it("rejects no words a recorded rule holds, another message's rule or words retyped in quotes and spaces", () => {
		const answer = answerOf([
			{ msg: "u1", label: "rule", words: "\u201cadd  dependencies\u201d" },
			{ msg: "u2", label: "rule", words: "never add dependencies" },
			{ msg: "u3", label: "not a rule" },
		]);
		expect(chunkDiffOf(when(given(32_000, twoRules), reply(answer)).conversation).rejectedQuotes).toEqual([]);
	});
});

describe("a chunk's diff", () => {
	it("has no answer while its conversation has not ended", () => {
		expect(chunkDiffOf(given().conversation)).toEqual({
			accepted: undefined,
			reason: "no-answer",
			rejectedQuotes: [],
			calls: [],
		});
	});
});

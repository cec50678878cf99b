import * as E from "fp-ts/lib/Either.js";
import { looseFinder } from "../../events/index.js";
import {
	type AcceptContext,
	type Accepted,
	acceptAnswer,
	applyReplies,
	cleanWords,
	type Question,
	renderQuestions,
} from "../accept/index.js";
import {
	type Defect,
	type RawAnswer,
	type Repaired,
	readRelaxedAnswer,
	repairAnswer,
	retryNote,
} from "../answer/index.js";
import type { Prompt } from "../prompt/index.js";
import type { Judged, SectionHeard, SectionStep } from "./section.js";

/** The first output budget of a diff call, in tokens. */
export const FIRST_BUDGET = 4096;
/** A cut-off answer is asked again with twice the budget, at least this many tokens, never past the model's own. */
export const RAISED_BUDGET_MIN = 8192;

/** What the single mode's section reads: the chunk's prompt, its acceptance context, the budgets. */
export interface DiffContext {
	readonly prompt: Prompt;
	readonly ctx: AcceptContext;
	readonly retryNoteChars: number;
	/** The model's own output limit. */
	readonly maxTokens: number;
}

/** A chunk's diff: the settled acceptance, or the reason there is none. */
export interface DiffResult {
	readonly accepted: Accepted | undefined;
	readonly reason: string | null;
	/** Rule words the model gave that no recorded rule holds: pieces of the user's text, for the opt-in excerpts. */
	readonly rejectedQuotes: readonly string[];
}

/** A reply as read: its answer, repaired and accepted, or none and the defect that says why. */
type Parsed =
	| {
			readonly kind: "read";
			readonly answer: RawAnswer;
			readonly accepted: Accepted;
			/** What the repair cut or left out to bring the answer within the schema's bounds. */
			readonly cuts: Repaired["cuts"];
	  }
	| { readonly kind: "unread"; readonly defect: Defect };

type Read = Extract<Parsed, { readonly kind: "read" }>;

/**
 * Where the chunk's calls stand: which call is out and its budget; in a retry, the reply kept so far; in the
 * questions, the answer they are about and the questions asked.
 */
export type DiffState =
	| { readonly context: DiffContext; readonly phase: "diff" | "raised"; readonly budget: number }
	| { readonly context: DiffContext; readonly phase: "retry"; readonly budget: number; readonly kept: Parsed }
	| {
			readonly context: DiffContext;
			readonly phase: "questions";
			readonly kept: Read;
			readonly asked: readonly Question[];
	  };

type DiffStep = SectionStep<DiffState, DiffResult>;

/** Reads a reply, repairing what ran past a bound code can bring back (see repair.ts), and accepts it. */
function parse(ctx: AcceptContext, text: string): Parsed {
	const read = readRelaxedAnswer(text);
	if (E.isLeft(read)) return { kind: "unread", defect: read.left };
	const { answer, cuts } = repairAnswer(read.right);
	return { kind: "read", answer, accepted: acceptAnswer(ctx, answer), cuts };
}

function defectsOf(parsed: Parsed): readonly Defect[] {
	return parsed.kind === "read" ? parsed.accepted.defects : [parsed.defect];
}

function judgedOf(parsed: Parsed): Judged {
	const defects = defectsOf(parsed);
	const outcome = parsed.kind === "unread" ? "unreadable" : defects.length > 0 ? "defects" : "answer";
	return { outcome, codes: defects.map((d) => d.code) };
}

/** Fewer defects wins; a parsed answer always beats none; a tie goes to the newer. */
function better(a: Parsed, b: Parsed): Parsed {
	if (a.kind === "unread") return b;
	if (b.kind === "unread") return a;
	return b.accepted.defects.length <= a.accepted.defects.length ? b : a;
}

/** The `words` of the answer's labels that no rule the answer recorded holds (as `ruleWords` finds words). */
function rejectedQuotes(answer: RawAnswer, accepted: Accepted): string[] {
	const recorded = accepted.events.flatMap((e) => (e.type === "rule-added" ? [e.data.words] : []));
	const holds = (words: string, given: string) =>
		looseFinder(cleanWords(given))(words, { start: 0, end: words.length }).length > 0;
	return answer.labels.flatMap((label) => {
		const given = label.words;
		return given !== undefined && !recorded.some((words) => holds(words, given)) ? [given] : [];
	});
}

function done(result: DiffResult, judged?: Judged): DiffStep {
	return { kind: "done", result, judged };
}

/** The settled acceptance; what the repair cut is counted with what acceptance dropped, for the log. */
function accepted(kept: Read, settled: Accepted, judged?: Judged): DiffStep {
	const dropped = [...kept.cuts, ...settled.dropped];
	return done(
		{ accepted: { ...settled, dropped }, reason: null, rejectedQuotes: rejectedQuotes(kept.answer, settled) },
		judged,
	);
}

/** The first call: the chunk's prompt within the first budget. */
export function startDiff(context: DiffContext): Extract<DiffStep, { kind: "ask" }> {
	const budget = Math.min(FIRST_BUDGET, context.maxTokens);
	const state: DiffState = { context, phase: "diff", budget };
	return { kind: "ask", state, ask: { purpose: "diff", text: context.prompt.user, maxTokens: budget } };
}

/**
 * Once an answer parsed or none will: with nothing usable, the reason; with lift questions and a last call that
 * answered, one more call asks them; else the answer accepted as final.
 */
function settle(context: DiffContext, kept: Parsed, lastAnswered: boolean, judged?: Judged): DiffStep {
	if (kept.kind === "unread")
		return done({ accepted: undefined, reason: kept.defect.code, rejectedQuotes: [] }, judged);
	const { ctx, prompt, retryNoteChars, maxTokens } = context;
	const questions = renderQuestions(kept.accepted.questions, retryNoteChars);
	if (questions.asked.length === 0 || !lastAnswered)
		return accepted(kept, acceptAnswer(ctx, kept.answer, { final: true }), judged);
	const text = `${prompt.user}\n\nYour answer was:\n${JSON.stringify(kept.answer)}\n\n${questions.text}`;
	return {
		kind: "ask",
		state: { context, phase: "questions", kept, asked: questions.asked },
		ask: { purpose: "questions", text, maxTokens: Math.min(FIRST_BUDGET, maxTokens) },
		judged,
	};
}

/** After the first answer (raised or not): a format defect is retried once with a note, the parsed answer kept. */
function afterFirst(context: DiffContext, budget: number, parsed: Parsed): DiffStep {
	const judged = judgedOf(parsed);
	const defects = defectsOf(parsed);
	if (defects.length === 0) return settle(context, parsed, true, judged);
	const note = retryNote(defects, context.retryNoteChars);
	const text = `${context.prompt.user}\n\nYour previous answer had these problems; answer again in full, fixed:\n${note}`;
	return {
		kind: "ask",
		state: { context, phase: "retry", budget, kept: parsed },
		ask: { purpose: "retry", text, maxTokens: budget },
		judged,
	};
}

/**
 * The chunk's next step once a call came back (docs/how-it-works.md, One pass): an answer cut at the output
 * limit with nothing usable is asked again with twice the budget; then one retry; then the questions, once.
 */
export function hearDiff(state: DiffState, heard: SectionHeard): DiffStep {
	const { context } = state;
	const { ctx, maxTokens } = context;
	switch (state.phase) {
		case "diff":
		case "raised": {
			if (heard.kind === "failed") return done({ accepted: undefined, reason: heard.reason, rejectedQuotes: [] });
			const parsed = parse(ctx, heard.text);
			const raised = Math.min(Math.max(state.budget * 2, RAISED_BUDGET_MIN), maxTokens);
			if (state.phase === "diff" && heard.stopReason === "length" && parsed.kind === "unread" && raised > state.budget)
				return {
					kind: "ask",
					state: { context, phase: "raised", budget: raised },
					ask: { purpose: "raised", text: context.prompt.user, maxTokens: raised },
					judged: judgedOf(parsed),
				};
			return afterFirst(context, state.budget, parsed);
		}
		case "retry": {
			if (heard.kind === "failed") return settle(context, state.kept, false);
			const retried = parse(ctx, heard.text);
			return settle(context, better(state.kept, retried), true, judgedOf(retried));
		}
		case "questions": {
			const { kept, asked } = state;
			if (heard.kind === "failed") return accepted(kept, acceptAnswer(ctx, kept.answer, { final: true }));
			const replied = applyReplies(ctx, kept.answer, asked, heard.text);
			return accepted(kept, replied.accepted, { outcome: replied.read > 0 ? "answer" : "unreadable", codes: [] });
		}
	}
}

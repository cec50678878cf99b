import * as E from "fp-ts/lib/Either.js";
import {
	type AcceptContext,
	type Accepted,
	acceptAnswer,
	applyReplies,
	cleanWords,
	looseOccurrences,
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

interface Parsed {
	readonly answer: RawAnswer | undefined;
	readonly accepted: Accepted | undefined;
	readonly defects: readonly Defect[];
	/** What the repair cut or left out to bring the answer within the schema's bounds. */
	readonly cuts: Repaired["cuts"];
}

/** Where the chunk's calls stand: which call is out, its budget, the answer kept so far. */
export interface DiffState {
	readonly context: DiffContext;
	readonly phase: "diff" | "raised" | "retry" | "questions";
	readonly budget: number;
	readonly kept: Parsed | undefined;
	readonly asked: readonly Question[];
}

type Step = SectionStep<DiffState, DiffResult>;

/** Reads a reply, repairing what ran past a bound code can bring back (see repair.ts), and accepts it. */
function parse(ctx: AcceptContext, text: string): Parsed {
	const read = readRelaxedAnswer(text);
	if (E.isLeft(read)) return { answer: undefined, accepted: undefined, defects: [read.left], cuts: [] };
	const { answer, cuts } = repairAnswer(read.right);
	const accepted = acceptAnswer(ctx, answer);
	return { answer, accepted, defects: accepted.defects, cuts };
}

function judgedOf(parsed: Parsed): Judged {
	const outcome = parsed.answer === undefined ? "unreadable" : parsed.defects.length > 0 ? "defects" : "answer";
	return { outcome, codes: parsed.defects.map((d) => d.code) };
}

/** Fewer defects wins; a parsed answer always beats none; a tie goes to the newer. */
function better(a: Parsed | undefined, b: Parsed): Parsed {
	if (a?.answer === undefined) return b;
	if (b.answer === undefined) return a;
	return b.defects.length <= a.defects.length ? b : a;
}

/** The `words` of the answer's labels that no rule the answer recorded holds (as `ruleWords` finds words). */
function rejectedQuotes(answer: RawAnswer, accepted: Accepted): string[] {
	const recorded = accepted.events.flatMap((e) => (e.type === "rule-added" ? [e.data.words] : []));
	const holds = (words: string, given: string) =>
		looseOccurrences(words, cleanWords(given), { start: 0, end: words.length }).length > 0;
	return answer.labels.flatMap((label) => {
		const given = label.words;
		return given !== undefined && !recorded.some((words) => holds(words, given)) ? [given] : [];
	});
}

function done(result: DiffResult, judged?: Judged): Step {
	return { kind: "done", result, ...(judged === undefined ? {} : { judged }) };
}

/** The settled acceptance; what the repair cut is counted with what acceptance dropped, for the log. */
function accepted(kept: Parsed, answer: RawAnswer, settled: Accepted, judged?: Judged): Step {
	const dropped = [...kept.cuts, ...settled.dropped];
	return done(
		{ accepted: { ...settled, dropped }, reason: null, rejectedQuotes: rejectedQuotes(answer, settled) },
		judged,
	);
}

/** The first call: the chunk's prompt within the first budget. */
export function startDiff(context: DiffContext): Extract<Step, { kind: "ask" }> {
	const budget = Math.min(FIRST_BUDGET, context.maxTokens);
	const state: DiffState = { context, phase: "diff", budget, kept: undefined, asked: [] };
	return { kind: "ask", state, ask: { purpose: "diff", text: context.prompt.user, maxTokens: budget } };
}

/**
 * Once an answer parsed or none will: with nothing usable, the reason; with lift questions and a last call that
 * answered, one more call asks them; else the answer accepted as final.
 */
function settle(state: DiffState, kept: Parsed | undefined, lastAnswered: boolean, judged?: Judged): Step {
	if (kept?.answer === undefined || kept.accepted === undefined)
		return done({ accepted: undefined, reason: kept?.defects[0]?.code ?? "no-answer", rejectedQuotes: [] }, judged);
	const { ctx, prompt, retryNoteChars, maxTokens } = state.context;
	const questions = renderQuestions(kept.accepted.questions, retryNoteChars);
	if (questions.asked.length === 0 || !lastAnswered)
		return accepted(kept, kept.answer, acceptAnswer(ctx, kept.answer, { final: true }), judged);
	const text = `${prompt.user}\n\nYour answer was:\n${JSON.stringify(kept.answer)}\n\n${questions.text}`;
	return {
		kind: "ask",
		state: { ...state, phase: "questions", kept, asked: questions.asked },
		ask: { purpose: "questions", text, maxTokens: Math.min(FIRST_BUDGET, maxTokens) },
		...(judged === undefined ? {} : { judged }),
	};
}

/** After the first answer (raised or not): a format defect is retried once with a note, the parsed answer kept. */
function afterFirst(state: DiffState, parsed: Parsed): Step {
	const judged = judgedOf(parsed);
	if (parsed.defects.length === 0) return settle(state, parsed, true, judged);
	const note = retryNote(parsed.defects, state.context.retryNoteChars);
	const text = `${state.context.prompt.user}\n\nYour previous answer had these problems; answer again in full, fixed:\n${note}`;
	return {
		kind: "ask",
		state: { ...state, phase: "retry", kept: parsed },
		ask: { purpose: "retry", text, maxTokens: state.budget },
		judged,
	};
}

/**
 * The chunk's next step once a call came back (docs/how-it-works.md, One pass): an answer cut at the output
 * limit with nothing usable is asked again with twice the budget; then one retry; then the questions, once.
 */
export function hearDiff(state: DiffState, heard: SectionHeard): Step {
	const { ctx, maxTokens } = state.context;
	switch (state.phase) {
		case "diff":
		case "raised": {
			if (heard.kind === "failed") return done({ accepted: undefined, reason: heard.reason, rejectedQuotes: [] });
			const parsed = parse(ctx, heard.text);
			const raised = Math.min(Math.max(state.budget * 2, RAISED_BUDGET_MIN), maxTokens);
			if (
				state.phase === "diff" &&
				heard.stopReason === "length" &&
				parsed.answer === undefined &&
				raised > state.budget
			)
				return {
					kind: "ask",
					state: { ...state, phase: "raised", budget: raised },
					ask: { purpose: "raised", text: state.context.prompt.user, maxTokens: raised },
					judged: judgedOf(parsed),
				};
			return afterFirst(state, parsed);
		}
		case "retry": {
			if (heard.kind === "failed") return settle(state, state.kept, false);
			const retried = parse(ctx, heard.text);
			return settle(state, better(state.kept, retried), true, judgedOf(retried));
		}
		case "questions": {
			const { kept } = state;
			if (kept?.answer === undefined) return done({ accepted: undefined, reason: "no-answer", rejectedQuotes: [] });
			const text = heard.kind === "text" ? heard.text : "";
			const settled = applyReplies(ctx, kept.answer, state.asked, text).accepted;
			return accepted(
				kept,
				kept.answer,
				settled,
				heard.kind === "text" ? { outcome: "unreadable", codes: [] } : undefined,
			);
		}
		default: {
			const unknownPhase: never = state.phase;
			return unknownPhase;
		}
	}
}

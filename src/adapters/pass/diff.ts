import * as E from "fp-ts/lib/Either.js";
import { type AcceptContext, type Accepted, acceptAnswer } from "../../pass/accept.js";
import { type RawAnswer, readRelaxedAnswer } from "../../pass/answer.js";
import { type Defect, retryNote } from "../../pass/defects.js";
import type { Prompt } from "../../pass/prompt.js";
import { renderQuestions } from "../../pass/questions.js";
import { type Repaired, repairAnswer } from "../../pass/repair.js";
import { applyReplies } from "../../pass/replies.js";
import { cleanWords } from "../../pass/verify/rule-words.js";
import { looseOccurrences } from "../../pass/verify/words.js";
import type { ModelReply, PassModel } from "./model.js";

/** The first output budget of a diff call, in tokens. */
export const FIRST_BUDGET = 4096;
/** A cut-off answer is retried with twice the budget, at least this many tokens (seed). */
export const RAISED_BUDGET_MIN = 8192;

/** What one call did, for the log: no message text. */
export interface CallTrace {
	readonly purpose: "diff" | "raised" | "retry" | "questions";
	readonly maxTokens: number;
	readonly stopReason: string;
	readonly inputTokens: number;
	readonly outputTokens: number;
	readonly ms: number;
	readonly outcome: "answer" | "defects" | "unreadable" | "threw";
	readonly defects: readonly string[];
}

/** A chunk's diff: the settled acceptance, or the reason there is none, and the trace of its calls. */
export interface ChunkDiff {
	readonly accepted: Accepted | undefined;
	readonly reason: string | null;
	readonly calls: readonly CallTrace[];
	/** Rule words the model gave that no recorded rule holds: pieces of the user's text, for the opt-in excerpts. */
	readonly rejectedQuotes: readonly string[];
}

class Aborted extends Error {}

function errorClass(error: unknown): string {
	return error instanceof Error ? error.constructor.name : typeof error;
}

/** Settles with `promise`, or rejects as soon as `signal` aborts: a provider that ignores the signal cannot hold the pass. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) {
		// The call was already made: its own rejection, if it comes, has nobody left to hear it.
		promise.catch(() => undefined);
		return Promise.reject(new Aborted("aborted"));
	}
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(new Aborted("aborted"));
		signal.addEventListener("abort", onAbort, { once: true });
		promise.then(
			(value) => {
				signal.removeEventListener("abort", onAbort);
				resolve(value);
			},
			(error: unknown) => {
				signal.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}

/** Asks the model; a rejection or an `error` stop is a reason string, an abort is rethrown. */
async function ask(
	model: PassModel,
	system: string,
	prompt: string,
	maxTokens: number,
	signal: AbortSignal,
	now: () => number,
): Promise<{ reply: ModelReply | undefined; reason: string | null; ms: number }> {
	const start = now();
	try {
		const reply = await untilAborted(model.call({ system, prompt, maxTokens }, signal), signal);
		if (signal.aborted || reply.stopReason === "aborted") throw new Aborted("aborted");
		if (reply.stopReason === "error") return { reply: undefined, reason: "model-error", ms: now() - start };
		return { reply, reason: null, ms: now() - start };
	} catch (error) {
		if (signal.aborted || error instanceof Aborted) throw error;
		return { reply: undefined, reason: `model-threw:${errorClass(error)}`, ms: now() - start };
	}
}

interface Parsed {
	readonly answer: RawAnswer | undefined;
	readonly accepted: Accepted | undefined;
	readonly defects: readonly Defect[];
	/** What the repair cut or left out to bring the answer within the schema's bounds. */
	readonly cuts: Repaired["cuts"];
}

/** Reads a reply, repairing what ran past a bound code can bring back (see repair.ts), and accepts it. */
function parse(ctx: AcceptContext, text: string): Parsed {
	const read = readRelaxedAnswer(text);
	if (E.isLeft(read)) return { answer: undefined, accepted: undefined, defects: [read.left], cuts: [] };
	const { answer, cuts } = repairAnswer(read.right);
	const accepted = acceptAnswer(ctx, answer);
	return { answer, accepted, defects: accepted.defects, cuts };
}

function trace(
	purpose: CallTrace["purpose"],
	maxTokens: number,
	got: Awaited<ReturnType<typeof ask>>,
	parsed: Parsed | undefined,
): CallTrace {
	const outcome: CallTrace["outcome"] =
		got.reply === undefined
			? "threw"
			: parsed?.answer === undefined
				? "unreadable"
				: parsed.defects.length > 0
					? "defects"
					: "answer";
	return {
		purpose,
		maxTokens,
		stopReason: got.reply?.stopReason ?? got.reason ?? "",
		inputTokens: got.reply?.inputTokens ?? 0,
		outputTokens: got.reply?.outputTokens ?? 0,
		ms: got.ms,
		outcome,
		defects: parsed?.defects.map((d) => d.code) ?? [],
	};
}

/** Fewer defects wins; a parsed answer always beats none. */
function better(a: Parsed | undefined, b: Parsed): Parsed {
	if (a?.answer === undefined) return b;
	if (b.answer === undefined) return a;
	return b.defects.length <= a.defects.length ? b : a;
}

/**
 * The diff of one chunk (seed, Diff and When the diff fails): one call; an answer cut at the output limit with
 * nothing usable is asked again with twice the budget; an answer past a bound code can repair (within twice it) is
 * repaired, not retried, and a short rule message's words found nowhere are ignored (both deliberate extensions of
 * the seed); a format defect is retried once with a note while the parsed answer is kept; lift questions get one
 * more call once the answer is settled (never after a call that threw).
 */
export async function diffChunk(
	model: PassModel,
	prompt: Prompt,
	chunkCtx: AcceptContext,
	options: { readonly retryNoteChars: number; readonly signal: AbortSignal; readonly now: () => number },
): Promise<ChunkDiff> {
	const { signal, now } = options;
	const ctx: AcceptContext = { ...chunkCtx, unwrittenWhole: true };
	const calls: CallTrace[] = [];
	let budget = Math.min(FIRST_BUDGET, model.maxTokens);
	let got = await ask(model, prompt.system, prompt.user, budget, signal, now);
	let parsed = got.reply === undefined ? undefined : parse(ctx, got.reply.text);
	calls.push(trace("diff", budget, got, parsed));
	if (got.reply?.stopReason === "length" && parsed?.answer === undefined) {
		const raised = Math.min(Math.max(budget * 2, RAISED_BUDGET_MIN), model.maxTokens);
		if (raised > budget) {
			budget = raised;
			got = await ask(model, prompt.system, prompt.user, budget, signal, now);
			parsed = got.reply === undefined ? undefined : parse(ctx, got.reply.text);
			calls.push(trace("raised", budget, got, parsed));
		}
	}
	if (got.reply === undefined) return { accepted: undefined, reason: got.reason, calls, rejectedQuotes: [] };
	let kept = parsed;
	if (kept !== undefined && kept.defects.length > 0) {
		const note = retryNote(kept.defects, options.retryNoteChars);
		const retryPrompt = `${prompt.user}\n\nYour previous answer had these problems; answer again in full, fixed:\n${note}`;
		const retry = await ask(model, prompt.system, retryPrompt, budget, signal, now);
		const retried = retry.reply === undefined ? undefined : parse(ctx, retry.reply.text);
		calls.push(trace("retry", budget, retry, retried));
		if (retried !== undefined) kept = better(kept, retried);
		if (retry.reply === undefined) got = retry;
	}
	if (kept?.answer === undefined || kept.accepted === undefined)
		return { accepted: undefined, reason: kept?.defects[0]?.code ?? "no-answer", calls, rejectedQuotes: [] };
	const accepted = await settle(
		model,
		prompt,
		ctx,
		kept.answer,
		kept.accepted,
		got.reply !== undefined,
		options,
		calls,
	);
	return {
		accepted: { ...accepted, dropped: [...kept.cuts, ...accepted.dropped] },
		reason: null,
		calls,
		rejectedQuotes: rejectedQuotes(kept.answer, accepted),
	};
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

/** Asks the lift questions once, when there are any and the last call did not throw; else accepts as final. */
async function settle(
	model: PassModel,
	prompt: Prompt,
	ctx: AcceptContext,
	answer: RawAnswer,
	accepted: Accepted,
	lastCallAnswered: boolean,
	options: { readonly retryNoteChars: number; readonly signal: AbortSignal; readonly now: () => number },
	calls: CallTrace[],
): Promise<Accepted> {
	const questions = renderQuestions(accepted.questions, options.retryNoteChars);
	if (questions.asked.length === 0 || !lastCallAnswered) return acceptAnswer(ctx, answer, { final: true });
	const questionPrompt = `${prompt.user}\n\nYour answer was:\n${JSON.stringify(answer)}\n\n${questions.text}`;
	const got = await ask(
		model,
		prompt.system,
		questionPrompt,
		Math.min(FIRST_BUDGET, model.maxTokens),
		options.signal,
		options.now,
	);
	calls.push(trace("questions", FIRST_BUDGET, got, undefined));
	return applyReplies(ctx, answer, questions.asked, got.reply?.text ?? "").accepted;
}

export { Aborted };

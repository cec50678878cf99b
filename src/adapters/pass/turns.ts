import * as E from "fp-ts/lib/Either.js";
import type { Event } from "../../events/event.js";
import type { Message } from "../../events/messages.js";
import type { World } from "../../events/world.js";
import { type AcceptContext, acceptAnswer } from "../../pass/accept.js";
import type { RawAnswer, RawLabel } from "../../pass/answer.js";
import type { Question } from "../../pass/questions.js";
import { type Failure, readSection, type SectionAnswer } from "../../pass/turns/codecs.js";
import { digest } from "../../pass/turns/digest.js";
import {
	type Excused,
	type ExpectationCheck,
	modifiedFiles,
	type UnfixedError,
	unfixedErrors,
} from "../../pass/turns/expectations.js";
import { type GateContext, gateSection, keptPart, type Verdict } from "../../pass/turns/gate.js";
import {
	answerQuestions,
	judgeLabels,
	mergeLabels,
	settledLabels,
	standingLabels,
} from "../../pass/turns/label-gate.js";
import { type AskInput, askPrompt, repairPrompt, TURNS_SYSTEM } from "../../pass/turns/prompts.js";
import { REPAIR_TURNS, SECTIONS, type Section, SHOWS_PER_TURN } from "../../pass/turns/sections.js";
import { answerShow, SHOW_TOOL, type ShowSources } from "../../pass/turns/show.js";
import { Aborted, type CallTrace, FIRST_BUDGET, RAISED_BUDGET_MIN } from "./diff.js";
import type {
	Conversation,
	ConversationInput,
	ConversationReply,
	ConversationStep,
	PassModel,
	ToolAnswer,
} from "./model.js";

// ---------------------------------------------------------------------------------------------------------------
// The contract with the pass
// ---------------------------------------------------------------------------------------------------------------

/** Taking over from another compactor: the earlier summary and the user's earlier messages, by kind. */
export interface TakeoverRefs {
	/** The newest foreign compaction's summary. */
	readonly summary: string;
	/** Refs in `ctx.toLabel` of earlier messages the model labels; the Digest shows each cut to its start. */
	readonly earlier: readonly string[];
	/** Refs in `ctx.toLabel` of earlier messages read as standing rules: code records each, none is offered a label. */
	readonly standing: readonly string[];
}

/** What a turns-mode pass reads: what the single mode's prompt and acceptance read, for the whole span. */
export interface TurnsInput {
	/** Acceptance's context: the state after the ledger, and every message to label (takeover's included). */
	readonly ctx: AcceptContext;
	/** The state so far, rendered. */
	readonly stateText: string;
	readonly ledger: readonly Event[];
	readonly world: World;
	/** The span's messages, and the refs of the user messages among them. */
	readonly messages: readonly Message[];
	readonly messageRefs: readonly string[];
	/** Notes `longhaul_remember` wrote during the span. */
	readonly notes: readonly string[];
	readonly takeover?: TakeoverRefs;
}

/** The budgets and effects of a turns-mode pass. */
export interface TurnsOptions {
	/** The whole conversation's time budget (`turnsBudgetMs`); sections it cannot reach carry. */
	readonly turnsBudgetMs: number;
	/** One turn's time budget (`turnBudgetMs`); a slower call is abandoned. */
	readonly turnBudgetMs: number;
	readonly retryNoteChars: number;
	readonly signal: AbortSignal;
	readonly now: () => number;
	/** Told which turn runs, for pi's footer status. */
	readonly status?: (text: string) => void;
}

/** The accepted answer of the whole conversation, as the pass folds it in. */
export interface TurnsAccepted {
	readonly events: readonly Event[];
	readonly labeled: readonly string[];
	readonly labels: readonly { readonly msg: string; readonly label: string }[];
	/** Items left out, by acceptance or by the gate after the repair turns, with a reason code. */
	readonly dropped: readonly { readonly item: string; readonly reason: string }[];
}

/** What one turn did, for the log: no message text. */
export interface TurnTrace {
	readonly section: Section;
	readonly kind: "ask" | "repair" | "extra";
	readonly shows: number;
	readonly ms: number;
	readonly outcome: "answer" | "failures" | "unreadable" | "failed";
	/** The failure codes the gate found, or the reason the turn failed. */
	readonly codes: readonly string[];
}

/** A turns-mode pass: the accepted answer (undefined when no section was answered) and what it cost. */
export interface TurnsOutcome {
	readonly accepted: TurnsAccepted | undefined;
	/** Why a section was not reached or not answered (the first such reason); null when every section was. */
	readonly reason: string | null;
	readonly calls: readonly CallTrace[];
	readonly turns: readonly TurnTrace[];
	/** Expectations the model excused, with its one-sentence reason: the span record keeps them. */
	readonly excused: readonly Excused[];
	/** Expectations neither met nor excused when their section's turns ran out. */
	readonly unmet: readonly ExpectationCheck[];
	/** The sections an answer was read for. */
	readonly answered: readonly Section[];
	/** Messages of `ctx.toLabel` left without a label; the next pass must offer them again. */
	readonly unlabeled: readonly string[];
	readonly digestChars: number;
}

// ---------------------------------------------------------------------------------------------------------------
// One turn: a user text, the model's tool calls answered, within the turn's time budget
// ---------------------------------------------------------------------------------------------------------------

/** The state of one conversation; the orchestrator's only mutable record. */
interface Run {
	readonly input: TurnsInput;
	readonly options: TurnsOptions;
	readonly maxTokens: number;
	readonly started: number;
	readonly sources: ShowSources;
	readonly calls: CallTrace[];
	readonly turns: TurnTrace[];
	conversation: Conversation;
	/** The Digest, until a turn that carries it is answered: a first turn abandoned leaves it to the next. */
	digest: string | undefined;
	budget: number;
	reason: string | null;
}

type Turned = { readonly kind: "reply"; readonly text: string } | { readonly kind: "failed"; readonly reason: string };

class TurnEnded extends Error {}

function errorClass(error: unknown): string {
	return error instanceof Error ? error.constructor.name : typeof error;
}

function timeLeft(run: Run): number {
	return run.options.turnsBudgetMs - (run.options.now() - run.started);
}

/** An abort signal that fires at `ms` or with the outer signal, and a promise that rejects when it does. */
function deadline(ms: number, outer: AbortSignal) {
	const controller = new AbortController();
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		controller.abort();
	}, ms);
	const onOuter = () => controller.abort();
	outer.addEventListener("abort", onOuter, { once: true });
	if (outer.aborted) controller.abort();
	const ended = new Promise<never>((_, reject) => {
		const end = () => reject(new TurnEnded("turn ended"));
		if (controller.signal.aborted) end();
		else controller.signal.addEventListener("abort", end, { once: true });
	});
	ended.catch(() => undefined);
	return {
		signal: controller.signal,
		ended,
		timedOut: () => timedOut,
		clear: () => {
			clearTimeout(timer);
			outer.removeEventListener("abort", onOuter);
		},
	};
}

const PURPOSE: Readonly<Record<TurnTrace["kind"], CallTrace["purpose"]>> = {
	ask: "diff",
	repair: "retry",
	extra: "questions",
};

function callTrace(run: Run, kind: TurnTrace["kind"], reply: ConversationReply | undefined, ms: number, why = "") {
	run.calls.push({
		purpose: PURPOSE[kind],
		maxTokens: run.budget,
		stopReason: reply?.stopReason ?? why,
		inputTokens: reply?.inputTokens ?? 0,
		outputTokens: reply?.outputTokens ?? 0,
		ms,
		outcome: reply === undefined ? "threw" : "answer",
		defects: [],
	});
}

function answers(run: Run, reply: ConversationReply, before: number): ToolAnswer[] {
	return reply.toolCalls.map((call, i) => {
		const shown = answerShow(call.name, call.arguments, before + i, run.sources);
		return { id: call.id, name: call.name, text: shown.text, refused: !shown.found };
	});
}

/** Sends the turn's text and answers `show` calls until the model answers in text; never past the turn's deadline. */
async function exchange(
	run: Run,
	text: string,
	kind: TurnTrace["kind"],
	signal: AbortSignal,
	ended: Promise<never>,
): Promise<{ turned: Turned; shows: number }> {
	const { now } = run.options;
	let conversation = run.conversation;
	let input: ConversationInput = { kind: "text", text: run.digest === undefined ? text : `${run.digest}\n\n${text}` };
	let shows = 0;
	// The cap's calls, one more round for the model to hear it is capped, then the turn gives up.
	for (let round = 0; round <= SHOW_ROUNDS; round++) {
		const start = now();
		const step: ConversationStep = await Promise.race([conversation.send(input, run.budget, signal), ended]);
		callTrace(run, kind, step.reply, now() - start);
		const { reply } = step;
		if (reply.stopReason === "aborted") throw new TurnEnded("aborted");
		if (reply.stopReason === "error") return { turned: { kind: "failed", reason: "model-error" }, shows };
		conversation = step.next;
		if (reply.toolCalls.length === 0) {
			run.conversation = conversation;
			run.digest = undefined;
			if (reply.stopReason === "length") run.budget = raisedBudget(run);
			return { turned: { kind: "reply", text: reply.text }, shows };
		}
		input = { kind: "tool-answers", answers: answers(run, reply, shows) };
		shows += reply.toolCalls.length;
	}
	return { turned: { kind: "failed", reason: "tool-loop" }, shows };
}

/** Rounds of tool calls a turn allows: the capped calls one a round, and one more to hear the refusal. */
const SHOW_ROUNDS = SHOWS_PER_TURN + 1;

function raisedBudget(run: Run): number {
	return Math.min(Math.max(run.budget * 2, RAISED_BUDGET_MIN), run.maxTokens);
}

/** One turn within the turn's budget and what is left of the pass's; an outer abort is rethrown. */
async function turn(run: Run, section: Section, kind: TurnTrace["kind"], text: string): Promise<Turned> {
	const { now, signal } = run.options;
	const start = now();
	const repair = kind === "ask" ? "" : ` (${kind})`;
	run.options.status?.(`Longhaul: turn ${SECTIONS.indexOf(section) + 1}/${SECTIONS.length} ${section}${repair}`);
	const limit = deadline(Math.max(0, Math.min(run.options.turnBudgetMs, timeLeft(run))), signal);
	let result: { turned: Turned; shows: number };
	try {
		result = await exchange(run, text, kind, limit.signal, limit.ended);
	} catch (error) {
		if (signal.aborted) throw new Aborted("aborted");
		const reason = limit.timedOut() ? "turn-budget" : `model-threw:${errorClass(error)}`;
		callTrace(run, kind, undefined, now() - start, reason);
		result = { turned: { kind: "failed", reason }, shows: 0 };
	} finally {
		limit.clear();
	}
	if (signal.aborted) throw new Aborted("aborted");
	const codes = result.turned.kind === "failed" ? [result.turned.reason] : [];
	run.turns.push({ section, kind, shows: result.shows, ms: now() - start, outcome: "failed", codes });
	return result.turned;
}

/** Records what the gate made of the turn's answer on its turn and its last call. */
function judged(run: Run, outcome: TurnTrace["outcome"], failures: readonly Failure[]): void {
	const codes = failures.map((f) => f.code);
	const lastTurn = run.turns.at(-1);
	if (lastTurn !== undefined) run.turns[run.turns.length - 1] = { ...lastTurn, outcome, codes };
	const lastCall = run.calls.at(-1);
	const callOutcome = outcome === "failures" ? "defects" : outcome === "failed" ? "threw" : outcome;
	if (lastCall !== undefined) run.calls[run.calls.length - 1] = { ...lastCall, outcome: callOutcome, defects: codes };
}

// ---------------------------------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------------------------------

/** What a section's turns came to. */
interface SectionResult {
	readonly answered: boolean;
	readonly part: Partial<RawAnswer>;
	readonly excused: readonly Excused[];
	readonly unmet: readonly ExpectationCheck[];
	readonly dropped: readonly Failure[];
}

const NOT_ANSWERED: SectionResult = { answered: false, part: {}, excused: [], unmet: [], dropped: [] };

type TextAnswer = Exclude<SectionAnswer, { section: "labels" }>;

function failed(run: Run, reason: string): void {
	run.reason ??= reason;
}

/** Fewer failures wins, then fewer unmet expectations; a tie goes to the newer answer. */
function better(a: { verdict: Verdict } | undefined, b: { verdict: Verdict }): boolean {
	if (a === undefined) return true;
	const score = (v: Verdict) => [v.failures.length, v.unmet.length] as const;
	const [af, au] = score(a.verdict);
	const [bf, bu] = score(b.verdict);
	return bf < af || (bf === af && bu <= au);
}

/** A section other than the labels: asked, gated, repaired up to twice; what still fails is dropped. */
async function textSection(run: Run, section: Exclude<Section, "labels">, first: string, g: GateContext) {
	let best: { answer: TextAnswer; verdict: Verdict } | undefined;
	let unread: string | undefined;
	let prompt = first;
	for (let attempt = 0; attempt <= REPAIR_TURNS; attempt++) {
		if (timeLeft(run) <= 0) {
			failed(run, "turns-budget");
			break;
		}
		const got = await turn(run, section, attempt === 0 ? "ask" : "repair", prompt);
		if (got.kind === "failed") {
			failed(run, got.reason);
			break;
		}
		const read = readSection(section, got.text);
		const answer = E.isRight(read) && read.right.section !== "labels" ? read.right : undefined;
		const verdict: Verdict =
			answer === undefined
				? {
						failures: [E.isLeft(read) ? read.left : { item: section, code: "schema", note: "unreadable" }],
						unmet: [],
						excused: [],
					}
				: gateSection(answer, g);
		judged(
			run,
			answer === undefined ? "unreadable" : verdict.failures.length > 0 ? "failures" : "answer",
			verdict.failures,
		);
		if (answer === undefined) unread = verdict.failures[0]?.code ?? "no-answer";
		else if (better(best, { verdict })) best = { answer, verdict };
		if (verdict.failures.length === 0 && verdict.unmet.length === 0) break;
		prompt = repairPrompt({ section, ...verdict, questions: [], maxChars: run.options.retryNoteChars }).text;
	}
	if (best === undefined) {
		if (unread !== undefined) failed(run, unread);
		return NOT_ANSWERED;
	}
	return {
		answered: true,
		part: keptPart(best.answer, best.verdict),
		excused: best.verdict.excused,
		unmet: best.verdict.unmet.map((u) => u.check),
		dropped: best.verdict.failures,
	};
}

const questionKey = (q: Question) => `${q.msg}|${q.label}|${q.targets.join(",")}`;

/** The labels one reply gives: its answers to the asked questions, then the labels of the messages it was asked for. */
function labelsFromReply(
	run: Run,
	held: readonly RawLabel[],
	reply: string,
	open: ReadonlySet<string>,
	asked: readonly Question[],
): { labels: RawLabel[]; failures: Failure[] } {
	const { ctx } = run.input;
	const read = readSection("labels", reply);
	const answered = answerQuestions(ctx, held, asked, reply);
	if (E.isLeft(read) || read.right.section !== "labels")
		return { labels: answered, failures: E.isLeft(read) ? [read.left] : [] };
	const merged = mergeLabels(answered, read.right.labels, open, offeredRefs(run.input));
	return { labels: merged.labels, failures: [...read.right.broken, ...merged.failures] };
}

function offeredRefs(input: TurnsInput): ReadonlySet<string> {
	const standing = new Set(input.takeover?.standing ?? []);
	return new Set(input.ctx.toLabel.map((u) => u.ref).filter((ref) => !standing.has(ref)));
}

/**
 * What the next labels turn asks, if anything: the failures and the questions not asked yet while repairs remain;
 * after the last repair, only the questions about a lift refused because its rule was replaced that it first raised.
 */
function nextLabelsAsk(
	attempt: number,
	failures: readonly Failure[],
	fresh: readonly Question[],
	extra: readonly Question[],
	maxChars: number,
): { readonly text: string; readonly asked: readonly Question[] } | undefined {
	const ask = (f: readonly Failure[], questions: readonly Question[]) => {
		const next = repairPrompt({ section: "labels", failures: f, unmet: [], questions, maxChars });
		return next.text === "" ? undefined : next;
	};
	if (failures.length === 0 && fresh.length === 0) return undefined;
	if (attempt < REPAIR_TURNS) return ask(failures, fresh);
	return attempt === REPAIR_TURNS && extra.length > 0 ? ask([], extra) : undefined;
}

/**
 * The labels section: every offered message labeled, repaired up to twice (only the failing messages are asked
 * again); lift questions are asked once, in the next turn, and a lift refused because its rule was replaced that
 * the last turn first raised gets one more turn. A label still failing is dropped.
 */
async function labelsSection(run: Run, first: string): Promise<SectionResult> {
	const { ctx } = run.input;
	const standing = new Set(run.input.takeover?.standing ?? []);
	const offered = offeredRefs(run.input);
	let held: RawLabel[] = standingLabels([...standing]);
	let open: ReadonlySet<string> = offered;
	let prompt = first;
	let asked: readonly Question[] = [];
	const raised = new Set<string>();
	const everAsked = new Set<string>();
	let last: Failure[] = [];
	let answered = false;
	for (let attempt = 0; ; attempt++) {
		if (timeLeft(run) <= 0) {
			failed(run, "turns-budget");
			break;
		}
		const kind = attempt === 0 ? "ask" : attempt <= REPAIR_TURNS ? "repair" : "extra";
		const got = await turn(run, "labels", kind, prompt);
		if (got.kind === "failed") {
			failed(run, got.reason);
			break;
		}
		const reply = labelsFromReply(run, held, got.text, open, asked);
		held = reply.labels;
		const verdict = judgeLabels(ctx, held, standing);
		last = [...reply.failures, ...verdict.failures];
		const readable = !reply.failures.some((f) => f.item === "labels");
		answered ||= readable;
		judged(run, !readable ? "unreadable" : last.length > 0 ? "failures" : "answer", last);
		const fresh = verdict.questions.filter((q) => !everAsked.has(questionKey(q)));
		const firstRaised = fresh.filter((q) => !raised.has(questionKey(q)));
		for (const q of verdict.questions) raised.add(questionKey(q));
		const extra = firstRaised.filter((q) => verdict.replaced.has(q.msg));
		const next = nextLabelsAsk(attempt, last, fresh, extra, run.options.retryNoteChars);
		if (next === undefined) break;
		prompt = next.text;
		asked = next.asked;
		for (const q of asked) everAsked.add(questionKey(q));
		// The extra turn asks only its questions: a failing label had its two repairs.
		open =
			attempt < REPAIR_TURNS
				? new Set(last.map((f) => f.item.split(":")[0] ?? "").filter((ref) => offered.has(ref)))
				: new Set();
	}
	if (!answered && last[0] !== undefined) failed(run, last[0].code);
	const labels = settledLabels(ctx, held);
	const dropped = answered ? last.filter((f) => f.item !== "labels") : [];
	return { answered, part: { labels }, excused: [], unmet: [], dropped };
}

// ---------------------------------------------------------------------------------------------------------------
// The conversation
// ---------------------------------------------------------------------------------------------------------------

function digestOf(input: TurnsInput): string {
	const { ctx, takeover } = input;
	const earlier = new Set(takeover?.earlier ?? []);
	const standing = new Set(takeover?.standing ?? []);
	return digest({
		span: ctx.span,
		stateText: input.stateText,
		state: ctx.state,
		whole: ctx.toLabel.filter((u) => !earlier.has(u.ref) && !standing.has(u.ref)),
		earlier: ctx.toLabel.filter((u) => earlier.has(u.ref) && !standing.has(u.ref)),
		standing: ctx.toLabel.filter((u) => standing.has(u.ref)),
		foreignSummary: takeover?.summary,
		ledger: input.ledger,
		world: input.world,
		notes: input.notes,
		messages: input.messages,
		messageRefs: input.messageRefs,
	});
}

function askInput(input: TurnsInput, modified: readonly string[], unfixed: readonly UnfixedError[]): AskInput {
	return {
		offered: [...offeredRefs(input)],
		standing: input.takeover?.standing ?? [],
		modified,
		unfixed,
	};
}

async function section(run: Run, name: Section, prompt: string, g: GateContext): Promise<SectionResult> {
	return name === "labels" ? labelsSection(run, prompt) : textSection(run, name, prompt, g);
}

/** The answer the sections came to; a section not answered adds nothing, so the state keeps what it had. */
function assemble(results: readonly SectionResult[]): RawAnswer {
	const answer: RawAnswer = { labels: [], decisions: [], deadEnds: [], values: [] };
	for (const { part } of results) Object.assign(answer, part);
	return answer;
}

/**
 * Turns mode (seed, Turns mode): one continuing conversation, one section a turn in the fixed order, the Digest in
 * the first turn, `show(ref)` as the only tool, the gate after every answer, within the pass's and each turn's time
 * budget. The model names no values; standing rules read by code carry no label. Rejects only on abort.
 */
export async function diffTurns(input: TurnsInput, model: PassModel, options: TurnsOptions): Promise<TurnsOutcome> {
	const text = digestOf(input);
	const base = { calls: [], turns: [], excused: [], unmet: [], answered: [], digestChars: text.length };
	if (model.converse === undefined)
		return {
			...base,
			accepted: undefined,
			reason: "model-cannot-converse",
			unlabeled: input.ctx.toLabel.map((u) => u.ref),
		};
	const modified = modifiedFiles(input.ledger);
	const unfixed = unfixedErrors(input.ledger);
	const g: GateContext = { ledgerIds: input.ctx.ledger, modified, unfixed };
	const run: Run = {
		input,
		options,
		maxTokens: model.maxTokens,
		started: options.now(),
		sources: { branch: input.ctx.branch, messages: input.messages, ledger: input.ledger, state: input.ctx.state },
		calls: [],
		turns: [],
		conversation: model.converse(TURNS_SYSTEM, [SHOW_TOOL]),
		digest: text,
		budget: Math.min(FIRST_BUDGET, model.maxTokens),
		reason: null,
	};
	const asks = askInput(input, modified, unfixed);
	const results: SectionResult[] = [];
	for (const name of SECTIONS) results.push(await section(run, name, askPrompt(name, asks), g));
	return outcome(run, results, text.length);
}

function outcome(run: Run, results: readonly SectionResult[], digestChars: number): TurnsOutcome {
	const { ctx } = run.input;
	const answered = SECTIONS.filter((_, i) => results[i]?.answered === true);
	const common = {
		reason: run.reason,
		calls: run.calls,
		turns: run.turns,
		excused: results.flatMap((r) => r.excused),
		unmet: results.flatMap((r) => r.unmet),
		answered,
		digestChars,
	};
	if (answered.length === 0)
		return {
			...common,
			accepted: undefined,
			reason: run.reason ?? "no-answer",
			unlabeled: ctx.toLabel.map((u) => u.ref),
		};
	const accepted = acceptAnswer(ctx, assemble(results), { final: true });
	const gateDropped = results.flatMap((r) => r.dropped.map((f) => ({ item: f.item, reason: f.code })));
	const labeled = new Set(accepted.labeled);
	return {
		...common,
		accepted: {
			events: accepted.events,
			labeled: accepted.labeled,
			labels: accepted.labels,
			dropped: [...gateDropped, ...accepted.dropped],
		},
		unlabeled: ctx.toLabel.map((u) => u.ref).filter((ref) => !labeled.has(ref)),
	};
}

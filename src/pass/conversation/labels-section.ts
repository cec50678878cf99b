import * as E from "fp-ts/lib/Either.js";
import type { AcceptContext, Question } from "../accept/index.js";
import type { RawLabel } from "../answer/index.js";
import type { Judged, SectionAsk, SectionHeard, SectionStep } from "./section.js";
import type { TurnSectionResult } from "./turn-section.js";
import { type Failure, readSection } from "./turns/codecs.js";
import { answerQuestions, judgeLabels, mergeLabels, settledLabels, standingLabels } from "./turns/label-gate.js";
import { repairPrompt } from "./turns/prompts.js";
import { REPAIR_TURNS } from "./turns/sections.js";

/** What the labels section reads: acceptance's context, the messages offered a label, the standing picks. */
export interface LabelsContext {
	readonly ctx: AcceptContext;
	/** Refs of the messages the model labels. */
	readonly offered: ReadonlySet<string>;
	/** Refs of earlier messages code records as standing rules (takeover): held as `rule`, never offered. */
	readonly standing: ReadonlySet<string>;
	readonly retryNoteChars: number;
}

/** Where the labels section stands: the labels held, what the next reply may answer, what was asked before. */
export interface LabelsState {
	readonly context: LabelsContext;
	readonly attempt: number;
	readonly held: readonly RawLabel[];
	/** The messages the next reply is read for. */
	readonly open: ReadonlySet<string>;
	/** The questions the last ask showed: the only ones a reply may answer. */
	readonly asked: readonly Question[];
	/** Keys of every question raised, and of every question asked. */
	readonly raised: ReadonlySet<string>;
	readonly everAsked: ReadonlySet<string>;
	readonly last: readonly Failure[];
	readonly answered: boolean;
}

type LabelsStep = SectionStep<LabelsState, TurnSectionResult>;

const questionKey = (q: Question) => `${q.msg}|${q.label}|${q.targets.join(",")}`;

/** The labels one reply gives: its answers to the asked questions, then the labels of the messages it was asked for. */
function labelsFromReply(state: LabelsState, reply: string): { labels: RawLabel[]; failures: Failure[] } {
	const { ctx, offered } = state.context;
	const read = readSection("labels", reply);
	const answered = answerQuestions(ctx, state.held, state.asked, reply);
	if (E.isLeft(read)) return { labels: answered, failures: [read.left] };
	const merged = mergeLabels(answered, read.right.labels, state.open, offered);
	return { labels: merged.labels, failures: [...read.right.broken, ...merged.failures] };
}

/**
 * What the next labels turn asks, if anything: the failures and the questions not asked yet while repairs remain;
 * after the last repair, only the questions about a lift refused because its rule was replaced that it first raised.
 */
function nextAsk(
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
	if (attempt < REPAIR_TURNS) return ask(failures, fresh);
	return attempt === REPAIR_TURNS ? ask([], extra) : undefined;
}

/** The section over: a turn that failed says why; a section never read names the last reply's failure. */
function finish(state: LabelsState, failed: string | null, judged?: Judged): LabelsStep {
	const reason = failed ?? (state.answered ? null : (state.last[0]?.code ?? null));
	const result: TurnSectionResult = {
		answered: state.answered,
		part: { labels: settledLabels(state.context.ctx, state.held) },
		excused: [],
		unmet: [],
		dropped: state.answered ? state.last.filter((f) => f.item !== "labels") : [],
		reason,
	};
	return { kind: "done", result, judged };
}

/** The section's first ask; the standing picks are held as `rule` from the start. */
export function startLabels(context: LabelsContext, first: string): Extract<LabelsStep, { kind: "ask" }> {
	const state: LabelsState = {
		context,
		attempt: 0,
		held: standingLabels([...context.standing]),
		open: context.offered,
		asked: [],
		raised: new Set(),
		everAsked: new Set(),
		last: [],
		answered: false,
	};
	return { kind: "ask", state, ask: { purpose: "diff", text: first } };
}

/**
 * The labels section (docs/turns-mode.md, The gate): every offered message labeled, repaired up to twice (only the
 * failing messages are asked again); lift questions are asked once, in the next turn, and a lift refused because its
 * rule was replaced that the last turn first raised gets one more turn. A label still failing is dropped.
 */
export function hearLabels(state: LabelsState, heard: SectionHeard): LabelsStep {
	if (heard.kind === "failed") return finish(state, heard.reason);
	const { ctx, standing, retryNoteChars } = state.context;
	const reply = labelsFromReply(state, heard.text);
	const verdict = judgeLabels(ctx, reply.labels, standing);
	const last = [...reply.failures, ...verdict.failures];
	const readable = !reply.failures.some((f) => f.item === "labels");
	const judged: Judged = {
		outcome: !readable ? "unreadable" : last.length > 0 ? "defects" : "answer",
		codes: last.map((f) => f.code),
	};
	const fresh = verdict.questions.filter((q) => !state.everAsked.has(questionKey(q)));
	const firstRaised = fresh.filter((q) => !state.raised.has(questionKey(q)));
	const raised = new Set([...state.raised, ...verdict.questions.map(questionKey)]);
	const extra = firstRaised.filter((q) => verdict.replaced.has(q.msg));
	const heardState: LabelsState = { ...state, held: reply.labels, last, raised, answered: state.answered || readable };
	const next = nextAsk(state.attempt, last, fresh, extra, retryNoteChars);
	if (next === undefined) return finish(heardState, null, judged);
	// The extra turn asks only its questions: a failing label had its two repairs. A reply is read only for the
	// offered messages, so the refs of failures about something else (`labels`, `label:u9`) open nothing.
	const open = state.attempt < REPAIR_TURNS ? new Set(last.map((f) => f.item.split(":")[0] ?? "")) : new Set<string>();
	const attempt = state.attempt + 1;
	const ask: SectionAsk = { purpose: attempt <= REPAIR_TURNS ? "retry" : "questions", text: next.text };
	const everAsked = new Set([...state.everAsked, ...next.asked.map(questionKey)]);
	return { kind: "ask", state: { ...heardState, attempt, open, asked: next.asked, everAsked }, ask, judged };
}

import type { CloseKind, Event, LabelRecord, SpanRecord, UserMessage, World } from "../../events/index.js";
import type { State } from "../../reducers/index.js";
import { evolveUnstored } from "../../reducers/index.js";
import { rereadRefs, standingEvents } from "../takeover/index.js";
import { type Closed, closeSpan } from "./close.js";

// The pass's decisions (emmett's decider): each is `(state, inputs) → events`, pure. The pass gathers the inputs
// (the fold, the span, the World, the model's answers), calls these in order and appends what they decide; the
// reducer records. Ids are decided with the events, from the state each decision decides on (docs/contracts.md, Stored
// sessions and ids).

/** The parts of an accepted answer (a chunk's, or the turns conversation's) the pass keeps. */
export interface TakenAnswer {
	readonly events: readonly Event[];
	readonly labeled: readonly string[];
	readonly labels: readonly Readonly<LabelRecord>[];
	readonly dropped: readonly { readonly reason: string }[];
}

/** What one diff came to: an accepted answer, or none and the reason. */
export interface DiffResult {
	readonly accepted: TakenAnswer | undefined;
	readonly reason: string | null;
}

/** The pass's decisions so far. */
export interface Decided {
	/** The state the next decision decides on: the fold's, then the ledger's, the picks' and each answer's events. */
	readonly state: State;
	/** The rules the standing picks recorded by code, when the call that offered them never verified. */
	readonly picked: readonly Event[];
	/** The accepted answers' events, in order. */
	readonly accepted: readonly Event[];
	readonly labeled: ReadonlySet<string>;
	readonly labels: readonly Readonly<LabelRecord>[];
	/** Items the answers left out, counted by reason. */
	readonly dropped: Readonly<Record<string, number>>;
	/** Diffs taken (chunks, or the one conversation) and those of them with no accepted answer. */
	readonly diffs: number;
	readonly failed: number;
	/** Why the pass closes short of whole: the first reason given. */
	readonly reason: string | null;
}

/** Given the fold's state and the span's ledger (`ledgerEvents`): nothing decided yet, on the state after the ledger. */
export function decidingFrom(state: State, ledger: readonly Event[]): Decided {
	return {
		state: evolveUnstored(state, ledger),
		picked: [],
		accepted: [],
		labeled: new Set(),
		labels: [],
		dropped: {},
		diffs: 0,
		failed: 0,
		reason: null,
	};
}

/** The standing picks recorded by code, on the state decided so far (`standingEvents`). */
function withPicks(d: Decided, picks: readonly UserMessage[]): Decided {
	const picked = standingEvents(d.state, picks);
	return { ...d, picked, state: evolveUnstored(d.state, picked) };
}

/** Given no model to ask (`reason` why, or null when there is nothing to ask about): the picks are recorded by code. */
export function decideWithoutModel(d: Decided, picks: readonly UserMessage[], reason: string | null): Decided {
	return { ...withPicks(d, picks), reason };
}

/**
 * Given a diff's result (a chunk's, or the turns conversation's): its accepted answer's events, or, when the first
 * diff has none, the standing picks recorded by code. Later diffs decide on the state this one leaves.
 */
export function decideAnswer(d: Decided, result: DiffResult, picks: readonly UserMessage[]): Decided {
	const first = d.diffs === 0;
	const counted = { ...d, diffs: d.diffs + 1 };
	if (result.accepted === undefined) {
		const failed = { ...counted, failed: d.failed + 1, reason: d.reason ?? result.reason };
		return first ? withPicks(failed, picks) : failed;
	}
	const { events, labeled, labels, dropped } = result.accepted;
	const counts = { ...d.dropped };
	for (const item of dropped) counts[item.reason] = (counts[item.reason] ?? 0) + 1;
	return {
		...counted,
		state: evolveUnstored(d.state, events),
		accepted: [...d.accepted, ...events],
		labeled: new Set([...d.labeled, ...labeled]),
		labels: [...d.labels, ...labels],
		dropped: counts,
	};
}

/** The work-log line of a span with nothing in it. Exported for tests. */
export const EMPTY_SPAN_LINE = "(nothing new to summarize)";

/**
 * How a pass closes: whole when every diff was accepted (or there was nothing to ask), partial when some were, and
 * narrative-less when none was, or none was asked.
 */
function closeKind(d: Decided, empty: boolean): CloseKind {
	if (empty) return "whole";
	if (d.failed === d.diffs) return "narrative-less";
	return d.failed > 0 ? "partial" : "whole";
}

/** The answers' narrative lines as one (several chunks give several), where the first stood. */
function oneNarrative(events: readonly Event[], span: number): Event[] {
	const lines = events.flatMap((e) => (e.type === "narrative-line" ? [e.data.text] : []));
	const rest = events.filter((e) => e.type !== "narrative-line");
	if (lines.length <= 1) return [...events];
	const nowAt = rest.findIndex((e) => e.type === "now-set");
	const line: Event = { type: "narrative-line", data: { span, text: lines.join("; ").slice(0, 600) } };
	return nowAt < 0 ? [...rest, line] : [...rest.slice(0, nowAt), line, ...rest.slice(nowAt)];
}

/** What the close decides on besides the decisions: the fold's state and the span's facts. */
export interface CloseFacts {
	/** The state the pass began on (the fold of the branch): the close's events are sequenced after it. */
	readonly state: State;
	readonly span: number;
	readonly ledger: readonly Event[];
	readonly world: World;
	/** Every message offered a label, in offer order. */
	readonly toLabel: readonly UserMessage[];
	/** Nothing new to summarize: the state carries over. */
	readonly empty: boolean;
	readonly summaryChars: number;
}

/** The closed span, how it closed, and the parts of the span record the events decide. */
export interface Close {
	readonly closed: Closed;
	readonly kind: CloseKind;
	readonly reason: string | null;
	/** How many events the answers gave (the empty span's line among them). */
	readonly accepted: number;
	readonly record: Pick<SpanRecord, "labels" | "commands" | "errors" | "values">;
}

/**
 * The messages the close leaves unlabeled, for the next pass to offer again: those a whole close did not judge, or
 * every one of a close short of whole, and those whose rules were recorded from the reader's sentences
 * (`rereadRefs`). These come last, so the next pass's newest-`MAX_CARRIED` cap keeps them.
 */
function unlabeledOf(d: Decided, kind: CloseKind, toLabel: readonly UserMessage[], kept: readonly Event[]): string[] {
	const reread = new Set(rereadRefs(kept, toLabel));
	const refs = toLabel.map((u) => u.ref);
	const unjudged = refs.filter((ref) => !reread.has(ref) && (kind !== "whole" || !d.labeled.has(ref)));
	return [...unjudged, ...refs.filter((ref) => reread.has(ref))];
}

/**
 * Given the decisions and the span's facts: the close. A narrative-less close keeps only the picks; otherwise the
 * answers' narratives become one line. The messages left unlabeled are `unlabeledOf`'s.
 */
export function decideClose(d: Decided, facts: CloseFacts): Close {
	const kind = closeKind(d, facts.empty);
	const reason = kind === "whole" ? null : d.reason;
	const answered = facts.empty
		? [...d.accepted, { type: "narrative-line", data: { span: facts.span, text: EMPTY_SPAN_LINE } } satisfies Event]
		: d.accepted;
	// A narrative-less close accepted no answer: what it keeps is the picks.
	const kept = oneNarrative([...d.picked, ...answered], facts.span);
	const closed = closeSpan({
		state: facts.state,
		span: facts.span,
		ledger: facts.ledger,
		world: facts.world,
		accepted: kept,
		kind,
		unlabeled: unlabeledOf(d, kind, facts.toLabel, kept),
		reason,
		summaryChars: facts.summaryChars,
	});
	return { closed, kind, reason, accepted: answered.length, record: spanRecordOf(d, facts.ledger, closed) };
}

/** The span record's labels, commands, errors and values. */
function spanRecordOf(d: Decided, ledger: readonly Event[], closed: Closed): Close["record"] {
	return {
		labels: [...d.labels],
		commands: ledger.flatMap((e) =>
			e.type === "command-recorded" ? [{ id: e.data.id, command: e.data.command, exitCode: e.data.exitCode }] : [],
		),
		errors: ledger.flatMap((e) =>
			e.type === "error-recorded" ? [{ id: e.data.id, tool: e.data.tool, head: e.data.head }] : [],
		),
		values: closed.events.flatMap((e) => (e.type === "value-recorded" ? [{ ...e.data }] : [])),
	};
}

import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { Entry } from "../../events/index.js";
import { eachUserMessageAt, type Message, messageOf, type UserMessage } from "../../events/index.js";
import type { Folded, State } from "../../reducers/index.js";

/** The most messages carried from earlier narrative-less or partial passes (docs/how-it-works.md, One pass). */
export const MAX_CARRIED = 30;

/**
 * The entries of a span on a branch: `at` the indexes, in order, of the entries whose messages pi summarizes
 * (`messagesToSummarize` then `turnPrefixMessages`), `end` the index of pi's kept entry (the branch's length when
 * it is not on the branch).
 */
export interface SpanEntries {
	readonly at: readonly number[];
	readonly end: number;
}

/** The entry ids of a span's first and last messages, as a span record keeps them. */
export interface SpanBounds {
	readonly first: string;
	readonly last: string;
}

/** A span as the pass reads it: its messages, its user messages, and what earlier passes left unlabeled. */
export interface SpanSlice {
	readonly span: number;
	/**
	 * Where the span's part of the branch starts: the kept boundary of the newest compaction, or the span's first
	 * entry when that comes first. The takeover's earlier messages are the ones before it.
	 */
	readonly start: number;
	/** The index of pi's kept entry: the span ends before it. */
	readonly end: number;
	/** The entry ids of the span's messages, in order: every message pi summarizes, whatever its role. */
	readonly ids: readonly string[];
	/** The span's messages Longhaul reads (user, assistant, tool results, `!` runs), in order. */
	readonly messages: readonly Message[];
	/** The user messages of the span no earlier pass judged, with their branch refs. */
	readonly users: readonly UserMessage[];
	/** User messages an earlier pass left unlabeled, offered again (newest 30, oldest first). */
	readonly carried: readonly UserMessage[];
	/** Every user message on the branch. */
	readonly branchUsers: readonly UserMessage[];
	/** Entry ids from `start` to `end`, to find what `longhaul_remember` wrote during the span. */
	readonly entryIds: ReadonlySet<string>;
	/** The text of the turn `u<n>` opens: the user's message, the answers and the tool results until the next. */
	readonly turnText: (ref: string) => string | undefined;
}

function indexOfId(entries: readonly Entry[], id: string): number {
	for (let i = entries.length - 1; i >= 0; i--) if (entries[i]?.id === id) return i;
	return -1;
}

/** The index of the newest compaction entry before `end`, or -1. */
export function newestCompaction(entries: readonly Entry[], end: number): number {
	for (let i = end - 1; i >= 0; i--) if (entries[i]?.type === "compaction") return i;
	return -1;
}

/**
 * Where the messages after the compaction at `at` start: its kept boundary, as pi cuts it, or the next entry.
 * `lastIndexOf` gives the last index of an id on `entries` (-1 when it is absent); a caller that asks for many
 * compactions passes one read from a map, built once, instead of a scan of the branch each time.
 */
export function keptBoundary(
	entries: readonly Entry[],
	at: number,
	lastIndexOf: (id: string) => number = (id) => indexOfId(entries, id),
): number {
	const kept = entries[at]?.raw.firstKeptEntryId;
	const keptAt = typeof kept === "string" ? lastIndexOf(kept) : -1;
	return keptAt >= 0 && keptAt < at ? keptAt : at + 1;
}

/**
 * Where pi 0.73.1 starts a span (`prepareCompaction`'s `boundaryStart`): the kept entry of the newest compaction on
 * the branch, wherever it stands, or the entry after that compaction when its kept entry is not on the branch.
 */
export function keptStart(branch: readonly Entry[]): number {
	const at = newestCompaction(branch, branch.length);
	if (at < 0) return 0;
	const kept = branch[at]?.raw.firstKeptEntryId;
	const keptAt = typeof kept === "string" ? branch.findIndex((e) => e.id === kept) : -1;
	return keptAt >= 0 ? keptAt : at + 1;
}

/** True for an entry pi turns into a message when it compacts: a message, a custom message, a branch summary. */
function summarized(entry: Entry): boolean {
	return entry.type === "message" || entry.type === "custom_message" || entry.type === "branch_summary";
}

/**
 * The span pi 0.73.1 summarizes when it cuts `branch` (the entries before the new compaction) at
 * `firstKeptEntryId`: every message from the newest compaction's kept entry up to the cut (`prepareCompaction`).
 * The one place a span is derived from a transcript; a pass takes its span from pi's preparation.
 */
export function derivedSpan(branch: readonly Entry[], firstKeptEntryId: string): SpanEntries {
	const keptAt = indexOfId(branch, firstKeptEntryId);
	const end = keptAt < 0 ? branch.length : keptAt;
	const at: number[] = [];
	for (let i = keptStart(branch); i < end; i++) {
		const entry = branch[i];
		if (entry !== undefined && summarized(entry)) at.push(i);
	}
	return { at, end };
}

const PreparedMessage = t.intersection([t.type({ role: t.string }), t.partial({ timestamp: t.number })]);

function timeOf(entry: Entry): number {
	const timestamp = entry.raw.timestamp;
	return typeof timestamp === "string" ? Date.parse(timestamp) : Number.NaN;
}

/** True when pi made `message` from `entry`: the same role and, where both have one, the same time. */
function madeFrom(entry: Entry | undefined, message: unknown): boolean {
	if (entry === undefined) return false;
	const decoded = PreparedMessage.decode(message);
	if (E.isLeft(decoded)) return false;
	const { role, timestamp } = decoded.right;
	const sameTime = (time: unknown) => timestamp === undefined || typeof time !== "number" || time === timestamp;
	switch (entry.type) {
		case "message": {
			const inner = PreparedMessage.decode(entry.raw.message);
			return E.isRight(inner) && inner.right.role === role && sameTime(inner.right.timestamp);
		}
		case "custom_message":
			return role === "custom" && sameTime(timeOf(entry));
		case "branch_summary":
			return role === "branchSummary" && sameTime(timeOf(entry));
		default:
			return false;
	}
}

/**
 * The entries of the messages pi's preparation hands `session_before_compact` (`messagesToSummarize` then
 * `turnPrefixMessages`), found walking back from the kept entry: the newest entry before it that pi made each
 * message from. Undefined when the kept entry is not on the branch or a message matches no entry.
 */
export function preparedSpan(
	branch: readonly Entry[],
	firstKeptEntryId: string,
	messages: readonly unknown[],
): SpanEntries | undefined {
	const end = indexOfId(branch, firstKeptEntryId);
	if (end < 0) return undefined;
	const at: number[] = []; // newest first, reversed once: an unshift for each would move them all each time
	let i = end - 1;
	for (let m = messages.length - 1; m >= 0; m--) {
		while (i >= 0 && !madeFrom(branch[i], messages[m])) i--;
		if (i < 0) return undefined;
		at.push(i--);
	}
	return { at: at.reverse(), end };
}

/**
 * The span a Longhaul span record bounds (`bounds`: its first and last messages' entry ids), ending at the kept
 * entry at `end`; undefined when a bound is not on the branch before `end`.
 */
export function recordedSpan(branch: readonly Entry[], bounds: SpanBounds, end: number): SpanEntries | undefined {
	const first = indexOfId(branch, bounds.first);
	const last = indexOfId(branch, bounds.last);
	if (first < 0 || last < first || last >= end) return undefined;
	const at: number[] = [];
	for (let i = first; i <= last; i++) {
		const entry = branch[i];
		if (entry !== undefined && summarized(entry)) at.push(i);
	}
	return { at, end };
}

/**
 * Where the messages no whole Longhaul span judged start: the kept boundary of the compaction that closed
 * Longhaul's last whole span, or the branch's start. A rule the state lifted, or a message it judged not a rule,
 * lies before it and is never offered again.
 */
export function judgedUntil(folded: Pick<Folded, "branch" | "events">): number {
	const close = folded.events.findLast((l) => l.event.type === "span-closed" && l.event.data.kind === "whole");
	if (close === undefined) return 0;
	const at = folded.branch.findIndex((entry) => entry.id === close.entry);
	if (at < 0) return 0;
	return folded.branch[at]?.type === "compaction" ? keptBoundary(folded.branch, at) : at + 1;
}

function messageText(message: Message): string {
	switch (message.role) {
		case "user":
		case "assistant":
			return message.text;
		case "toolResult":
			return message.text;
		case "bashExecution":
			return `${message.command}\n${message.output}`;
	}
}

/** The text of the turn the user message at `at` opens: it and every message after it up to the next user message. */
function turnFrom(branch: readonly Entry[], at: number, opening: string): string {
	const parts = [opening];
	for (let i = at + 1; i < branch.length; i++) {
		const entry = branch[i];
		const message = entry === undefined ? undefined : messageOf(entry);
		if (message?.role === "user") break;
		if (message !== undefined) parts.push(messageText(message));
	}
	return parts.join("\n");
}

/**
 * The text of the turn `u<n>` opens, read when a value the model names is checked against it (a few a pass), from the
 * place of its user message (`placed`, `eachUserMessageAt`). Joining every turn of the branch beforehand, for a lookup
 * or two, took a long session's pass a fifth of its time.
 */
function turnTextOf(
	branch: readonly Entry[],
	placed: readonly (readonly [number, UserMessage])[],
): (ref: string) => string | undefined {
	const byRef = new Map(placed.map(([at, user]) => [user.ref, { at, text: user.text }]));
	return (ref) => {
		const user = byRef.get(ref);
		return user === undefined ? undefined : turnFrom(branch, user.at, user.text);
	};
}

function carriedRefs(state: State): string[] {
	const runs: (readonly string[])[] = [];
	for (let i = state.closes.length - 1; i >= 0; i--) {
		const close = state.closes[i];
		if (close === undefined) break;
		runs.unshift(close.unlabeled);
		// A whole close judged its span; what it still left unlabeled is offered once more, and the walk stops there.
		if (close.kind === "whole") break;
	}
	return [...new Set(runs.flat())].slice(-MAX_CARRIED);
}

/**
 * The span of a pass as it reads it: the messages of `span` (pi's), numbered along the branch. A user message
 * before the end of Longhaul's last whole span was judged already and is not offered again.
 */
export function sliceSpan(folded: Pick<Folded, "branch" | "events">, span: SpanEntries, state: State): SpanSlice {
	const branch = folded.branch;
	const entries = span.at.flatMap((i) => (branch[i] === undefined ? [] : [branch[i]]));
	const start = Math.min(keptStart(branch), span.at[0] ?? span.end, span.end);
	const ids = entries.map((e) => e.id);
	const judged = new Set(branch.slice(0, judgedUntil(folded)).map((e) => e.id));
	const unjudged = new Set(ids.filter((id) => !judged.has(id)));
	const placed = Array.from(eachUserMessageAt(branch));
	const branchUsers = placed.map(([, user]) => user);
	const messages = entries.flatMap((entry) => {
		const message = messageOf(entry);
		return message === undefined ? [] : [message];
	});
	const users = branchUsers.filter((u) => unjudged.has(u.entryId));
	const spanRefs = new Set(users.map((u) => u.ref));
	const wanted = new Set(carriedRefs(state).filter((ref) => !spanRefs.has(ref)));
	const carried = branchUsers.filter((u) => wanted.has(u.ref));
	return {
		span: state.spans + 1,
		start,
		end: span.end,
		ids,
		messages,
		users,
		carried,
		branchUsers,
		entryIds: new Set(branch.slice(start, span.end).map((e) => e.id)),
		turnText: turnTextOf(branch, placed),
	};
}

import { type Message, messageOf, type UserMessage, userMessages } from "../events/messages.js";
import type { Entry } from "../events/transcript.js";
import type { State } from "../reducers/state.js";

/** The most messages carried from earlier narrative-less or partial passes (seed, When the diff fails). */
export const MAX_CARRIED = 30;

/** A span as the pass reads it: its messages, its user messages, and what earlier passes left unlabeled. */
export interface SpanSlice {
	readonly span: number;
	/** Where the span starts and ends on the branch: entry indexes, `end` exclusive (the kept entry). */
	readonly start: number;
	readonly end: number;
	/** The span's messages in order. */
	readonly messages: readonly Message[];
	/** The user messages of the span, with their branch refs. */
	readonly users: readonly UserMessage[];
	/** User messages an earlier pass left unlabeled, offered again (newest 30, oldest first). */
	readonly carried: readonly UserMessage[];
	/** Every user message on the branch. */
	readonly branchUsers: readonly UserMessage[];
	/** Entry ids of the span's custom entries, to find what `longhaul_remember` wrote during it. */
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

/** Where the messages after the compaction at `at` start: its kept boundary, as pi cuts it, or the next entry. */
export function keptBoundary(entries: readonly Entry[], at: number): number {
	const kept = entries[at]?.raw.firstKeptEntryId;
	const keptAt = typeof kept === "string" ? indexOfId(entries, kept) : -1;
	return keptAt >= 0 && keptAt < at ? keptAt : at + 1;
}

/** Where the span starts: the previous compaction's kept boundary, or the branch's start. */
function spanStart(entries: readonly Entry[], end: number): number {
	const at = newestCompaction(entries, end);
	return at < 0 ? 0 : keptBoundary(entries, at);
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

function turnTexts(entries: readonly Entry[]): Map<string, string> {
	const turns = new Map<string, string[]>();
	let current: string[] | undefined;
	let users = 0;
	for (const entry of entries) {
		const message = messageOf(entry);
		if (message === undefined) continue;
		if (message.role === "user") {
			current = [];
			turns.set(`u${++users}`, current);
		}
		current?.push(messageText(message));
	}
	return new Map([...turns].map(([ref, parts]) => [ref, parts.join("\n")]));
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
 * The span of a pass: the messages on the branch from the previous compaction's kept boundary up to
 * `firstKeptEntryId` (pi's `messagesToSummarize` plus `turnPrefixMessages`), numbered along the branch.
 */
export function sliceSpan(branch: readonly Entry[], firstKeptEntryId: string, state: State): SpanSlice {
	const keptAt = indexOfId(branch, firstKeptEntryId);
	const end = keptAt < 0 ? branch.length : keptAt;
	const start = spanStart(branch, end);
	const inSpan = new Set(branch.slice(start, end).map((e) => e.id));
	const branchUsers = userMessages(branch);
	const messages = branch.slice(start, end).flatMap((entry) => {
		const message = messageOf(entry);
		return message === undefined ? [] : [message];
	});
	const users = branchUsers.filter((u) => inSpan.has(u.entryId));
	const spanRefs = new Set(users.map((u) => u.ref));
	const wanted = new Set(carriedRefs(state).filter((ref) => !spanRefs.has(ref)));
	const carried = branchUsers.filter((u) => wanted.has(u.ref));
	const turns = turnTexts(branch);
	return {
		span: state.spans + 1,
		start,
		end,
		messages,
		users,
		carried,
		branchUsers,
		entryIds: inSpan,
		turnText: (ref) => turns.get(ref),
	};
}

import type { Entry } from "../../events/index.js";
import { branchEvents, type Message, messageOf } from "../../events/index.js";
import { keptBoundary, newestCompaction } from "../../pass/span/index.js";
import type { Folded } from "../../reducers/index.js";

/** One searchable piece of the compacted history, named the way the agent can follow it up. */
export interface Passage {
	/** `C12 (span 2, u7)`, `u7 (span 2)`, or `span 2, u7, assistant` (`read` or another tool's name for its output). */
	readonly name: string;
	/** The message's whole text, as stored. */
	readonly text: string;
}

/** The last index of each id on the branch (a later entry sets it again), as `keptBoundary` looks a kept entry up. */
function lastIndexes(branch: readonly Entry[]): Map<string, number> {
	return new Map(branch.map((entry, at) => [entry.id, at]));
}

/**
 * Where each compaction's kept boundary is, and how it is named: `span N` for Longhaul's, by entry otherwise. Kept
 * entries are looked up in one map of the branch, not by a scan of it for each compaction. Exported for tests.
 */
export function compactions(folded: Folded): { readonly boundary: number; readonly name: string }[] {
	const spanOf = new Map<string, number>();
	for (const l of folded.events) if (l.event.type === "span-closed") spanOf.set(l.entry, l.event.data.span);
	const last = lastIndexes(folded.branch);
	const out: { boundary: number; name: string }[] = [];
	folded.branch.forEach((entry, at) => {
		if (entry.type !== "compaction") return;
		const span = spanOf.get(entry.id);
		out.push({
			boundary: keptBoundary(folded.branch, at, (id) => last.get(id) ?? -1),
			name: span === undefined ? `compaction ${entry.id}` : `span ${span}`,
		});
	});
	return out;
}

/** The ids the ledger gave commands: by tool-call id, and for user runs by their text and place among runs of it. */
function commandIds(folded: Folded): { byCall: Map<string, string>; userRuns: Map<string, string[]> } {
	const byCall = new Map<string, string>();
	const userRuns = new Map<string, string[]>();
	for (const c of folded.state.commands) {
		if (c.toolCallId !== null) byCall.set(c.toolCallId, c.id);
		else {
			const runs = userRuns.get(c.command);
			if (runs === undefined) userRuns.set(c.command, [c.id]);
			else runs.push(c.id);
		}
	}
	return { byCall, userRuns };
}

function passageOf(message: Message, where: string, turn: string, ids: ReturnType<typeof commandIds>): Passage[] {
	switch (message.role) {
		case "user":
			return [{ name: `${turn} (${where})`, text: message.text }];
		case "assistant":
			return message.text.trim() === "" ? [] : [{ name: `${where}, ${turn}, assistant`, text: message.text }];
		case "toolResult": {
			const id = ids.byCall.get(message.toolCallId);
			const name = id === undefined ? `${where}, ${turn}, ${message.toolName}` : `${id} (${where}, ${turn})`;
			return [{ name, text: message.text }];
		}
		case "bashExecution": {
			const id = ids.userRuns.get(message.command)?.shift();
			const name = id === undefined ? `${where}, ${turn}, user run` : `${id} (${where}, ${turn})`;
			return [{ name, text: `${message.command}\n${message.output}` }];
		}
	}
}

/**
 * For each entry before `end`, the name of the first compaction in branch order whose kept boundary is past it
 * ("compacted" where none is). Read with a cursor over the boundaries' running maximum, which only grows: the first
 * compaction past an entry is the first whose running maximum is. Exported for tests.
 */
export function compactedBy(
	spans: readonly { readonly boundary: number; readonly name: string }[],
	end: number,
): string[] {
	const out: string[] = [];
	let at = 0;
	let reach = spans[0]?.boundary ?? -1;
	for (let i = 0; i < end; i++) {
		while (at < spans.length && reach <= i) reach = Math.max(reach, spans[++at]?.boundary ?? -1);
		out.push(spans[at]?.name ?? "compacted");
	}
	return out;
}

/**
 * Everything compacted on the branch (before the newest compaction's kept boundary): user and assistant text
 * (never thinking) and tool outputs, each named by its command's `C<n>`, or by the span that compacted it and the
 * `u<n>` of its turn. Empty when nothing is compacted.
 */
export function compactedPassages(folded: Folded): Passage[] {
	const branch: readonly Entry[] = folded.branch;
	const newest = newestCompaction(branch, branch.length);
	if (newest < 0) return [];
	const end = keptBoundary(branch, newest);
	const where = compactedBy(compactions(folded), end);
	const ids = commandIds(folded);
	const out: Passage[] = [];
	let users = 0;
	for (let i = 0; i < end; i++) {
		const entry = branch[i];
		const message = entry === undefined ? undefined : messageOf(entry);
		if (message === undefined) continue;
		if (message.role === "user") users++;
		const turn = users === 0 ? "before u1" : `u${users}`;
		out.push(...passageOf(message, where[i] ?? "compacted", turn, ids));
	}
	return out;
}

/** What the compacted passages are made of: equal sources give equal passages. */
export interface CompactedSources {
	/** The newest compaction entry, as pi holds it. */
	readonly compaction: Entry;
	/** The ids of the branch's entries up to it. */
	readonly path: readonly string[];
	/** The entries after it that carry an event other than a note (one could number a command or close a span). */
	readonly later: readonly string[];
}

/**
 * What the branch's compacted passages are made of, read without folding, or undefined when nothing is compacted:
 * everything up to the newest compaction, whose entries pi never changes, and the events after it but notes.
 */
export function compactedSources(branch: readonly Entry[]): CompactedSources | undefined {
	const newest = newestCompaction(branch, branch.length);
	const compaction = branch[newest];
	if (compaction === undefined) return undefined;
	const later = branchEvents(branch.slice(newest + 1)).events.flatMap((l) =>
		l.event.type === "note-remembered" ? [] : [l.entry],
	);
	return { compaction, path: branch.slice(0, newest + 1).map((e) => e.id), later };
}

const sameIds = (a: readonly string[], b: readonly string[]): boolean =>
	a.length === b.length && a.every((id, i) => id === b[i]);

/** True when both give the same passages: the same compaction entry on the same path, the same events after it. */
export function sameSources(a: CompactedSources, b: CompactedSources): boolean {
	return a.compaction.raw === b.compaction.raw && sameIds(a.path, b.path) && sameIds(a.later, b.later);
}

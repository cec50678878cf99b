import { type Message, messageOf } from "../../events/messages.js";
import type { Entry } from "../../events/transcript.js";
import { keptBoundary, newestCompaction } from "../../pass/span.js";
import type { Folded } from "../../reducers/fold.js";

/** One searchable piece of the compacted history, named the way the agent can follow it up. */
export interface Passage {
	/** `C12 (span 2, u7)`, `u7 (span 2)`, or `span 2, u7, assistant` (`read` or another tool's name for its output). */
	readonly name: string;
	readonly text: string;
}

/** How much of one message is indexed: its head and its tail, so one huge output cannot stall a recall. */
export const PASSAGE_CHARS = 256 * 1024;

/** Where each compaction's kept boundary is, and how it is named: `span N` for Longhaul's, by entry otherwise. */
function compactions(folded: Folded): { readonly boundary: number; readonly name: string }[] {
	const spanOf = new Map<string, number>();
	for (const l of folded.events) if (l.event.type === "span-closed") spanOf.set(l.entry, l.event.data.span);
	const out: { boundary: number; name: string }[] = [];
	folded.branch.forEach((entry, at) => {
		if (entry.type !== "compaction") return;
		const span = spanOf.get(entry.id);
		out.push({
			boundary: keptBoundary(folded.branch, at),
			name: span === undefined ? `compaction ${entry.id}` : `span ${span}`,
		});
	});
	return out;
}

function bounded(text: string): string {
	if (text.length <= PASSAGE_CHARS) return text;
	return `${text.slice(0, PASSAGE_CHARS / 2)}\n${text.slice(-PASSAGE_CHARS / 2)}`;
}

/** The ids the ledger gave commands: by tool-call id, and for user runs by their text and place among runs of it. */
function commandIds(folded: Folded): { byCall: Map<string, string>; userRuns: Map<string, string[]> } {
	const byCall = new Map<string, string>();
	const userRuns = new Map<string, string[]>();
	for (const c of folded.state.commands) {
		if (c.toolCallId !== null) byCall.set(c.toolCallId, c.id);
		else userRuns.set(c.command, [...(userRuns.get(c.command) ?? []), c.id]);
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
 * Everything compacted on the branch (before the newest compaction's kept boundary): user and assistant text
 * (never thinking) and tool outputs, each named by its command's `C<n>`, or by the span that compacted it and the
 * `u<n>` of its turn. Empty when nothing is compacted.
 */
export function compactedPassages(folded: Folded): Passage[] {
	const branch: readonly Entry[] = folded.branch;
	const newest = newestCompaction(branch, branch.length);
	if (newest < 0) return [];
	const end = keptBoundary(branch, newest);
	const spans = compactions(folded);
	const ids = commandIds(folded);
	const out: Passage[] = [];
	let users = 0;
	for (let i = 0; i < end; i++) {
		const entry = branch[i];
		const message = entry === undefined ? undefined : messageOf(entry);
		if (message === undefined) continue;
		if (message.role === "user") users++;
		const where = spans.find((c) => c.boundary > i)?.name ?? "compacted";
		const turn = users === 0 ? "before u1" : `u${users}`;
		for (const p of passageOf(message, where, turn, ids)) out.push({ name: p.name, text: bounded(p.text) });
	}
	return out;
}

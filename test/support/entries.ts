import { type Event, encodeEvent } from "../../src/events/index.js";

/** Builders for pi session entries (v3), for tests that hand a branch to the fold or the pass. */

export type Raw = Record<string, unknown>;

/** A compaction pi's own compactor wrote after `parentId`: a summary, no Longhaul details. */
export function piCompaction(id: string, parentId: string, firstKeptEntryId: string, summary: string): Raw {
	return { type: "compaction", id, parentId, timestamp: "t", summary, firstKeptEntryId, tokensBefore: 1 };
}

/** A Longhaul compaction's details for span `span`: `events` stored with seqs from `firstSeq` on. */
export function longhaulDetails(span: number, events: readonly Event[], firstSeq = 1): Raw {
	return {
		stateFormat: 1,
		longhaul: true,
		span,
		events: events.map((event, i) => ({ seq: firstSeq + i, event: encodeEvent(event) })),
	};
}

export const user = (text: string): Raw => ({
	type: "message",
	message: { role: "user", content: text, timestamp: 0 },
});

export const assistant = (text: string): Raw => ({
	type: "message",
	message: { role: "assistant", content: [{ type: "text", text }], stopReason: "stop", timestamp: 0 },
});

export const bashCall = (id: string, command: string): Raw => ({
	type: "message",
	message: {
		role: "assistant",
		content: [{ type: "toolCall", id, name: "bash", arguments: { command } }],
		stopReason: "toolUse",
		timestamp: 0,
	},
});

export const toolResult = (id: string, text: string, isError = false): Raw => ({
	type: "message",
	message: {
		role: "toolResult",
		toolCallId: id,
		toolName: "bash",
		content: [{ type: "text", text }],
		isError,
		timestamp: 0,
	},
});

/** A span's entries: a rule, a test run that fails, the user's ask to fix it, and a run that passes. */
export const ruleFailFix = (): Raw[] => [
	user("never add dependencies"),
	bashCall("t1", "npm test"),
	toolResult("t1", "3 failed\nCommand exited with code 1", true),
	assistant("tests fail"),
	user("fix the failing tests please"),
	bashCall("t2", "npm test"),
	toolResult("t2", "12 passed"),
	user("next part"),
];

/** Links raw entries into a chain with ids `<prefix>1`, `<prefix>2`, …. */
export function chain(raws: readonly Raw[], prefix = "e", after: string | null = null): Raw[] {
	let parentId = after;
	return raws.map((raw, i) => {
		const id = `${prefix}${i + 1}`;
		const entry = { ...raw, id, parentId, timestamp: "2026-01-01T00:00:00.000Z" };
		parentId = id;
		return entry;
	});
}

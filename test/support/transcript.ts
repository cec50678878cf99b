import type { Event } from "../../src/events/index.js";
import { encodeEvent } from "../../src/events/index.js";

/** One entry of a test transcript, before ids and parents are laid. */
export type EntrySpec =
	/**
	 * A user message; with `id`, one of its own outside the numbering of `place`, so that a message added to a test
	 * transcript (the one its rules cite, which the fold checks them against) renames no entry after it.
	 */
	| { readonly kind: "user"; readonly text: string; readonly id?: string }
	| { readonly kind: "assistant"; readonly text: string }
	| { readonly kind: "longhaul-compaction"; readonly span: number; readonly events: readonly Event[] }
	| { readonly kind: "foreign-compaction"; readonly summary: string }
	| { readonly kind: "event-entry"; readonly event: Event }
	| { readonly kind: "span-record"; readonly span: number; readonly v: number }
	| { readonly kind: "raw"; readonly value: Record<string, unknown> };

/** A Longhaul compaction of span `span` whose details carry `events`. */
export const compactionOf = (span: number, events: readonly Event[]): EntrySpec => ({
	kind: "longhaul-compaction",
	span,
	events,
});

/** A span record (format 1) of span `span`, compaction `compactionId`, holding `rest` (labels, commands, …) too. */
export const spanRecordOf = (
	span: number,
	compactionId: string,
	rest: Readonly<Record<string, unknown>> = {},
): EntrySpec => ({
	kind: "raw",
	value: { type: "custom", customType: "compaction-state.span", data: { v: 1, span, compactionId, ...rest } },
});

/** A spec with the id it will carry; ids are fixed up front so inserting an entry renames nothing else. */
export interface Placed {
	readonly id: string;
	readonly spec: EntrySpec;
}

const ts = "2026-01-01T00:00:00.000Z";

/** Gives specs ids `e1`, `e2`, …, but a user message its own id where it has one. */
export function place(specs: readonly EntrySpec[], prefix = "e"): Placed[] {
	let n = 0;
	return specs.map((spec) => ({
		id: spec.kind === "user" && spec.id !== undefined ? spec.id : `${prefix}${++n}`,
		spec,
	}));
}

function body(spec: EntrySpec, seq: { next: number }, firstKept: string): Record<string, unknown> {
	switch (spec.kind) {
		case "user":
			return { type: "message", message: { role: "user", content: spec.text, timestamp: 0 } };
		case "assistant":
			return {
				type: "message",
				message: { role: "assistant", content: [{ type: "text", text: spec.text }], stopReason: "stop", timestamp: 0 },
			};
		case "longhaul-compaction": {
			const events = spec.events.map((event) => ({ seq: seq.next++, event: encodeEvent(event) }));
			return {
				type: "compaction",
				summary: "state",
				firstKeptEntryId: firstKept,
				tokensBefore: 100,
				fromHook: true,
				details: { stateFormat: 1, longhaul: true, span: spec.span, events },
			};
		}
		case "foreign-compaction":
			return { type: "compaction", summary: spec.summary, firstKeptEntryId: firstKept, tokensBefore: 100 };
		case "event-entry":
			return {
				type: "custom",
				customType: "compaction-state.event",
				data: { stateFormat: 1, seq: seq.next++, event: encodeEvent(spec.event) },
			};
		case "span-record":
			return {
				type: "custom",
				customType: "compaction-state.span",
				data: { v: spec.v, span: spec.span, compactionId: "x" },
			};
		case "raw":
			return { ...spec.value };
	}
}

/** Lays placed specs out as a v3 transcript: a header, then a chain of entries, each the child of the one before. */
export function transcriptText(placed: readonly Placed[]): string {
	const seq = { next: 1 };
	const lines = [JSON.stringify({ type: "session", version: 3, id: "s", timestamp: ts, cwd: "/w" })];
	let parentId: string | null = null;
	for (const { id, spec } of placed) {
		const firstKept = placed[0]?.id ?? id;
		lines.push(JSON.stringify({ ...body(spec, seq, firstKept), id, parentId, timestamp: ts }));
		parentId = id;
	}
	return `${lines.join("\n")}\n`;
}

import type { Event } from "../../src/events/index.js";

/**
 * The event kinds whose ids the fold numbers when an event carries none (docs/contracts.md, Stored sessions and ids).
 */
const COUNTED = new Set(["rule-added", "decision-made", "dead-end-found", "note-remembered"]);

/** The event as it was stored before events carried their ids. */
export function withoutId(event: Event): Event {
	switch (event.type) {
		case "rule-added": {
			const { id: _, ...data } = event.data;
			return { type: event.type, data };
		}
		case "decision-made":
		case "dead-end-found": {
			const { id: _, ...data } = event.data;
			return { type: event.type, data };
		}
		case "note-remembered": {
			const { id: _, ...data } = event.data;
			return { type: event.type, data };
		}
		default:
			return event;
	}
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null;

/**
 * Any JSON (entries, details, events) with the carried id of every rule, decision, dead end and note event taken
 * out: the session as it would have been stored before events carried their ids.
 */
export function jsonWithoutIds(u: unknown): unknown {
	if (Array.isArray(u)) return u.map(jsonWithoutIds);
	if (!isObject(u)) return u;
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(u)) out[key] = jsonWithoutIds(value);
	const data = out.data;
	if (typeof out.type === "string" && COUNTED.has(out.type) && isObject(data) && "id" in data) {
		const { id: _, ...rest } = data;
		out.data = rest;
	}
	return out;
}

/** Session entries as they would have been stored before events carried their ids. */
export function entriesWithoutIds(entries: readonly unknown[]): unknown[] {
	return entries.map(jsonWithoutIds);
}

import type { EventOf } from "../../events/index.js";
import { codePoints } from "../../projections/index.js";
import { evolveUnstored, initialState, type State } from "../../reducers/index.js";

/** The longest note `longhaul_remember` keeps, in characters as a reader counts them (an emoji is one). */
export const MAX_NOTE_CHARS = 1000;

/** Why `longhaul_remember` refuses a note (already trimmed), or undefined when it keeps it: a note is never cut. */
export function noteRefusal(note: string): string | undefined {
	if (note === "") return "Nothing remembered: the note is empty.";
	const length = codePoints(note);
	if (length > MAX_NOTE_CHARS) return `Nothing remembered: the note has ${length} characters, over ${MAX_NOTE_CHARS}.`;
	return undefined;
}

/**
 * The event `longhaul_remember` stores for a note, decided on the branch's state: it carries the id the tool
 * answers with, the one the reducer gives the note folded into that state. Two calls racing on the same state decide
 * the same id; the fold keeps it for the first in branch order and gives the later one the next number
 * (docs/contracts.md, Stored sessions and ids).
 */
export function rememberedNote(state: State, text: string): EventOf<"note-remembered"> {
	const event: EventOf<"note-remembered"> = { type: "note-remembered", data: { text } };
	const after = evolveUnstored({ ...initialState, notes: state.notes, next: state.next }, [event]);
	return { ...event, data: after.notes[state.notes.length] ?? event.data };
}

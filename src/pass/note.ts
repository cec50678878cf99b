import type { EventOf } from "../events/event.js";
import type { State } from "../reducers/state.js";
import { idsFrom } from "./ids.js";

/**
 * The event `longhaul_remember` stores for a note, decided on the branch's state: it carries the id the tool
 * answers with. Two calls racing on the same state decide the same id; the fold keeps it for the first in branch
 * order and gives the later one the next number (SPEC 8.7).
 */
export function rememberedNote(state: State, text: string): EventOf<"note-remembered"> {
	return { type: "note-remembered", data: { id: idsFrom(state.next, "N")(), text } };
}

import type { Entry } from "../events/index.js";

// Where a kept entry stands in a conversation, in terms a recording and its replay share: entry ids differ between
// them (pi gives a replayed entry a new one), but the turns and the messages within each turn come in the same order.

/** An entry's place: the user turn it belongs to (`u<turn>`, 0 before the first) and its message's index in it. */
export interface Place {
	readonly turn: number;
	readonly offset: number;
	readonly role: string;
}

function roleOf(entry: Entry): string | undefined {
	if (entry.type !== "message") return undefined;
	const message = entry.raw.message;
	const role = typeof message === "object" && message !== null && "role" in message ? message.role : undefined;
	return typeof role === "string" ? role : undefined;
}

/** The place of every message entry of a branch, by index (undefined for an entry that is no message). */
function places(branch: readonly Entry[]): (Place | undefined)[] {
	let turn = 0;
	let offset = 0;
	return branch.map((entry) => {
		const role = roleOf(entry);
		if (role === undefined) return undefined;
		if (role === "user") {
			turn++;
			offset = 0;
		} else offset++;
		return { turn, offset, role };
	});
}

/** The place of the entry `id`, or of the first message after it when it is no message; undefined if none. */
export function placeOf(branch: readonly Entry[], id: string): Place | undefined {
	return placeFinder(branch)(id);
}

/** `placeOf` for many ids of one branch: the places are laid once, so each look-up costs no walk of the branch. */
export function placeFinder(branch: readonly Entry[]): (id: string) => Place | undefined {
	const laid = places(branch);
	const next: (Place | undefined)[] = [];
	for (let i = laid.length - 1; i >= 0; i--) next[i] = laid[i] ?? next[i + 1];
	const first = new Map<string, number>();
	branch.forEach((e, i) => {
		if (!first.has(e.id)) first.set(e.id, i);
	});
	return (id) => {
		const at = first.get(id);
		return at === undefined ? undefined : next[at];
	};
}

/** The index of the message entry at `place`, or -1. */
export function indexAt(branch: readonly Entry[], place: Place): number {
	return places(branch).findIndex((p) => p !== undefined && samePlace(p, place));
}

/** True when two places are the same message of the same turn. */
export function samePlace(a: Place | undefined, b: Place | undefined): boolean {
	return a !== undefined && b !== undefined && a.turn === b.turn && a.offset === b.offset && a.role === b.role;
}

/** A place as text: `u12` for a turn's user message, `u12+3 (assistant)` for a later message of it. */
export function placeText(place: Place | undefined): string {
	if (place === undefined) return "no entry on the branch";
	return place.offset === 0 ? `u${place.turn}` : `u${place.turn}+${place.offset} (${place.role})`;
}

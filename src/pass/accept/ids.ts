import type { Counters } from "../../reducers/index.js";

/**
 * The ids one decision gives the entries of a kind, in order (docs/contracts.md, Stored sessions and ids): the counter
 * of the state it decides on, then one past each id it gave. These are the ids the fold would give the same events
 * stored without them.
 */
export function idsFrom(next: Counters, kind: keyof Counters): () => string {
	let n = next[kind];
	return () => `${kind}${n++}`;
}

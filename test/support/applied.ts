import type { Event } from "../../src/events/index.js";
import { evolve, type State } from "../../src/reducers/index.js";

/** Events applied as one batch, stored ones with the sequence numbers given (none for events the fold makes). */
export function applied(state: State, events: readonly Event[], seqs: readonly (number | null)[] = []): State {
	return evolve(
		state,
		events.map((event, i) => ({ seq: seqs[i] ?? null, event })),
	);
}

import type { Event } from "../../../src/events/index.js";
import { initialState, type State } from "../../../src/reducers/index.js";
import { applied } from "../../support/applied.js";

/**
 * Given these events (one batch, as a fold that read them earlier), when these (a later batch), then the state:
 * the two batches also show that what one batch indexed holds in the next.
 */
export function given(...before: Event[]) {
	const state = applied(initialState, before);
	return {
		state,
		when: (...events: Event[]): State => applied(state, events),
	};
}

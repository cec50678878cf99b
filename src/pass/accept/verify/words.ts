// The matchers of a user's words live in src/events (the fold checks stored rules with them too); acceptance's
// checks import them from here, as they did before the move.
export { looseOccurrences, occurrences, onWordBoundaries, type Region } from "../../../events/index.js";

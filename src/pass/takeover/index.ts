// Taking over from another compactor: the foreign summary and the earlier messages offered, with the picks of the
// standing-rule reader (src/pass/reader) recorded when no answer verifies them.
export { type Offer, offerOf, rereadRefs, standingEvents, type Takeover, takeoverOf } from "./takeover.js";

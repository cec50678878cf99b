// Taking over from another compactor: the foreign summary, the earlier messages offered, and the standing-rule
// reader (reader/) that records the user's standing rules when no answer verifies them.
export { readsAsStandingRule, ruleSentences, standingRules } from "./standing-rules.js";
export { type Offer, offerOf, rereadRefs, standingEvents, type Takeover, takeoverOf } from "./takeover.js";

// The standing-rule reader: a check of the user's own words that needs no model. It reads a message as a standing
// rule or not (docs/how-it-works.md, Taking over from another compactor), for the takeover's picks and for the
// sentences acceptance records from a long pick; it sits below both.
export { readsAsStandingRule, ruleSentences, standingRules } from "./standing-rules.js";

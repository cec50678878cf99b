// Acceptance: what of an answer becomes events, each rule, lift, decision and value applied through the reducer
// and checked against the user's own words (verify/), with the lift questions it raises and the replies to them.

// The user's own words and the withdrawal phrases are read in src/events (the fold checks stored lifts with them);
// the takeover's standing-rule reader reads them through acceptance, as it did before they moved.
export { looseOccurrences, ownWords, type Region, trimRegion, WITHDRAWAL_PHRASES } from "../../events/index.js";
export { type AcceptContext, type Accepted, acceptAnswer } from "./accept.js";
export { acceptLabels, type Dropped, type LabelContext } from "./accept-labels.js";
export { QUESTIONS_HEADER, type Question, renderQuestions } from "./questions.js";
export { applyReplies } from "./replies.js";
export { isReaderSentence, pickRecords } from "./verify/earlier-words.js";
export { cleanWords, WORDS_OVER } from "./verify/rule-words.js";

// Acceptance: what of an answer becomes events, each rule, lift, decision and value applied through the reducer
// and checked against the user's own words (verify/), with the lift questions it raises and the replies to them.
export { type AcceptContext, type Accepted, acceptAnswer } from "./accept.js";
export { acceptLabels, type LabelContext } from "./accept-labels.js";
export { QUESTIONS_HEADER, type Question, renderQuestions } from "./questions.js";
export { applyReplies } from "./replies.js";
export { pickRecords, readerSentences } from "./verify/earlier-words.js";
export { cleanWords, WORDS_OVER } from "./verify/rule-words.js";

export { commandsById, cutCommand } from "./command-text.js";
export { errorLabel, errorLine } from "./error-line.js";
export { type TaggedRule, taggedRules, taggedRulesNotice } from "./hidden-text.js";
export { reportDigest } from "./report.js";
export { codePoints, cutWhole, headAndTail, isTerminalSafe, safeJson, sanitize, sliceWhole } from "./sanitize.js";
export { stateJson, stateObject } from "./state-json.js";
export { anomaliesView, spansView, stateView } from "./state-views.js";
export { type CapFit, DEFAULT_SUMMARY_CHARS, type Rendered, renderSummary, summaryBody } from "./summary.js";

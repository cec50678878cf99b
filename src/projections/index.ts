export { isTerminalSafe, safeJson, sanitize } from "./sanitize.js";
export { stateJson, stateObject } from "./state-json.js";
export { anomaliesView, spansView, stateView } from "./state-views.js";
export { type CapFit, DEFAULT_SUMMARY_CHARS, type Rendered, renderSummary } from "./summary.js";

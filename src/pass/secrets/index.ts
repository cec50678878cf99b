// Secrets found by code, without a model: on whole texts, linear in them (docs/security.md, Keys and tokens in tool output).
export { runEnd, stopAt, TOKEN_END } from "./chars.js";
export { FINDERS, placed, secretSpans, secretValueKind } from "./find.js";
export type { Finder, SecretSpan, Steps } from "./span.js";
export { privateKeySpans, READS_BACK } from "./structures.js";
export { vendorTokens } from "./vendors.js";
export { originalRange, readEscapesKept, readView, type View, ViewReader, viewRange } from "./view.js";

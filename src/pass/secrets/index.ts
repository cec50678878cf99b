// Secrets found by code, without a model: on whole texts, linear in them (docs/security.md, Keys and tokens in tool output).
export { isMember, TOKEN_END } from "./chars.js";
export { placed, secretSpans, secretValueKind, viewSpans } from "./find.js";
export type { SecretSpan } from "./span.js";
export { vendorSpans } from "./vendors.js";
export { originalRange, readView, type View } from "./view.js";

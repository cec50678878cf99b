// The pass's decisions: each a pure `(state, inputs) → events`, from the first answer to the span's close, and the
// note `longhaul_remember` stores.
export { type Decided, decideAnswer, decideClose, decideWithoutModel, decidingFrom } from "./decide.js";
export { MAX_NOTE_CHARS, noteRefusal, rememberedNote } from "./note.js";

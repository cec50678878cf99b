// The model's answer: its codec and bounds, the relaxed reading and the repair of what code can bring back, the
// label forms, the defects a retry note names, and the items of an answer left out (by the repair or by acceptance).
export { ANSWER_BOUNDS, decodeAnswer, type RawAnswer, type RawLabel, readRelaxedAnswer } from "./answer.js";
export { type Defect, type Dropped, type DropReason, defect, RETRY_NOTE_CHARS, retryNote } from "./defects.js";
export { jsonObjectIn } from "./json-in-text.js";
export { formatLabel, LABEL_FORMS, type Label, liftTargets, parseLabel, type Target, withTargets } from "./labels.js";
export { type Repaired, repairAnswer } from "./repair.js";

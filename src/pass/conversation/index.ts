// The pass's model conversation as a pure decider: `start(plan, at)` gives the first ask, `next(conversation, heard)` the
// next ask or the end. Single mode is a conversation of one section (a chunk's diff); turns mode one of five.
export type { ConversationState, ConversationStep, Plan, TurnTrace } from "./conversation.js";
export { next, start } from "./conversation.js";
export type { DiffContext, DiffResult } from "./diff-section.js";
export { FIRST_BUDGET, RAISED_BUDGET_MIN } from "./diff-section.js";
export type {
	Ask,
	CallTrace,
	ConversationInput,
	Heard,
	Purpose,
	Reply,
	ToolAnswer,
	ToolRequest,
	ToolSpec,
} from "./exchange.js";
export type { SectionResult } from "./section-dispatch.js";
export { type ChunkDiff, chunkDiffOf, chunkPlan } from "./single.js";
export {
	cannotConverse,
	type TakeoverRefs,
	type TurnsAccepted,
	type TurnsBudgets,
	type TurnsInput,
	type TurnsOutcome,
	turnsOutcomeOf,
	turnsPlan,
} from "./turns.js";

export { type Evolving, evolve, evolveUnstored, evolving, ruleToLift, type Sequenced } from "./evolve.js";
export { type Folded, foldBranch, foldEntries, foldRead, foldTranscript, stateAtSpan } from "./fold.js";
export { fixedErrors, isOpen, openErrors } from "./open-errors.js";
export type {
	Anomaly,
	Command,
	Counters,
	Finding,
	ForeignCompaction,
	LedgerError,
	LiftedRule,
	ModelFailure,
	Note,
	Rule,
	SpanClose,
	State,
	Value,
	WorkLogLine,
} from "./state.js";
export { initialState } from "./state.js";

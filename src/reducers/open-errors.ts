import type { LedgerError, State } from "./state.js";

// What "open" means is the reducer's: an error stays open until the fold records what fixed it (`fixedBy`). Every
// reader of the state asks here, so the summary, the views, the prompt and the ledger cannot disagree on it.

/** True while nothing has fixed the error. */
export function isOpen(error: Pick<LedgerError, "fixedBy">): boolean {
	return error.fixedBy === null;
}

/** The state's open errors, in ledger order. */
export function openErrors(state: Pick<State, "errors">): readonly LedgerError[] {
	return state.errors.filter(isOpen);
}

/** The state's fixed errors, in ledger order. */
export function fixedErrors(state: Pick<State, "errors">): readonly LedgerError[] {
	return state.errors.filter((e) => !isOpen(e));
}

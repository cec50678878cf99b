import type { World } from "../events/world.js";

/** A rule in force: the user's words verbatim and the message that gave them. */
export interface Rule {
	readonly id: string;
	readonly text: string;
	readonly source: string;
}

/** A rule the user withdrew, and the message that withdrew it. */
export interface LiftedRule extends Rule {
	readonly by: string;
}

/** A decision or a dead end, with the ledger ids that back it. */
export interface Finding {
	readonly id: string;
	readonly text: string;
	readonly evidence: readonly string[];
}

export interface Note {
	readonly id: string;
	readonly text: string;
}

export interface Value {
	readonly name: string;
	readonly value: string;
	readonly source: string;
}

export interface Command {
	readonly id: string;
	readonly command: string;
	readonly exitCode: number | null;
	readonly span: number;
	readonly toolCallId: string | null;
	readonly by: "tool" | "user";
}

export interface LedgerError {
	readonly id: string;
	readonly tool: string;
	readonly head: string;
	readonly span: number;
	readonly command: string | null;
	/** The file of an edit or write that failed; absent for any other error. */
	readonly path?: string;
	/**
	 * What fixed it: the command `C<n>` whose later success did, or `edit of PATH` (`write of PATH`) for a later
	 * successful edit or write of the file; null while the error is open.
	 */
	readonly fixedBy: string | null;
}

/** A turn the session's own model stopped with an error, in the span that held it: the session's, not the work's. */
export interface ModelFailure {
	readonly span: number;
	readonly head: string;
}

export interface WorkLogLine {
	readonly span: number;
	readonly text: string;
}

/** How a span closed, and the user messages it left unlabeled. */
export interface SpanClose {
	readonly span: number;
	readonly kind: "whole" | "narrative-less" | "partial";
	readonly unlabeled: readonly string[];
	readonly reason: string | null;
}

export interface Anomaly {
	readonly entry: string;
	readonly reason: string;
}

export interface ForeignCompaction {
	readonly entry: string;
	readonly summaryChars: number;
	readonly fromHook: boolean;
}

/** The next number for each id the reducer assigns; ids are never reused. */
export interface Counters {
	readonly R: number;
	readonly D: number;
	readonly X: number;
	readonly N: number;
}

/** The state Longhaul rebuilds from a branch's events. */
export interface State {
	readonly stateFormat: 1;
	readonly spans: number;
	readonly lastSeq: number;
	readonly objective: string | null;
	readonly rules: readonly Rule[];
	readonly lifted: readonly LiftedRule[];
	readonly decisions: readonly Finding[];
	readonly deadEnds: readonly Finding[];
	readonly notes: readonly Note[];
	readonly values: readonly Value[];
	readonly commands: readonly Command[];
	readonly errors: readonly LedgerError[];
	/**
	 * Absent until the first `model-failed` event: stored sessions (docs/contracts.md, Stored sessions and ids) fold to
	 * the State they always folded to, key for key.
	 */
	readonly modelFailures?: readonly ModelFailure[];
	readonly files: { readonly read: readonly string[]; readonly modified: readonly string[] };
	readonly world: World | null;
	readonly workLog: readonly WorkLogLine[];
	readonly now: string | null;
	readonly closes: readonly SpanClose[];
	readonly anomalies: readonly Anomaly[];
	readonly foreign: readonly ForeignCompaction[];
	readonly next: Counters;
}

/** The state before any event. */
export const initialState: State = Object.freeze({
	stateFormat: 1,
	spans: 0,
	lastSeq: 0,
	objective: null,
	rules: [],
	lifted: [],
	decisions: [],
	deadEnds: [],
	notes: [],
	values: [],
	commands: [],
	errors: [],
	files: { read: [], modified: [] },
	world: null,
	workLog: [],
	now: null,
	closes: [],
	anomalies: [],
	foreign: [],
	next: { R: 1, D: 1, X: 1, N: 1 },
});

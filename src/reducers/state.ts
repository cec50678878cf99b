import type { EventData } from "../events/index.js";

// The state's records are the events' data as their codecs decode it (src/events/event.ts), read-only; what only the
// fold sets (an id it numbers, `fixedBy`, the lifting message) is declared here, beside the reducer.

/** A record as the state holds it: its fields and its lists read-only. */
type Held<T> = { readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? readonly U[] : T[K] };

type RuleData = EventData<"rule-added">;

/** A rule in force: the user's words verbatim (`text`), the message that gave them, and the id the fold gave it. */
export type Rule = Held<{ id: string; text: RuleData["words"]; source: RuleData["source"] }>;

/** A rule the user withdrew, and the message that withdrew it. */
export type LiftedRule = Rule & Held<Pick<EventData<"rule-lifted">, "by">>;

/** A decision or a dead end, with the ledger ids that back it and the id the fold gave it. */
export type Finding = Held<Required<EventData<"decision-made">>>;

/** A note, with the id the fold gave it. */
export type Note = Held<Required<EventData<"note-remembered">>>;

export type Value = Held<EventData<"value-recorded">>;

export type Command = Held<EventData<"command-recorded">>;

/** An error of the ledger, and what fixed it. */
export type LedgerError = Held<
	EventData<"error-recorded"> & {
		/**
		 * What fixed it: the command `C<n>` whose later success did, or `edit of PATH` (`write of PATH`) for a later
		 * successful edit or write of the file (`fixerOf`); null while the error is open.
		 */
		fixedBy: string | null;
	}
>;

/** A turn the session's own model stopped with an error, in the span that held it: the session's, not the work's. */
export type ModelFailure = Held<EventData<"model-failed">>;

export type WorkLogLine = Held<EventData<"narrative-line">>;

/** How a span closed, and the user messages it left unlabeled. */
export type SpanClose = Held<EventData<"span-closed">>;

export type Anomaly = Held<EventData<"anomaly">>;

export type ForeignCompaction = Held<EventData<"foreign-compaction-seen">>;

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
	readonly files: Held<EventData<"files-touched">>;
	readonly world: EventData<"world-taken">["world"] | null;
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

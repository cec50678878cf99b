import type { Event } from "../events/index.js";
import {
	branchEvents,
	branchOf,
	type Entry,
	entriesFromObjects,
	type Located,
	type LocatedSpanRecord,
	type ReadAnomaly,
	readTranscript,
	type Transcript,
} from "../events/index.js";
import { evolve } from "./evolve.js";
import { ruleGate } from "./rule-check.js";
import { type Anomaly, initialState, type State } from "./state.js";

/** The fold of a branch: its state, the events that built it in order, and the span records found. */
export interface Folded {
	readonly state: State;
	readonly events: readonly Located[];
	readonly spanRecords: readonly LocatedSpanRecord[];
	readonly branch: readonly Entry[];
}

function readAnomalies(anomalies: readonly ReadAnomaly[]): Located[] {
	return anomalies.map((a) => {
		const event: Event = { type: "anomaly", data: { entry: a.entry, reason: a.reason } };
		return { entry: a.entry, seq: null, event };
	});
}

/**
 * Folds the entries of one branch (root to leaf) into the state; `before` are anomalies met while reading. A rule event
 * the branch does not back (`ruleGate`) is an anomaly, in the state and in the events in its place.
 */
export function foldBranch(branch: readonly Entry[], before: readonly ReadAnomaly[] = []): Folded {
	const found = branchEvents(branch);
	const read = before.length === 0 ? found.events : [...readAnomalies(before), ...found.events];
	const refused = new Map<Located, Anomaly>();
	const state = evolve(initialState, read, ruleGate(branch, refused));
	const events = refused.size === 0 ? read : read.map((l) => inPlace(l, refused.get(l)));
	return { state, events, spanRecords: found.spanRecords, branch };
}

/** The event, or the anomaly that refused it, with its entry and sequence number. */
function inPlace(located: Located, anomaly: Anomaly | undefined): Located {
	return anomaly === undefined
		? located
		: { entry: located.entry, seq: located.seq, event: { type: "anomaly", data: anomaly } };
}

/**
 * Folds transcript text: read, migrate in memory, follow the branch from the last entry, fold. Never throws.
 * Exported for tests.
 */
export function foldTranscript(text: string): Folded {
	return foldRead(readTranscript(text));
}

/** Folds a transcript already read (a file streamed line by line): the branch from the last entry. Never throws. */
export function foldRead(transcript: Transcript): Folded {
	const branch = branchOf(transcript.entries);
	return foldBranch(branch.entries, [...transcript.anomalies, ...branch.anomalies]);
}

/** Folds entries pi holds in memory (`sessionManager.getBranch()`), already in branch order. */
export function foldEntries(objects: readonly unknown[]): Folded {
	const transcript = entriesFromObjects(objects);
	return foldBranch(transcript.entries, transcript.anomalies);
}

/** The state as it was when span `span` closed: the events up to and including that span's close. */
export function stateAtSpan(folded: Folded, span: number): State | undefined {
	const events = folded.events;
	const end = events.findIndex((l) => l.event.type === "span-closed" && l.event.data.span === span);
	if (end < 0) return undefined;
	const closingEntry = events[end]?.entry;
	let last = end;
	while (last + 1 < events.length && events[last + 1]?.entry === closingEntry) last++;
	return evolve(initialState, events.slice(0, last + 1));
}

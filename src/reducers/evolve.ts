import { type Draft, Immer } from "immer";
import type { Event, EventOf } from "../events/event.js";
import type {
	Anomaly,
	Command,
	Counters,
	Finding,
	ForeignCompaction,
	LedgerError,
	LiftedRule,
	Note,
	Rule,
	SpanClose,
	State,
	Value,
	WorkLogLine,
} from "./state.js";

/**
 * The lists of the state as plain arrays for the length of one batch. Reading a draft's elements makes an immer
 * proxy per element, which made the fold quadratic; the batch copies each list once, works on plain arrays with
 * plain indexes, and hands them back to the draft, which immer then finalizes and freezes as usual.
 */
interface Work {
	readonly draft: Draft<State>;
	readonly rules: Rule[];
	readonly lifted: LiftedRule[];
	readonly decisions: Draft<Finding>[];
	readonly deadEnds: Draft<Finding>[];
	readonly notes: Note[];
	readonly values: Value[];
	readonly commands: Command[];
	readonly errors: LedgerError[];
	readonly read: string[];
	readonly modified: string[];
	readonly workLog: WorkLogLine[];
	readonly closes: Draft<SpanClose>[];
	readonly anomalies: Anomaly[];
	readonly foreign: ForeignCompaction[];
	readonly index: {
		readonly commands: Set<string>;
		readonly errors: Map<string, number>;
		readonly rules: Set<string>;
		readonly lifted: Set<string>;
		readonly values: Set<string>;
		readonly read: Set<string>;
		readonly modified: Set<string>;
	};
}

const key = (...parts: readonly string[]): string => JSON.stringify(parts);

function workOn(draft: Draft<State>, state: State): Work {
	return {
		draft,
		rules: [...state.rules],
		lifted: [...state.lifted],
		decisions: state.decisions.map((f) => ({ ...f, evidence: [...f.evidence] })),
		deadEnds: state.deadEnds.map((f) => ({ ...f, evidence: [...f.evidence] })),
		notes: [...state.notes],
		values: [...state.values],
		commands: [...state.commands],
		errors: [...state.errors],
		read: [...state.files.read],
		modified: [...state.files.modified],
		workLog: [...state.workLog],
		closes: state.closes.map((c) => ({ ...c, unlabeled: [...c.unlabeled] })),
		anomalies: [...state.anomalies],
		foreign: [...state.foreign],
		index: {
			commands: new Set(state.commands.map((c) => c.id)),
			errors: new Map(state.errors.map((e, i) => [e.id, i])),
			rules: new Set(state.rules.map((r) => key(r.source, r.text))),
			lifted: new Set(state.lifted.map((r) => key(r.source, r.text))),
			values: new Set(state.values.map((v) => key(v.name, v.value, v.source))),
			read: new Set(state.files.read),
			modified: new Set(state.files.modified),
		},
	};
}

/**
 * Hands the lists back frozen: immer walks a new, unfrozen value to look for drafts inside it, which cost a walk of
 * every list on every batch; a frozen one it takes as it is. Only the containers are frozen, in O(1) each.
 */
function handBack(w: Work): void {
	const d = w.draft;
	const files = { read: w.read, modified: w.modified };
	d.rules = w.rules;
	d.lifted = w.lifted;
	d.decisions = w.decisions;
	d.deadEnds = w.deadEnds;
	d.notes = w.notes;
	d.values = w.values;
	d.commands = w.commands;
	d.errors = w.errors;
	d.files = files;
	d.workLog = w.workLog;
	d.closes = w.closes;
	d.anomalies = w.anomalies;
	d.foreign = w.foreign;
	for (const list of [w.rules, w.lifted, w.decisions, w.deadEnds, w.notes, w.values, w.commands, w.errors])
		Object.freeze(list);
	for (const list of [w.read, w.modified, w.workLog, w.closes, w.anomalies, w.foreign, files]) Object.freeze(list);
}

function take(w: Work, kind: keyof Counters): string {
	const n = w.draft.next[kind];
	w.draft.next[kind] = n + 1;
	return `${kind}${n}`;
}

/** Adds a rule, unless it is in force or was lifted: the same words from the same message never come back. */
function addRule(w: Work, { words, source }: EventOf<"rule-added">["data"]): void {
	const k = key(source, words);
	if (w.index.rules.has(k) || w.index.lifted.has(k)) return;
	w.index.rules.add(k);
	w.rules.push({ id: take(w, "R"), text: words, source });
}

/** Lifts the newest rule in force whose id or source is `target`. */
function liftRule(w: Work, { target, by }: EventOf<"rule-lifted">["data"]): void {
	let index = -1;
	for (let i = w.rules.length - 1; i >= 0 && index < 0; i--) {
		const rule = w.rules[i];
		if (rule !== undefined && (rule.id === target || rule.source === target)) index = i;
	}
	const rule = w.rules[index];
	if (rule === undefined) {
		w.anomalies.push({ entry: by, reason: `lift of ${target}, which is not a rule in force` });
		return;
	}
	w.index.rules.delete(key(rule.source, rule.text));
	w.rules.splice(index, 1);
	w.index.lifted.add(key(rule.source, rule.text));
	w.lifted.push({ id: rule.id, text: rule.text, source: rule.source, by });
}

/** A modified file leaves the read list; a read file joins it only when it was never modified. */
function addFiles(w: Work, { read, modified }: EventOf<"files-touched">["data"]): void {
	let moved = false;
	for (const path of modified) {
		if (w.index.modified.has(path)) continue;
		w.index.modified.add(path);
		w.modified.push(path);
		moved = moved || w.index.read.delete(path);
	}
	if (moved) {
		// Rebuilt in place without spreading: a list of any length read from a transcript must not blow the stack.
		const kept = w.read.filter((path) => w.index.read.has(path));
		w.read.length = 0;
		for (const path of kept) w.read.push(path);
	}
	for (const path of read) {
		if (w.index.modified.has(path) || w.index.read.has(path)) continue;
		w.index.read.add(path);
		w.read.push(path);
	}
}

function fixError(w: Work, { error, by }: EventOf<"error-fixed">["data"]): void {
	const index = w.index.errors.get(error);
	const found = index === undefined ? undefined : w.errors[index];
	if (index !== undefined && found !== undefined && found.fixedBy === null) w.errors[index] = { ...found, fixedBy: by };
}

function addValue(w: Work, value: EventOf<"value-recorded">["data"]): void {
	const k = key(value.name, value.value, value.source);
	if (w.index.values.has(k)) return;
	w.index.values.add(k);
	w.values.push({ ...value });
}

function addCommand(w: Work, command: EventOf<"command-recorded">["data"]): void {
	if (w.index.commands.has(command.id)) return;
	w.index.commands.add(command.id);
	w.commands.push({ ...command });
}

function addError(w: Work, error: EventOf<"error-recorded">["data"]): void {
	if (w.index.errors.has(error.id)) return;
	w.index.errors.set(error.id, w.errors.length);
	w.errors.push({ ...error, fixedBy: null });
}

/** Applies one event: one exhaustive switch over the event kinds. */
function apply(w: Work, event: Event): void {
	const d = w.draft;
	switch (event.type) {
		case "rule-added":
			addRule(w, event.data);
			return;
		case "rule-lifted":
			liftRule(w, event.data);
			return;
		case "decision-made":
			w.decisions.push({ id: take(w, "D"), text: event.data.text, evidence: [...event.data.evidence] });
			return;
		case "dead-end-found":
			w.deadEnds.push({ id: take(w, "X"), text: event.data.text, evidence: [...event.data.evidence] });
			return;
		case "note-remembered":
			w.notes.push({ id: take(w, "N"), text: event.data.text });
			return;
		case "value-recorded":
			addValue(w, event.data);
			return;
		case "objective-set":
			d.objective = event.data.text;
			return;
		case "narrative-line":
			w.workLog.push({ span: event.data.span, text: event.data.text });
			return;
		case "now-set":
			d.now = event.data.text;
			return;
		case "command-recorded":
			addCommand(w, event.data);
			return;
		case "error-recorded":
			addError(w, event.data);
			return;
		case "error-fixed":
			fixError(w, event.data);
			return;
		case "files-touched":
			addFiles(w, event.data);
			return;
		case "world-taken":
			d.world = { ...event.data.world };
			return;
		case "span-closed":
			d.spans = Math.max(d.spans, event.data.span);
			w.closes.push({ ...event.data, unlabeled: [...event.data.unlabeled] });
			return;
		case "foreign-compaction-seen":
			w.foreign.push({ ...event.data });
			return;
		case "anomaly":
			w.anomalies.push({ ...event.data });
			return;
		default: {
			const unknownKind: never = event;
			throw new Error(`unhandled event kind ${JSON.stringify(unknownKind)}`);
		}
	}
}

/** An event and, when it was stored, its sequence number. */
export interface Sequenced {
	readonly seq: number | null;
	readonly event: Event;
}

/**
 * States are not deep-frozen: freezing walked every object of a long ledger on every batch and cost more than the
 * rest of the fold. Nothing mutates a state outside `evolve`, and the types are readonly throughout.
 */
const immer = new Immer({ autoFreeze: false });

/** The state after `events`: pure, one `produce` for the whole batch. */
export function evolve(state: State, events: readonly Sequenced[]): State {
	if (events.length === 0) return state;
	return immer.produce(state, (draft) => {
		const work = workOn(draft, state);
		for (const { seq, event } of events) {
			apply(work, event);
			if (seq !== null && seq > draft.lastSeq) draft.lastSeq = seq;
		}
		handBack(work);
	});
}

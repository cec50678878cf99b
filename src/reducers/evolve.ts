import { castDraft, type Draft, Immer } from "immer";
import type { Event, EventOf } from "../events/event.js";
import { idNumber } from "../events/ids.js";
import type { Counters, State } from "./state.js";

/** The id kinds the fold numbers when an event carries no id. */
type Counted = keyof Counters;

/**
 * What the case reducers look up, kept beside the draft and not in it: finding an entry by scanning a list made the
 * fold quadratic. Built once per batch from the state the batch starts from, and kept in step with the draft by the
 * case reducers.
 */
interface Index {
	/** Every id each counted kind has given: rules in force and lifted, decisions, dead ends, notes. */
	readonly ids: { readonly [K in Counted]: Set<string> };
	/** Rules in force, by source and words. */
	readonly rules: Set<string>;
	/** Rules lifted, by source and words: the same words from the same message never come back. */
	readonly lifted: Set<string>;
	readonly commands: Set<string>;
	/** Each error's place in `errors`. */
	readonly errors: Map<string, number>;
	readonly values: Set<string>;
	readonly read: Set<string>;
	readonly modified: Set<string>;
	/** The counters: the draft's own `next` for the batch, read here without a proxy trap per id given. */
	readonly next: { [K in Counted]: number };
}

/** A rule's key in the index: its source and words, the source's length first so no two pairs share a key. */
const ruleKey = (source: string, words: string): string => `${source.length}:${source}${words}`;

/** A value's key in the index: name, value and source, the first two's lengths first so no two share a key. */
const valueKey = (v: { readonly name: string; readonly value: string; readonly source: string }): string =>
	`${v.name.length}:${v.value.length}:${v.name}${v.value}${v.source}`;

function indexOf(state: State): Index {
	return {
		ids: {
			R: new Set([...state.rules.map((r) => r.id), ...state.lifted.map((r) => r.id)]),
			D: new Set(state.decisions.map((d) => d.id)),
			X: new Set(state.deadEnds.map((x) => x.id)),
			N: new Set(state.notes.map((n) => n.id)),
		},
		rules: new Set(state.rules.map((r) => ruleKey(r.source, r.text))),
		lifted: new Set(state.lifted.map((r) => ruleKey(r.source, r.text))),
		commands: new Set(state.commands.map((c) => c.id)),
		errors: new Map(state.errors.map((e, i) => [e.id, i])),
		values: new Set(state.values.map((v) => valueKey(v))),
		read: new Set(state.files.read),
		modified: new Set(state.files.modified),
		next: { ...state.next },
	};
}

/** Moves the counter past a carried id, so that the counter's next number is never an id given before. */
function countPast(index: Index, kind: Counted, carried: string | undefined): void {
	if (carried !== undefined) index.next[kind] = Math.max(index.next[kind], idNumber(carried) + 1);
}

/**
 * The id an entry gets (SPEC 8.7): the id its event carries, unless an entry of the state already has it; else, and
 * for an event stored without one, the counter's next number, as the fold always gave. The counter moves past every
 * id it sees, so its number is always free and no id is given twice: of two events carrying the same id (two racing
 * `longhaul_remember` calls, two forks), the first in fold order keeps it and the later one takes the next number.
 */
function idFor(index: Index, kind: Counted, carried: string | undefined): string {
	countPast(index, kind, carried);
	const id = carried === undefined || index.ids[kind].has(carried) ? `${kind}${index.next[kind]++}` : carried;
	index.ids[kind].add(id);
	return id;
}

/**
 * Gives the draft its own plain copy of each list for the batch. An immer draft array costs a proxy trap and a
 * finalize callback for every element pushed or read, which halved the fold's rate (the figures are in
 * docs/architecture.md); a plain array the draft holds costs nothing per element, and immer takes it as the new
 * value when the batch ends. The entries in these lists are shared with the state the batch started from, so a case
 * reducer replaces an entry and never mutates one.
 */
function detachLists(d: Draft<State>, state: State, index: Index): void {
	d.rules = castDraft(state.rules.slice());
	d.lifted = castDraft(state.lifted.slice());
	d.decisions = castDraft(state.decisions.slice());
	d.deadEnds = castDraft(state.deadEnds.slice());
	d.notes = castDraft(state.notes.slice());
	d.values = castDraft(state.values.slice());
	d.commands = castDraft(state.commands.slice());
	d.errors = castDraft(state.errors.slice());
	d.files = { read: state.files.read.slice(), modified: state.files.modified.slice() };
	d.workLog = castDraft(state.workLog.slice());
	d.closes = castDraft(state.closes.slice());
	d.anomalies = castDraft(state.anomalies.slice());
	d.foreign = castDraft(state.foreign.slice());
	d.next = index.next;
}

// Case reducers: each mutates the draft and the index beside it, and returns nothing.

/** A rule already in force with the same source and words is not added twice (its id, if any, is still seen). */
function ruleAdded(d: Draft<State>, index: Index, { id, words, source }: EventOf<"rule-added">["data"]): void {
	const k = ruleKey(source, words);
	if (index.rules.has(k) || index.lifted.has(k)) {
		countPast(index, "R", id);
		return;
	}
	index.rules.add(k);
	d.rules.push({ id: idFor(index, "R", id), text: words, source });
}

/** Lifts the newest rule in force whose id or source is `target`. */
function ruleLifted(d: Draft<State>, index: Index, { target, by }: EventOf<"rule-lifted">["data"]): void {
	const at = d.rules.findLastIndex((rule) => rule.id === target || rule.source === target);
	const [rule] = at < 0 ? [] : d.rules.splice(at, 1);
	if (rule === undefined) {
		d.anomalies.push({ entry: by, reason: `lift of ${target}, which is not a rule in force` });
		return;
	}
	const k = ruleKey(rule.source, rule.text);
	index.rules.delete(k);
	index.lifted.add(k);
	d.lifted.push({ id: rule.id, text: rule.text, source: rule.source, by });
}

function decisionMade(d: Draft<State>, index: Index, { id, text, evidence }: EventOf<"decision-made">["data"]): void {
	d.decisions.push({ id: idFor(index, "D", id), text, evidence: [...evidence] });
}

function deadEndFound(d: Draft<State>, index: Index, { id, text, evidence }: EventOf<"dead-end-found">["data"]): void {
	d.deadEnds.push({ id: idFor(index, "X", id), text, evidence: [...evidence] });
}

function noteRemembered(d: Draft<State>, index: Index, { id, text }: EventOf<"note-remembered">["data"]): void {
	d.notes.push({ id: idFor(index, "N", id), text });
}

function valueRecorded(d: Draft<State>, index: Index, value: EventOf<"value-recorded">["data"]): void {
	const k = valueKey(value);
	if (index.values.has(k)) return;
	index.values.add(k);
	d.values.push({ ...value });
}

/** A command id is recorded once: the first in fold order stands. */
function commandRecorded(d: Draft<State>, index: Index, command: EventOf<"command-recorded">["data"]): void {
	if (index.commands.has(command.id)) return;
	index.commands.add(command.id);
	d.commands.push({ ...command });
}

/** An error id is recorded once: the first in fold order stands. */
function errorRecorded(d: Draft<State>, index: Index, error: EventOf<"error-recorded">["data"]): void {
	if (index.errors.has(error.id)) return;
	index.errors.set(error.id, d.errors.length);
	d.errors.push({ ...error, fixedBy: null });
}

/** The first fix stands; a fix of an error not in the ledger changes nothing. */
function errorFixed(d: Draft<State>, index: Index, { error, by }: EventOf<"error-fixed">["data"]): void {
	const at = index.errors.get(error);
	const found = at === undefined ? undefined : d.errors[at];
	if (at !== undefined && found !== undefined && found.fixedBy === null) d.errors[at] = { ...found, fixedBy: by };
}

/** A modified file leaves the read list; a read file joins it only when it was never modified. */
function filesTouched(d: Draft<State>, index: Index, { read, modified }: EventOf<"files-touched">["data"]): void {
	let moved = false;
	for (const path of modified) {
		if (index.modified.has(path)) continue;
		index.modified.add(path);
		d.files.modified.push(path);
		// Only the first modified path that was read leaves the read set: the fold has always done so, and stored
		// sessions fold byte for byte (SPEC 8.7) until an issue names the change.
		moved = moved || index.read.delete(path);
	}
	// The read set holds the read list's paths in the list's order, so the list is rebuilt from it.
	if (moved) d.files.read = Array.from(index.read);
	for (const path of read) {
		if (index.modified.has(path) || index.read.has(path)) continue;
		index.read.add(path);
		d.files.read.push(path);
	}
}

function spanClosed(d: Draft<State>, close: EventOf<"span-closed">["data"]): void {
	d.spans = Math.max(d.spans, close.span);
	d.closes.push({ ...close, unlabeled: [...close.unlabeled] });
}

/** Applies one event: one exhaustive switch over the event kinds. */
function apply(d: Draft<State>, index: Index, event: Event): void {
	switch (event.type) {
		case "rule-added":
			ruleAdded(d, index, event.data);
			return;
		case "rule-lifted":
			ruleLifted(d, index, event.data);
			return;
		case "decision-made":
			decisionMade(d, index, event.data);
			return;
		case "dead-end-found":
			deadEndFound(d, index, event.data);
			return;
		case "note-remembered":
			noteRemembered(d, index, event.data);
			return;
		case "value-recorded":
			valueRecorded(d, index, event.data);
			return;
		case "objective-set":
			d.objective = event.data.text;
			return;
		case "narrative-line":
			d.workLog.push({ span: event.data.span, text: event.data.text });
			return;
		case "now-set":
			d.now = event.data.text;
			return;
		case "command-recorded":
			commandRecorded(d, index, event.data);
			return;
		case "error-recorded":
			errorRecorded(d, index, event.data);
			return;
		case "error-fixed":
			errorFixed(d, index, event.data);
			return;
		case "files-touched":
			filesTouched(d, index, event.data);
			return;
		case "world-taken":
			d.world = { ...event.data.world };
			return;
		case "span-closed":
			spanClosed(d, event.data);
			return;
		case "foreign-compaction-seen":
			d.foreign.push({ ...event.data });
			return;
		case "anomaly":
			d.anomalies.push({ ...event.data });
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

const immer = new Immer({ autoFreeze: false });

/** The state after `events`: pure, one `produce` for the whole batch. */
export function evolve(state: State, events: readonly Sequenced[]): State {
	if (events.length === 0) return state;
	const index = indexOf(state);
	return immer.produce(state, (draft) => {
		detachLists(draft, state, index);
		// The highest sequence number is kept aside and set once: each read of the draft is a proxy trap.
		let lastSeq = state.lastSeq;
		for (const { seq, event } of events) {
			apply(draft, index, event);
			if (seq !== null && seq > lastSeq) lastSeq = seq;
		}
		if (lastSeq !== state.lastSeq) draft.lastSeq = lastSeq;
	});
}

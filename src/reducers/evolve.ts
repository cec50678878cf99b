import { castDraft, type Draft, Immer } from "immer";
import { type Event, type EventData, fixerOf, idNumber } from "../events/index.js";
import { isOpen } from "./open-errors.js";
import type { Anomaly, Counters, Rule, State, Value } from "./state.js";

/** The id kinds the fold numbers when an event carries no id. */
type Counted = keyof Counters;

/** A set of string pairs, looked up without a key joined from the two (a joined key is a new string to hash). */
class PairSet {
	readonly #byFirst = new Map<string, Set<string>>();

	has(first: string, second: string): boolean {
		return this.#byFirst.get(first)?.has(second) === true;
	}

	/** Some pair starts with `first`. */
	hasFirst(first: string): boolean {
		return (this.#byFirst.get(first)?.size ?? 0) > 0;
	}

	add(first: string, second: string): void {
		const seconds = this.#byFirst.get(first);
		if (seconds === undefined) this.#byFirst.set(first, new Set([second]));
		else seconds.add(second);
	}

	delete(first: string, second: string): void {
		this.#byFirst.get(first)?.delete(second);
	}
}

/** A rule in the rules list, marked once lifted. */
interface Placed {
	readonly rule: Rule;
	lifted: boolean;
}

/**
 * The rules list indexed for lifts. Each rule stands under its id and under its source, newest last (alone where it is
 * the key's only rule, as under an id), so the newest rule not lifted under a lift's target is the rule `ruleToLift`
 * names; lifted rules are dropped from the top when met there, so each is popped at most twice. A lifted rule is
 * marked and leaves the list when the list is settled (`settleRules`): after each event of `evolving`, whose caller
 * reads the state between events, the one rule lifted is spliced out where it stands, found from the newest; at the
 * end of a batch, every rule it lifted is filtered out at once. A scan for the rule and a splice at each lift cost the
 * list's length each time. Settling changes only the list, so the index holds across it.
 */
class RulePlaces {
	readonly #byKey = new Map<string, Placed | Placed[]>();
	/** The rules in list order, as the draft's list holds them, lifted ones until the list is settled. */
	#listed: Placed[] = [];
	/** The rules lifted since the list was last settled. */
	#lifted: Placed[] = [];

	constructor(rules: readonly Rule[]) {
		for (const rule of rules) this.add(rule);
	}

	add(rule: Rule): void {
		const placed = { rule, lifted: false };
		this.#listed.push(placed);
		this.#put(rule.id, placed);
		this.#put(rule.source, placed);
	}

	/** The newest rule in force whose id or source is `target`: the rule `ruleToLift` names. */
	newest(target: string): Placed | undefined {
		const under = this.#byKey.get(target);
		if (under === undefined) return undefined;
		if (!Array.isArray(under)) return under.lifted ? undefined : under;
		while (under.length > 0 && under[under.length - 1]?.lifted === true) under.pop();
		return under[under.length - 1];
	}

	lift(placed: Placed): void {
		placed.lifted = true;
		this.#lifted.push(placed);
	}

	/** `rules`, the list this index was made from and added to, without the rules lifted since the last call. */
	settle(rules: Rule[]): Rule[] {
		const [first, second] = this.#lifted;
		if (first === undefined) return rules;
		this.#lifted = [];
		if (second === undefined) {
			const at = this.#listed.lastIndexOf(first);
			this.#listed.splice(at, 1);
			rules.splice(at, 1);
			return rules;
		}
		this.#listed = this.#listed.filter((placed) => !placed.lifted);
		return this.#listed.map((placed) => placed.rule);
	}

	#put(key: string, placed: Placed): void {
		const under = this.#byKey.get(key);
		if (under === undefined) this.#byKey.set(key, placed);
		else if (Array.isArray(under)) under.push(placed);
		else this.#byKey.set(key, [under, placed]);
	}
}

/** Values recorded, by source, then name and value. */
class ValueSet {
	readonly #bySource = new Map<string, PairSet>();

	/** Adds the value; false when it was there already. */
	added({ name, value, source }: Value): boolean {
		const known = this.#bySource.get(source);
		if (known?.has(name, value) === true) return false;
		const pairs = known ?? new PairSet();
		pairs.add(name, value);
		if (known === undefined) this.#bySource.set(source, pairs);
		return true;
	}
}

/**
 * What the case reducers look up, kept beside the draft and not in it: finding an entry by scanning a list made the
 * fold quadratic. Built once per batch from the state the batch starts from, and kept in step with the draft by the
 * case reducers.
 */
interface Index {
	/**
	 * The number of every id each counted kind has given: rules in force and lifted, decisions, dead ends, notes. An
	 * id is its kind's letter and a number written without leading zeros (the id codecs), so the number names it.
	 */
	readonly given: { readonly [K in Counted]: Set<number> };
	/** Rules in force, by source and words. */
	readonly rules: PairSet;
	/** Rules lifted, by source and words: the same words from the same message never come back. */
	readonly lifted: PairSet;
	/** The rules list indexed for lifts (`RulePlaces`): made when the first `rule-lifted` event is met. */
	rulePlaces?: RulePlaces;
	readonly commands: Set<string>;
	/** Each error's place in `errors`. */
	readonly errors: Map<string, number>;
	readonly values: ValueSet;
	readonly read: Set<string>;
	/**
	 * A read path left the read set in this batch, so the draft's read list is rebuilt from the set when the batch
	 * ends: rebuilt at each event that moves one, it cost the list's length each time.
	 */
	readStale: boolean;
	readonly modified: Set<string>;
	/** The counters: the draft's own `next` for the batch, read here without a proxy trap per id given. */
	readonly next: { [K in Counted]: number };
}

function rulePairs(rules: readonly Rule[]): PairSet {
	const pairs = new PairSet();
	for (const rule of rules) pairs.add(rule.source, rule.text);
	return pairs;
}

function idNumbers(entries: readonly { readonly id: string }[]): Set<number> {
	return new Set(entries.map((entry) => idNumber(entry.id)));
}

function indexOf(state: State): Index {
	const values = new ValueSet();
	for (const value of state.values) values.added(value);
	return {
		given: {
			R: idNumbers([...state.rules, ...state.lifted]),
			D: idNumbers(state.decisions),
			X: idNumbers(state.deadEnds),
			N: idNumbers(state.notes),
		},
		rules: rulePairs(state.rules),
		lifted: rulePairs(state.lifted),
		commands: new Set(state.commands.map((c) => c.id)),
		errors: new Map(state.errors.map((e, i) => [e.id, i])),
		values,
		read: new Set(state.files.read),
		readStale: false,
		modified: new Set(state.files.modified),
		next: { ...state.next },
	};
}

/** Moves the counter past a carried id, so that the counter's next number is never an id given before. */
function countPast(index: Index, kind: Counted, carried: number): void {
	index.next[kind] = Math.max(index.next[kind], carried + 1);
}

/**
 * The id an entry gets (docs/contracts.md, Stored sessions and ids): the id its event carries, unless an entry of the
 * state already has it; else, and for an event stored without one, the counter's next number, as the fold always gave.
 * The counter moves past every id it sees, so its number is always free and no id is given twice: of two events
 * carrying the same id (two racing `longhaul_remember` calls, two forks), the first in fold order keeps it and the
 * later one takes the next number.
 */
function idFor(index: Index, kind: Counted, carried: string | undefined): string {
	const given = index.given[kind];
	if (carried !== undefined) {
		const carriedNumber = idNumber(carried);
		countPast(index, kind, carriedNumber);
		if (!given.has(carriedNumber)) {
			given.add(carriedNumber);
			return carried;
		}
	}
	const n = index.next[kind]++;
	given.add(n);
	return `${kind}${n}`;
}

/**
 * Gives the draft its own plain copy of each list for the batch. An immer draft array costs a proxy trap and a
 * finalize callback for every element pushed or read, which halved the fold's rate (docs/evaluation.md, The fold's
 * rate); a plain array the draft holds costs nothing per element, and immer takes it as the new
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
	if (state.modelFailures !== undefined) d.modelFailures = castDraft(state.modelFailures.slice());
	d.next = index.next;
}

// Case reducers: each mutates the draft and the index beside it, and returns nothing.

/** A rule already in force with the same source and words is not added twice (its id, if any, is still seen). */
function ruleAdded(d: Draft<State>, index: Index, { id, words, source }: EventData<"rule-added">): void {
	if (index.rules.has(source, words) || index.lifted.has(source, words)) {
		if (id !== undefined) countPast(index, "R", idNumber(id));
		return;
	}
	index.rules.add(source, words);
	const rule = { id: idFor(index, "R", id), text: words, source };
	index.rulePlaces?.add(rule);
	d.rules.push(rule);
}

/**
 * The rule a lift of `target` would take from `state`: the newest rule in force whose id or source is `target`, none
 * when no rule in force has that id or source. The reducer finds the same rule by its index (`RulePlaces`).
 */
export function ruleToLift(state: State, target: string): Rule | undefined {
	return state.rules[state.rules.findLastIndex((rule) => rule.id === target || rule.source === target)];
}

/** The rules list indexed for lifts (`RulePlaces`), made from the draft's list when first asked for. */
function rulePlaces(d: Draft<State>, index: Index): RulePlaces {
	index.rulePlaces ??= new RulePlaces(d.rules);
	return index.rulePlaces;
}

/** Lifts the newest rule in force whose id or source is `target`; it leaves the rules list when the list is settled. */
function ruleLifted(d: Draft<State>, index: Index, { target, by }: EventData<"rule-lifted">): void {
	const places = rulePlaces(d, index);
	const placed = places.newest(target);
	if (placed === undefined) {
		d.anomalies.push({ entry: by, reason: `lift of ${target}, which is not a rule in force` });
		return;
	}
	places.lift(placed);
	const { rule } = placed;
	index.rules.delete(rule.source, rule.text);
	index.lifted.add(rule.source, rule.text);
	d.lifted.push({ id: rule.id, text: rule.text, source: rule.source, by });
}

function decisionMade(d: Draft<State>, index: Index, { id, text, evidence }: EventData<"decision-made">): void {
	d.decisions.push({ id: idFor(index, "D", id), text, evidence });
}

function deadEndFound(d: Draft<State>, index: Index, { id, text, evidence }: EventData<"dead-end-found">): void {
	d.deadEnds.push({ id: idFor(index, "X", id), text, evidence });
}

function noteRemembered(d: Draft<State>, index: Index, { id, text }: EventData<"note-remembered">): void {
	d.notes.push({ id: idFor(index, "N", id), text });
}

function valueRecorded(d: Draft<State>, index: Index, value: EventData<"value-recorded">): void {
	if (index.values.added(value)) d.values.push(value);
}

/** A command id is recorded once: the first in fold order stands. */
function commandRecorded(d: Draft<State>, index: Index, command: EventData<"command-recorded">): void {
	if (index.commands.has(command.id)) return;
	index.commands.add(command.id);
	d.commands.push(command);
}

/** An error id is recorded once: the first in fold order stands. */
function errorRecorded(d: Draft<State>, index: Index, error: EventData<"error-recorded">): void {
	if (index.errors.has(error.id)) return;
	index.errors.set(error.id, d.errors.length);
	d.errors.push({ ...error, fixedBy: null });
}

/** The first fix stands; a fix of an error not in the ledger changes nothing. */
function errorFixed(d: Draft<State>, index: Index, fix: EventData<"error-fixed">): void {
	const at = index.errors.get(fix.error);
	const found = at === undefined ? undefined : d.errors[at];
	if (at !== undefined && found !== undefined && isOpen(found)) d.errors[at] = { ...found, fixedBy: fixerOf(fix) };
}

/** The list appears with its first failure, so a state without one keeps the keys it always had. */
function modelFailed(d: Draft<State>, failure: EventData<"model-failed">): void {
	if (d.modelFailures === undefined) d.modelFailures = [failure];
	else d.modelFailures.push(failure);
}

/** A modified file leaves the read list; a read file joins it only when it was never modified. */
function filesTouched(d: Draft<State>, index: Index, { read, modified }: EventData<"files-touched">): void {
	let moved = false;
	for (const path of modified) {
		if (index.modified.has(path)) continue;
		index.modified.add(path);
		d.files.modified.push(path);
		// Only the first modified path that was read leaves the read set: the fold has always done so, and stored
		// sessions fold byte for byte (docs/contracts.md, Stored sessions and ids) until an issue names the change.
		moved = moved || index.read.delete(path);
	}
	// The read set holds the read list's paths in the list's order, so the list is rebuilt from it (`readStale`).
	if (moved) index.readStale = true;
	for (const path of read) {
		if (index.modified.has(path) || index.read.has(path)) continue;
		index.read.add(path);
		d.files.read.push(path);
	}
}

function spanClosed(d: Draft<State>, close: EventData<"span-closed">): void {
	d.spans = Math.max(d.spans, close.span);
	d.closes.push(close);
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
			d.workLog.push(event.data);
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
		case "model-failed":
			modelFailed(d, event.data);
			return;
		case "files-touched":
			filesTouched(d, index, event.data);
			return;
		case "world-taken":
			d.world = event.data.world;
			return;
		case "span-closed":
			spanClosed(d, event.data);
			return;
		case "foreign-compaction-seen":
			d.foreign.push(event.data);
			return;
		case "anomaly":
			d.anomalies.push(event.data);
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
 * What a rule event must pass before it changes the rules (the fold's check, `ruleGate`): each gives the anomaly that
 * stands in a refused event's place, or nothing. `lifted` is asked only when a rule in force is there to take, and is
 * given that rule; a lift of nothing is the reducer's own anomaly.
 */
export interface RuleGate<S extends Sequenced> {
	readonly added: (at: S, data: EventData<"rule-added">) => Anomaly | undefined;
	readonly lifted: (at: S, data: EventData<"rule-lifted">, rule: Rule) => Anomaly | undefined;
}

/** The gate's anomaly for a rule event, recorded in the event's place; nothing for any other event or one that passes. */
function refused<S extends Sequenced>(d: Draft<State>, index: Index, gate: RuleGate<S>, at: S): boolean {
	const { event } = at;
	let anomaly: Anomaly | undefined;
	if (event.type === "rule-added") anomaly = gate.added(at, event.data);
	else if (event.type === "rule-lifted") {
		const rule = rulePlaces(d, index).newest(event.data.target)?.rule;
		anomaly = rule === undefined ? undefined : gate.lifted(at, event.data, rule);
	}
	if (anomaly !== undefined) d.anomalies.push(anomaly);
	return anomaly !== undefined;
}

const immer = new Immer({ autoFreeze: false });

/**
 * The state after `events`: pure, one `produce` for the whole batch. With a `gate`, a rule event it refuses leaves its
 * anomaly and changes no rule.
 */
export function evolve<S extends Sequenced>(state: State, events: readonly S[], gate?: RuleGate<S>): State {
	if (events.length === 0) return state;
	const index = indexOf(state);
	return immer.produce(state, (draft) => {
		detachLists(draft, state, index);
		// The highest sequence number is kept aside and set once: each read of the draft is a proxy trap.
		let lastSeq = state.lastSeq;
		for (const at of events) {
			if (gate === undefined || !refused(draft, index, gate, at)) apply(draft, index, at.event);
			if (at.seq !== null && at.seq > lastSeq) lastSeq = at.seq;
		}
		if (lastSeq !== state.lastSeq) draft.lastSeq = lastSeq;
		settleRules(draft, index);
		settleRead(draft, index);
	});
}

/** The rules list without the rules lifted since it was last settled. */
function settleRules(d: Draft<State>, index: Index): void {
	if (index.rulePlaces !== undefined) d.rules = index.rulePlaces.settle(d.rules);
}

/** The read list rebuilt from the read set, once a path has left it (`readStale`). */
function settleRead(d: Draft<State>, index: Index): void {
	if (!index.readStale) return;
	d.files.read = Array.from(index.read);
	index.readStale = false;
}

/**
 * A state that events not stored yet change one at a time, for a caller that reads the state after each: the
 * reducer's index is built once and kept, where `evolveUnstored` builds it again for each call. Applying events one by
 * one that way cost the state's size for each event: quadratic in the rules a long pasted message records.
 */
export interface Evolving {
	/**
	 * The state with every event applied so far: one object, changed in place by `apply`; the state given is not. Read
	 * its fields from it after each `apply`: a list held from before may have been replaced (the read list, `readStale`).
	 */
	readonly state: State;
	/** Applies one event not stored yet, as `evolveUnstored` applies it. */
	readonly apply: (event: Event) => void;
	/** A rule from the message `source` is in force or lifted, looked up without a scan of the rules. */
	readonly ruledFrom: (source: string) => boolean;
}

/**
 * `state`, evolving one event at a time (`Evolving`): the one reducer (`apply`) on a copy of the state, outside
 * `produce`. The case reducers already work on plain copies of the lists (`detachLists`), so a draft would add only
 * its proxy traps, and one `produce` cannot hand its state out between two events.
 */
export function evolving(state: State): Evolving {
	const index = indexOf(state);
	const d = castDraft({ ...state });
	detachLists(d, state, index);
	return {
		state: d,
		apply: (event) => {
			apply(d, index, event);
			settleRules(d, index);
			settleRead(d, index);
		},
		ruledFrom: (source) => index.rules.hasFirst(source) || index.lifted.hasFirst(source),
	};
}

/** The state after events not stored yet, so with no sequence number: what a pass decides on before it stores. */
export function evolveUnstored(state: State, events: readonly Event[]): State {
	return evolve(
		state,
		events.map((event) => ({ seq: null, event })),
	);
}

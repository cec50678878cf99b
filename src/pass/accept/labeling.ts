import type { Event, UserMessage, Withdrawing } from "../../events/index.js";
import { contentWords, idNumber, ownWords, readWithdrawal } from "../../events/index.js";
import { type Evolving, evolving, initialState, type Rule, type State } from "../../reducers/index.js";
import type { Defect, Dropped } from "../answer/index.js";
import type { Question } from "./questions.js";
import type { RecordedWords } from "./verify/rule-words.js";

// One application of an answer's labels, shared by the recording of rules (record-rules.ts) and the judging of
// lifts and questions (judge-lifts.ts): what the labels are judged against, the rules as decided so far, the outcome
// as it grows, and the readings of the user's words the lift check meets many times.

/** What an answer's labels are judged against, fixed while they are applied: `LabelContext`'s sets, none absent. */
export interface LabelGround {
	/** The last call: a lift the store cannot apply is dropped, not asked about. */
	readonly final: boolean;
	readonly branch: readonly UserMessage[];
	readonly standing: ReadonlySet<string>;
	readonly excerpted: ReadonlySet<string>;
	readonly reopened: ReadonlySet<string>;
	readonly unwrittenWhole: boolean;
	/** The ids of the rules in force before this answer, which the prompt showed; a rule it gives is named by its message. */
	readonly shown: ReadonlySet<string>;
}

/** A rule label that recorded its own message's words, kept to ask whether it replaces an earlier rule. */
export interface Recorded {
	readonly msg: UserMessage;
	readonly words: RecordedWords;
}

/** What the labels come to so far, in the order they were applied. */
export interface LabelsTally {
	readonly events: Event[];
	readonly defects: Defect[];
	readonly questions: Question[];
	readonly dropped: Dropped[];
	readonly labeled: string[];
	readonly labels: { msg: string; label: string }[];
	readonly replaced: string[];
	readonly recorded: Recorded[];
}

/** A message's own words and how they withdraw. */
export interface OwnReading {
	readonly text: string;
	readonly read: Withdrawing;
}

/** Each message's own words and each rule's content words, read once: the lift check meets them many times. */
export interface Readings {
	readonly own: Map<string, OwnReading>;
	readonly ruleWords: Map<string, ReadonlySet<string>>;
}

/** One application of the labels: its ground, the rules decided so far, its tally and its readings. */
export interface Labeling {
	readonly ground: LabelGround;
	/**
	 * The rules of the state (`rulesOf`), evolving as the reducer applies each event decided: the rules in force and
	 * lifted, and the ids of the rules this answer gives, are read from its state after each.
	 */
	readonly decided: Evolving;
	readonly tally: LabelsTally;
	readonly readings: Readings;
}

/**
 * The state's rules in force and lifted and its counters, and nothing else: all the reducer reads and writes for a
 * rule event. Applied one event at a time to the whole state, the labels took ten times as long on a state of 5,000
 * commands, as the reducer indexes every list the state holds for each batch.
 */
function rulesOf(state: State): State {
	return { ...initialState, rules: state.rules, lifted: state.lifted, next: state.next };
}

/** The labeling before the first label: the state's rules, nothing decided yet. */
export function startLabeling(ground: Omit<LabelGround, "shown">, state: State): Labeling {
	return {
		ground: { ...ground, shown: new Set(state.rules.map((rule) => rule.id)) },
		decided: evolving(rulesOf(state)),
		tally: { events: [], defects: [], questions: [], dropped: [], labeled: [], labels: [], replaced: [], recorded: [] },
		readings: { own: new Map(), ruleWords: new Map() },
	};
}

/** Decides an event: it joins the answer's events, and the reducer applies it to the rules decided so far. */
export function decide(labeling: Labeling, event: Event): void {
	labeling.tally.events.push(event);
	labeling.decided.apply(event);
}

/** The rule came from a message before `by`: only such a rule can `by` lift or replace. */
export const isEarlier = (rule: Rule, by: UserMessage): boolean => idNumber(rule.source) < idNumber(by.ref);

/** A message's own words, read once per message. */
export function ownReading(readings: Readings, msg: UserMessage): OwnReading {
	let found = readings.own.get(msg.ref);
	if (found === undefined) {
		const text = ownWords(msg.text);
		found = { text, read: readWithdrawal(text) };
		readings.own.set(msg.ref, found);
	}
	return found;
}

/** A rule's content words, read once per rule text. */
export function contentWordsOf(readings: Readings, ruleText: string): ReadonlySet<string> {
	let words = readings.ruleWords.get(ruleText);
	if (words === undefined) {
		words = contentWords(ruleText);
		readings.ruleWords.set(ruleText, words);
	}
	return words;
}

import { WITHDRAWAL_PHRASES } from "../../events/index.js";
import { is, isCount, isPast, isPlural } from "./words.js";

/*
 * The reader's named exceptions: senses in which a rule word lays down nothing, whatever binds it. Each row is
 * data: its name, how the clause then reads, an example it catches and one it lets through (the unit tests read
 * both), and the test. The reading itself (standing-rules.ts) asks who or what a rule word binds; these rows say
 * where that question is not the one to ask.
 */

/** A rule word in its clause, as the rows read it. */
export interface RuleWordAt {
	/** The rule word, "do" for "do not". */
	readonly word: string;
	/**
	 * The clause's words before the rule word, lead-ins left out, and after it (after "not" for "do not"): the nearest
	 * 16 on each side at most.
	 */
	readonly before: readonly string[];
	readonly after: readonly string[];
	/** Where a pattern is first found in the rule word's piece (between conjunctions that open a rule), -1 where none. */
	readonly search: (pattern: RegExp) => number;
	/** Where the rule word starts in its piece. */
	readonly offset: number;
}

/** How a clause reads when a row applies: it describes a thing, asks for something now, or withdraws. */
export type Reading = "describes" | "one-off" | "withdraws";

export interface Exception {
	readonly name: string;
	readonly reads: Reading;
	/** A message the row keeps from being read as a standing rule, and a like one it lets through. */
	readonly example: string;
	readonly unlike: string;
	readonly applies: (at: RuleWordAt) => boolean;
}

/**
 * A request for now ("yet", "for now", "this time", and the same sense in other words); after "even", "not just"
 * or "not only" it widens the rule instead ("never deploy on a Friday, not even this time").
 */
export const FOR_NOW =
	/(?<!\beven\s+|\bnot just\s+|\bnot only\s+)\b(?:yet(?!\s+(?:another|again|more|other)\b)|for now|this time|this once|for the moment|for the time being|right now|at the moment|for today|today(?!')|for this one)\b/g;

/** Withdrawals the lift check does not need but the reader does: "ignore what I said about …". */
const READER_WITHDRAWALS = [/\bignore what (?:i|we) said\b/, /\bdisregard\b/];

/** The first word after the rule word that is not "ever" or "even". */
const nextWord = (at: RuleWordAt): string => at.after.find((word) => word !== "ever" && word !== "even") ?? "";

export const EXCEPTIONS: readonly Exception[] = [
	{
		name: "a request for now in its piece",
		reads: "one-off",
		example: "don't push yet",
		unlike: "don't push to main",
		applies: (at) => at.search(FOR_NOW) >= 0,
	},
	{
		// One after it is what the rule is about: "never cancel a deploy", "never use obsolete APIs".
		name: "a withdrawal at or before the rule word",
		reads: "withdraws",
		example: "forget what I said about always using tabs",
		unlike: "always use tabs",
		applies: (at) =>
			[...WITHDRAWAL_PHRASES, ...READER_WITHDRAWALS].some((phrase) => {
				const start = at.search(phrase);
				return start >= 0 && start <= at.offset;
			}),
	},
	{
		name: "'don't worry', 'don't bother': no need to",
		reads: "withdraws",
		example: "don't worry about the lint warnings",
		unlike: "don't ignore the lint warnings",
		applies: (at) => at.word !== "never" && (at.after[0] === "worry" || at.after[0] === "bother"),
	},
	{
		name: "a count or a noun phrase after 'only': a fact",
		reads: "describes",
		example: "Only 3 tests fail now",
		unlike: "only run the fast tests",
		applies: (at) =>
			at.word === "only" && (isCount(nextWord(at)) || is("determiner", nextWord(at)) || isPlural(nextWord(at))),
	},
	{
		name: "a past form after the rule word: a report",
		reads: "describes",
		example: "Never seen this error before",
		unlike: "never use this error class",
		applies: (at) => (at.word === "never" || at.word === "always" || at.word === "only") && isPast(nextWord(at)),
	},
	{
		name: "a state of mind after 'don't': the speaker, not an instruction",
		reads: "describes",
		example: "Don't know why it fails",
		unlike: "don't touch why it fails",
		applies: (at) =>
			(at.word === "don't" || at.word === "do") && is("stateOfMind", at.after[0] ?? "") && at.after[1] !== "to",
	},
	{
		name: "a 'don't want' with no one wanting: the speaker's worry",
		reads: "describes",
		example: "are we all committed? don't want to lose anything",
		unlike: "I don't want new dependencies",
		applies: (at) => (at.word === "don't" || at.word === "do") && at.after[0] === "want" && at.before.length === 0,
	},
	{
		name: "'must' as a guess",
		reads: "describes",
		example: "it must be the cache",
		unlike: "it must be cached",
		applies: (at) => {
			const [next, then] = [at.after[0] ?? "", at.after[1] ?? ""];
			return (
				(at.word === "must" || at.word === "mustn't") &&
				((next === "have" && isPast(then)) || (next === "be" && is("guessed", then)))
			);
		},
	},
	{
		name: "'stop' that halts what runs now",
		reads: "one-off",
		example: "stop the dev server",
		unlike: "stop adding comments to every line",
		applies: (at) => at.word === "stop" && !/^[\p{L}-]+ing$/u.test(at.after[0] ?? ""),
	},
	{
		name: "a hedge or an idiom before the rule word",
		reads: "describes",
		example: "not only is it slow, it is wrong",
		unlike: "only ship what is not slow",
		applies: (at) => is("hedge", at.before.at(-1) ?? ""),
	},
	{
		name: "about the thing at hand",
		reads: "one-off",
		example: "don't run it, just read the log",
		unlike: "don't run the migrations by hand",
		// "don't forget it" is a rule: forgetting is no act on the thing.
		applies: (at) =>
			at.word !== "only" &&
			at.after.length === 2 &&
			at.after[0] !== "forget" &&
			(at.after[1] === "it" || at.after[1] === "them"),
	},
	{
		name: "an ellipsis: a subject and a rule word with nothing after",
		reads: "describes",
		example: "the docs say so, but we don't",
		unlike: "but we don't merge on red",
		// A closing "only" scopes what comes before it: "run the fast tests only".
		applies: (at) => at.word !== "only" && at.after.length === 0 && at.before.length > 0,
	},
];

/** The first row of `table` that applies to the rule word, or undefined. */
export function exceptionAt(at: RuleWordAt, table: readonly Exception[]): Exception | undefined {
	return table.find((row) => row.applies(at));
}

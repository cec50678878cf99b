import type { Region, UserMessage } from "../../events/index.js";
import { WITHDRAWAL_PHRASES } from "../../events/index.js";
import { EXCEPTIONS, type Exception, exceptionAt, FOR_NOW, type RuleWordAt } from "./exceptions.js";
import {
	firstSpoken,
	prose,
	proseOf,
	type ReadText,
	sentenceRegions,
	sentences,
	statement,
	type Token,
	tokenize,
	unrelayed,
	wordAt,
} from "./text.js";
import { is, isCount, isPlural, type WordClass } from "./words.js";

/*
 * The takeover's standing-rule reader (docs/how-it-works.md, Taking over from another compactor), read for its purpose:
 * a clause that instructs how work goes from now on is a standing rule; one that states a fact, complains, asks or
 * quotes describes a thing. A message it picks is recorded unless the model labels it `one-off`, and a message it
 * leaves out is still shown to the model and labeled. The reading asks one question of each rule word: who or what does
 * it bind? The agent told what to do (an imperative, "you must"), the team ("we never"), the user's will ("I don't
 * want"), or a norm on the work ("the tests must always pass") instruct; a thing ("the build never finishes"), the
 * agent described ("you never listen") or the user described ("I always forget") do not. Senses in which a rule word
 * lays down nothing whoever it binds ("only 3 tests", "never seen", "stop the server") are the named rows of
 * reader/exceptions.ts; the words each class holds are reader/words.ts. It is measured on a labeled corpus
 * (test/fixtures/reader-corpus, `npm run bench`).
 */

// ---------------------------------------------------------------------------------------------------------------
// Clauses and pieces
// ---------------------------------------------------------------------------------------------------------------

/** Commas, semicolons, colons, brackets, ellipses, and dashes set between spaces ("two-space" is a word). */
const CLAUSE_BREAK = /[,;:()[\]{}\u2026]|\s[-\u2013\u2014]+\s|[\u2013\u2014]/;

/** "from now on" and its kin: its three given forms, and the same sense in other words. */
const FROM_NOW_ON =
	/\b(?:from now on(?:wards?)?|from now onwards?|from here on(?: out)?|from this point (?:on|forward|onwards?)|going forward|henceforth)\b/;

/** Openings that make the clause an instruction whatever it is about ("make sure it never throws"). */
const DIRECTIVE = /^(?:ensure|remember|make sure|make certain|be sure|be careful|keep in mind)\b/;

/** A clause that is nothing but a request for now, which makes its whole sentence one ("for now, only run …"). */
function onlyForNow(clause: string): boolean {
	const rest = clause.replace(FOR_NOW, "");
	return rest !== clause && tokenize(rest).every((token) => is("scopeFiller", token.word));
}

/** The number of words the rule word at `index` spans: 2 for "do not", 1 for the others, 0 for none. */
function ruleLength(tokens: readonly Token[], index: number): number {
	const word = wordAt(tokens, index);
	if (word === "do" && wordAt(tokens, index + 1) === "not") return 2;
	return is("rule", word) ? 1 : 0;
}

/** A conjunction that opens a rule ("don't push yet and always run the tests") starts a piece of its own. */
function startsPiece(tokens: readonly Token[], index: number): boolean {
	if (!is("conjunction", wordAt(tokens, index))) return false;
	let at = index + 1;
	while (is("beforeRule", wordAt(tokens, at))) at++;
	return ruleLength(tokens, at) > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Clauses about a thing: "add an option that keeps only lines"
// ---------------------------------------------------------------------------------------------------------------

/** How many words a noun phrase may run between its determiner and its relative ("a --grep option that"). */
const NOUN_REACH = 4;

/** Words after which "that" opens what is said, known or wanted: "make sure that you never push". */
const TAKERS: readonly WordClass[] = ["complementTaker", "saying", "wanting", "you", "we", "self"];

/** The pronoun at `at` follows a noun phrase: a determiner within reach, no verb of saying or wanting between. */
function followsNounPhrase(tokens: readonly Token[], at: number): boolean {
	for (let back = at - 1; back >= at - NOUN_REACH; back--) {
		const word = wordAt(tokens, back);
		if (is("determiner", word)) return back < at - 1;
		if (TAKERS.some((cls) => is(cls, word)) || ruleLength(tokens, back) > 0) return false;
	}
	return false;
}

/**
 * For each token, the last token before it that opens a clause about a noun (a relative pronoun after a noun phrase),
 * or -1: found once for a clause, not again for each of its rule words.
 */
function relativesBefore(tokens: readonly Token[]): Int32Array {
	const out = new Int32Array(tokens.length);
	let last = -1;
	for (const [i, token] of tokens.entries()) {
		out[i] = last;
		if (is("relative", token.word) && followsNounPhrase(tokens, i)) last = i;
	}
	return out;
}

/**
 * The rule word at `index` stands in a clause about a noun ("a flag that keeps only lines", "a script that never
 * …", "the invariant that every line must …"), so it describes that noun whatever opens the sentence. "never",
 * "always" and "only" belong to such a clause to its end; a modal only when the clause has a subject of its own or
 * the modal comes right after the pronoun, since one further on is the main verb's ("every function that touches
 * the network must be mocked" is a norm).
 */
function inClauseAboutNoun(tokens: readonly Token[], index: number, relatives: Int32Array): boolean {
	const modal =
		is("deontic", wordAt(tokens, index)) || wordAt(tokens, index) === "don't" || wordAt(tokens, index) === "do";
	const at = relatives[index] ?? -1;
	if (at === -1) return false;
	if (!modal) return true;
	const next = wordAt(tokens, at + 1);
	if (is("thing", next) || is("we", next) || is("you", next) || is("self", next)) return true;
	return tokens.slice(at + 1, index).every((token) => is("passedOver", token.word));
}

// ---------------------------------------------------------------------------------------------------------------
// Who or what a rule word binds
// ---------------------------------------------------------------------------------------------------------------

/** A binder stands within this many words of its rule word; a longer run of passed-over words opens the clause. */
const REACH = 8;

/** "I" wants it: a verb of wanting after "I", before the rule word or just after it ("I never want …"). */
function wanted(tokens: readonly Token[], self: number, index: number): boolean {
	return tokens.slice(self + 1, index + 3).some((token) => is("wanting", token.word));
}

/** "you" asked for something: "I told you never to …", "i want you to stop …", "could you always …". */
function askedOf(tokens: readonly Token[], start: number, you: number): boolean {
	const before = wordAt(tokens, you - 1);
	return is("saying", before) || is("wanting", before) || (you - 1 === start && is("request", before));
}

/** The clause read from its opening word: a subject it opens with, or an imperative verb (a request, "could you …", too). */
function opensInstruction(tokens: readonly Token[], start: number, index: number): boolean {
	const first = wordAt(tokens, start);
	if (is("we", first)) return true;
	if (is("self", first)) return wanted(tokens, start, index);
	if (is("you", first)) return false;
	return !(is("thing", first) || isPlural(first) || isCount(first));
}

/**
 * The rule word at `index` instructs: it is (or follows) a modal of duty, or it opens its clause (an imperative),
 * or the nearest word before it that binds is the team, "you" asked for something, "I" wanting, "I" saying, or an
 * imperative's verb; a thing, "you" or "I" described, does not.
 */
function instructs(tokens: readonly Token[], start: number, index: number): boolean {
	let at = index - 1;
	let duty = is("deontic", wordAt(tokens, index));
	// Below `start` stand only lead-ins, no modal among them: passed over or not, the walk ends before `start`.
	while (index - at <= REACH && is("passedOver", wordAt(tokens, at))) {
		duty ||= is("deontic", wordAt(tokens, at));
		at--;
	}
	if (duty || at < start) return true;
	const word = wordAt(tokens, at);
	if (is("we", word)) return true;
	if (is("you", word)) return askedOf(tokens, start, at);
	if (is("self", word)) return wanted(tokens, at, index);
	if (is("saying", word)) return at === start || is("self", wordAt(tokens, at - 1));
	if (is("thing", word)) return false;
	return opensInstruction(tokens, start, index);
}

// ---------------------------------------------------------------------------------------------------------------
// Clauses with a rule
// ---------------------------------------------------------------------------------------------------------------

/**
 * The most words before and after a rule word the named exceptions are given: they read the nearest few, and whether
 * any stand there. All of them, copied for each rule word, made a clause of thousands of words quadratic.
 */
const WORDS_AROUND = 16;

/**
 * Where each pattern is first found in `text` (-1 where nowhere), each searched once however often asked: a piece's
 * rule words share its searches.
 */
function searcher(text: string): (pattern: RegExp) => number {
	const found = new Map<RegExp, number>();
	return (pattern) => {
		const known = found.get(pattern);
		if (known !== undefined) return known;
		const at = text.search(pattern);
		found.set(pattern, at);
		return at;
	};
}

/**
 * The rule word at `index`, in the piece that starts at `from` and is searched by `search`, as the named exceptions
 * read it.
 */
function ruleWordAt(
	tokens: readonly Token[],
	words: readonly string[],
	start: number,
	index: number,
	from: number,
	search: (pattern: RegExp) => number,
): RuleWordAt {
	const after = index + ruleLength(tokens, index);
	return {
		word: wordAt(tokens, index),
		before: words.slice(Math.max(start, index - WORDS_AROUND), index),
		after: words.slice(after, after + WORDS_AROUND),
		search,
		offset: (tokens[index]?.start ?? 0) - from,
	};
}

/** The pieces of a clause, as word ranges: split before each conjunction that opens a rule. */
function pieces(tokens: readonly Token[]): [number, number][] {
	const out: [number, number][] = [];
	let first = 0;
	for (let end = 1; end <= tokens.length; end++) {
		if (end < tokens.length && !startsPiece(tokens, end)) continue;
		out.push([first, end]);
		first = end;
	}
	return out;
}

/** A clause has a rule word that instructs, in no named exception's sense and in no clause about a noun. */
function clauseHasRule(clause: string, exceptions: readonly Exception[]): boolean {
	const tokens = tokenize(clause);
	const start = firstSpoken(tokens);
	const words = tokens.map((token) => token.word);
	const directive = DIRECTIVE.test(words.slice(start).join(" "));
	let relatives: Int32Array | undefined;
	for (const piece of pieces(tokens)) {
		const from = tokens[piece[0]]?.start ?? 0;
		const search = searcher(clause.slice(from, tokens[piece[1]]?.start ?? clause.length));
		for (let index = Math.max(piece[0], start); index < piece[1]; index++) {
			if (ruleLength(tokens, index) === 0) continue;
			if (exceptionAt(ruleWordAt(tokens, words, start, index, from, search), exceptions) !== undefined) continue;
			relatives ??= relativesBefore(tokens);
			if (inClauseAboutNoun(tokens, index, relatives)) continue;
			if (directive || instructs(tokens, start, index)) return true;
		}
	}
	return false;
}

/** A statement says "from now on" and withdraws nothing. */
function fromNowOn(statement: string): boolean {
	return FROM_NOW_ON.test(statement) && !WITHDRAWAL_PHRASES.some((phrase) => phrase.test(statement));
}

/** A letter or a digit: a sentence without one holds no word, so no rule word and no "from now on". */
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

function sentenceIsRule(sentence: string, exceptions: readonly Exception[]): boolean {
	if (!WORD_CHARACTER.test(sentence)) return false;
	const body = statement(sentence);
	if (body === undefined) return false;
	const own = unrelayed(body);
	if (fromNowOn(own)) return true;
	const clauses = own.split(CLAUSE_BREAK);
	return !clauses.some(onlyForNow) && clauses.some((clause) => clauseHasRule(clause, exceptions));
}

// ---------------------------------------------------------------------------------------------------------------
// The reader
// ---------------------------------------------------------------------------------------------------------------

/**
 * A message reads as a standing rule when a sentence of its own words, not a question, says "from now on" (or "from
 * here on", "going forward") and withdraws nothing, or has a clause with a rule word (never, always, don't, do not,
 * must, stop, only) that instructs how work goes from now on: not a request for now, withdrawing nothing, not
 * "never mind", and describing no thing (a fact, a complaint, a quote, what a thing being built does).
 * `exceptions` is the table of named exceptions; another is passed only by tests, to show what each row decides.
 */
export function readsAsStandingRule(text: string, exceptions: readonly Exception[] = EXCEPTIONS): boolean {
	return sentences(prose(text)).some((sentence) => sentenceIsRule(sentence, exceptions));
}

/** Where the prose region `region` stands in the message `read` was made from: first unit to last whole character. */
function inMessage(read: ReadText, message: string, region: Region): Region {
	const start = read.from[region.start] ?? region.start;
	const last = read.from[region.end - 1] ?? start;
	const point = message.codePointAt(last) ?? 0;
	return { start, end: last + (point > 0xffff ? 2 : 1) };
}

/**
 * Where the sentences the reader reads as rules stand in `text`, in order: each a run of the user's own characters
 * as they stand in the message (white space, quote marks and case untouched), from the sentence's first character
 * to its last. The reader judges a sentence by its own words; the run holds what it judged them in.
 */
export function ruleSentences(text: string, exceptions: readonly Exception[] = EXCEPTIONS): Region[] {
	const read = proseOf(text);
	return sentenceRegions(read.text)
		.filter((region) => sentenceIsRule(read.text.slice(region.start, region.end), exceptions))
		.map((region) => inMessage(read, text, region));
}

/** The earlier user messages that read as standing rules, in message order. */
export function standingRules(messages: readonly UserMessage[]): UserMessage[] {
	return messages.filter((message) => readsAsStandingRule(message.text));
}

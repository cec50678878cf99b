import type { UserMessage } from "../events/messages.js";
import { ownWords } from "./verify/own-words.js";
import { WITHDRAWAL_PHRASES } from "./verify/withdrawal.js";

/*
 * The takeover's standing-rule reader (seed, "Taking over from another compactor"). It is a heuristic: a message it
 * reads as a standing rule is recorded unless the model labels it `one-off`, and a message it leaves out is still
 * shown to the model and labeled, so it leans to catching a standing instruction over missing one, but never counts
 * a question. It reads no grammar; where a word could go either way the choice is named in a comment below.
 */

// ---------------------------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------------------------

/** A word of a clause and where it starts in the clause's text. */
interface Token {
	readonly word: string;
	readonly start: number;
}

/**
 * A word: letters and digits joined by `'`, `.`, `-` or `/` ("don't", "index.ts", "v1.2", "non-stop", "src/only"),
 * with a leading flag, path or sigil mark kept on it so "--only" and "/stop" are not rule words.
 */
const TOKEN = /[-/@#$~]*[\p{L}\p{N}_]+(?:['.\-/][\p{L}\p{N}_]+)*/gu;

function tokenize(text: string): Token[] {
	return [...text.matchAll(TOKEN)].map((match) => ({ word: match[0], start: match.index ?? 0 }));
}

function wordAt(tokens: readonly Token[], index: number): string {
	return tokens[index]?.word ?? "";
}

/** Lowercase, straight apostrophes, and "dont" / "mustnt" spelled as the rule words they are. */
function normalize(text: string): string {
	return text
		.toLowerCase()
		.replace(/[\u2018\u2019\u02bc\u2032]/g, "'")
		.replace(/\bdont\b/g, "don't")
		.replace(/\bmustnt\b/g, "mustn't");
}

/** The user's own words (`ownWords`), with inline code blanked too: a short code span is code, not the user's prose. */
function prose(text: string): string {
	return normalize(ownWords(text).replace(/`[^`\n]*`/g, (span) => " ".repeat(span.length)));
}

// ---------------------------------------------------------------------------------------------------------------
// Sentences
// ---------------------------------------------------------------------------------------------------------------

/**
 * A sentence ends at a line break, or at `.`, `!` or `?` (closing quotes and brackets after it) followed by white
 * space or the end, so "index.ts", "v1.2" and "example.com/?q=1" stay whole.
 */
const SENTENCE_END = /[.!?]+["'\u201d\u00bb)\]]*(?=\s|$)|\n/g;

/** Abbreviations whose closing period ends no sentence ("e.g. never …"). */
const ABBREVIATIONS = new Set(["e.g", "i.e", "eg", "ie", "cf", "vs", "viz", "approx", "incl", "esp", "aka", "a.k.a"]);

function abbreviationEndsAt(text: string, end: number): boolean {
	const word = /[\p{L}.]+$/u.exec(text.slice(Math.max(0, end - 8), end))?.[0] ?? "";
	return ABBREVIATIONS.has(word.replace(/^\.+/, ""));
}

function sentences(text: string): string[] {
	const out: string[] = [];
	let from = 0;
	for (const match of text.matchAll(SENTENCE_END)) {
		const at = match.index ?? 0;
		if (match[0] === "." && abbreviationEndsAt(text, at)) continue;
		out.push(text.slice(from, at + match[0].length));
		from = at + match[0].length;
	}
	out.push(text.slice(from));
	return out.map((sentence) => sentence.trim()).filter((sentence) => sentence !== "");
}

// ---------------------------------------------------------------------------------------------------------------
// Questions
// ---------------------------------------------------------------------------------------------------------------

/** A closing tag that asks for no answer but an acknowledgement: "never push to main, ok?". */
const CLOSING_TAG =
	/(?:^|[\s,;:\-\u2013\u2014]+)(?:(?:is that|are we) )?(?:ok|okay|k|alright|all right|got it|understood|clear|capisce|deal|agreed|sounds? good)[\s?!.]*$/;

/** Words that only lead into a sentence ("so", "ok", "please") and say nothing of its form. */
const LEAD_INS = new Set([
	"please",
	"pls",
	"plz",
	"and",
	"but",
	"or",
	"so",
	"then",
	"also",
	"just",
	"oh",
	"ok",
	"okay",
	"hey",
	"again",
	"really",
	"seriously",
	"yes",
	"yeah",
	"no",
	"nope",
	"well",
	"now",
	"btw",
	"ps",
	"nb",
	"hi",
	"hello",
	"hmm",
	"um",
	"uh",
	"kindly",
]);

/**
 * Auxiliaries that open a question when a subject follows ("should we", "do you", "is it"). "can", "could", "would"
 * and "will" are left out: "could you always run lint" without a question mark is a request, not a question.
 */
const QUESTION_AUX = new Set(
	(
		"should shall do does did is are was were am have has had must isn't aren't wasn't weren't doesn't didn't " +
		"shouldn't haven't hasn't"
	).split(" "),
);
const QUESTION_SUBJECT = new Set(
	"i we you they it he she this that there these those the a an our my your anyone someone everyone".split(" "),
);
const WH = new Set("why how what when where which who whom whose".split(" "));
const WH_FOLLOWER = new Set([...QUESTION_AUX, "can", "could", "would", "will", "don't", "can't", "won't", "not"]);

function firstSpoken(tokens: readonly Token[]): number {
	let index = 0;
	while (index < tokens.length && LEAD_INS.has(wordAt(tokens, index))) index++;
	return index;
}

/** Worded as a question even without its mark: an auxiliary then a subject, or a wh-word then an auxiliary. */
function questionForm(sentence: string): boolean {
	const tokens = tokenize(sentence);
	const first = firstSpoken(tokens);
	const [head, next] = [wordAt(tokens, first), wordAt(tokens, first + 1)];
	return (QUESTION_AUX.has(head) && QUESTION_SUBJECT.has(next)) || (WH.has(head) && WH_FOLLOWER.has(next));
}

/** The sentence as a statement to read, or undefined when it is a question; a closing "ok?" is taken off. */
function statement(sentence: string): string | undefined {
	const body = sentence.replace(/["'\u201d\u00bb)\]\s]+$/, "");
	if (!body.endsWith("?")) return questionForm(body) ? undefined : body;
	const tag = CLOSING_TAG.exec(body);
	if (tag === null) return undefined;
	const rest = body.slice(0, tag.index).trim();
	return rest.endsWith("?") || questionForm(rest) ? undefined : rest;
}

// ---------------------------------------------------------------------------------------------------------------
// Clauses: requests for now, withdrawals, "from now on"
// ---------------------------------------------------------------------------------------------------------------

/**
 * Commas, semicolons, colons, brackets, ellipses, dashes set between spaces ("two-space" is a word), and quote marks:
 * a short quote is the user's own words and a clause of its own, so `he said "never use tabs"` keeps its rule.
 */
const CLAUSE_BREAK = /[,;:()[\]{}"\u201c\u201d\u201e\u00ab\u00bb\u2026]|\s[-\u2013\u2014]+\s|[\u2013\u2014]/;

/** "from now on" and its kin: the seed's three, and the same sense in other words. */
const FROM_NOW_ON =
	/\b(?:from now on(?:wards?)?|from now onwards?|from here on(?: out)?|from this point (?:on|forward|onwards?)|going forward|henceforth)\b/;

/**
 * A request for now ("yet", "for now", "this time", and the same sense in other words); after "even", "not just"
 * or "not only" it widens the rule instead ("never deploy on a Friday, not even this time").
 */
const FOR_NOW =
	/(?<!\beven\s+|\bnot just\s+|\bnot only\s+)\b(?:yet(?!\s+(?:another|again|more|other)\b)|for now|this time|this once|for the moment|for the time being|right now|at the moment|for today|today(?!')|for this one)\b/g;

/** What may stand beside a request for now in a clause that only scopes its sentence ("for now, only run …"). */
const SCOPE_FILLERS = new Set("just only but and or please ok okay though at least not all so".split(" "));

/** A clause that is nothing but a request for now, which makes its whole sentence one. */
function onlyForNow(clause: string): boolean {
	const rest = clause.replace(FOR_NOW, " ");
	return rest !== clause && tokenize(rest).every((token) => SCOPE_FILLERS.has(token.word));
}

/**
 * Where the first withdrawal phrase of a stretch starts, or -1. A withdrawal at or before the rule word withdraws
 * ("never mind the lint step"); one after it is what the rule is about ("never cancel a deploy", "never use obsolete
 * APIs").
 */
function firstWithdrawal(text: string): number {
	const starts = WITHDRAWAL_PHRASES.map((phrase) => text.search(phrase)).filter((at) => at >= 0);
	return starts.length === 0 ? -1 : Math.min(...starts);
}

// ---------------------------------------------------------------------------------------------------------------
// Rule words and who they bind
// ---------------------------------------------------------------------------------------------------------------

/** The seed's rule words ("do not" is read from its two words); "mustn't" is "must". */
const RULE_WORDS = new Set(["never", "always", "don't", "must", "mustn't", "stop", "only"]);

/** The number of words the rule word at `index` spans: 2 for "do not", 1 for the others, 0 for none. */
function ruleLength(tokens: readonly Token[], index: number): number {
	const word = wordAt(tokens, index);
	if (word === "do" && wordAt(tokens, index + 1) === "not") return 2;
	return RULE_WORDS.has(word) ? 1 : 0;
}

/** Words right before a rule word that hedge it or make it an idiom: "as always", "not only", "if only", "almost never". */
const HEDGES = new Set("as almost nearly not if hardly practically virtually".split(" "));

/** After "must be", a guess, not a duty: "you must be right", "it must be the cache". */
const GUESSED = new Set(
	"right wrong joking kidding mistaken confused tired crazy it that the a an something some why because".split(" "),
);
const PAST_PARTICIPLE =
	/(?:ed|en|wn)$|^(?:been|done|gone|seen|got|had|made|run|forgot|left|put|read|set|lost|meant|said|sent|built|broke)$/;

/** "must" as a guess: "must have missed", "must've", "must be right". */
function guessingMust(next: string, after: string): boolean {
	return (
		next === "must've" || (next === "have" && PAST_PARTICIPLE.test(after)) || (next === "be" && GUESSED.has(after))
	);
}

/** After "stop", a one-off halt ("stop", "stop the server", "stop here"), not a habit to drop ("stop adding …"). */
const HALTS = new Set(
	(
		"it that this these those here there now the a an my your our his her their its please everything all " +
		"right and what me him them immediately asap"
	).split(" "),
);

/** After a person's "don't", a state of mind, not an instruction: "you don't know", "we don't need tests here". */
const STATES_OF_MIND = new Set("know think understand remember see get care mind believe need".split(" "));

/** The rule word is used in a sense that lays down nothing; "don't bother" is "no need to", a withdrawal. */
function idiom(tokens: readonly Token[], index: number, length: number): boolean {
	const word = wordAt(tokens, index);
	const next = wordAt(tokens, index + length);
	if (HEDGES.has(wordAt(tokens, index - 1))) return true;
	if (word === "must" || word === "mustn't") return guessingMust(next, wordAt(tokens, index + length + 1));
	if (word === "stop") return next === "" || HALTS.has(next);
	if (word === "don't" || word === "do") return next === "worry" || next === "bother";
	return false;
}

/** Who or what a rule word binds, read from the nearest word before it that names one. */
type Binder = "none" | "person" | "self" | "thing" | "other";

/**
 * The user, the agent or the team: "you must", "we always", "let's never", "our commits must" (a possessive of a
 * person counts, so "our servers only run Node 22" is caught and the model labels it).
 */
const PEOPLE = new Set(
	(
		"you you'll you've you're u ya y'all we we'll we've we're let's lets us everyone everybody nobody one " +
		"my our your"
	).split(" "),
);
const SELF = new Set(["i", "i'd", "i'll", "i'm", "i've"]);
/** What is being built or described: pronouns, articles, relatives ("an option that keeps only lines"). */
const THINGS = new Set(
	(
		"it it's its itself this that these those he she they them there there's what which who whom whose " +
		"something nothing anything everything the a an their his her some another that's they're he's she's " +
		"what's who's it'll that'll"
	).split(" "),
);
/** Verbs of saying: what follows them is said, as if the clause began there ("I said never push to main"). */
const SAYING = new Set("said say says told tell tells asked ask mean meant repeat insist".split(" "));
/** Words passed over between a rule word and the one that binds it: modals, adverbs, "to". */
const PASSED_OVER = new Set(
	(
		"should shall will would can could may might must need needs to have has also really still just absolutely " +
		"seriously please then definitely certainly truly ever kindly actually literally generally always never only " +
		"do does basically simply strictly totally all"
	).split(" "),
);
/** What "I" must want for a rule: "I never want …", "I don't want …", "I want the tests to always pass". */
const WANTING = new Set("want wanna need expect prefer like insist require".split(" "));
/** Openings that make the clause an instruction whatever it is about ("make sure it never throws"). */
const DIRECTIVE = /^(?:ensure|remember|make sure|make certain|be sure|be careful|keep in mind)\b/;
/**
 * Nouns of the project or the team's work: after "the" they make a policy, not a description ("the code must run on
 * Node 22", "the main branch must stay green"), where "the function must return -1" describes a thing being built.
 */
const POLICY_NOUNS = new Set(
	"code codebase repo repository project commits commit prs pr branch main master".split(" "),
);

function binderOf(word: string): Binder {
	if (PEOPLE.has(word)) return "person";
	if (SELF.has(word)) return "self";
	if (THINGS.has(word)) return "thing";
	return SAYING.has(word) ? "none" : "other";
}

/** A binder stands within this many words of its rule word; a longer run of passed-over words is read as a clause. */
const REACH = 8;

/** The nearest word before the rule word that is not passed over, and what it binds. */
function nearestBinder(tokens: readonly Token[], index: number): { binder: Binder; at: number } {
	for (let at = index - 1; at >= 0; at--) {
		if (index - at > REACH) return { binder: "other", at };
		if (!PASSED_OVER.has(wordAt(tokens, at))) return { binder: binderOf(wordAt(tokens, at)), at };
	}
	return { binder: "none", at: -1 };
}

/** "I" wants something, within reach: "I want …", "I'd really like …", "I don't want …". */
function wants(tokens: readonly Token[], from: number): boolean {
	let at = from;
	while (at - from < REACH && (PASSED_OVER.has(wordAt(tokens, at)) || wordAt(tokens, at) === "don't")) at++;
	return WANTING.has(wordAt(tokens, at));
}

/** The clause read from its opening word: an imperative or a bare plural binds a rule, a thing describes. */
function bindsFromStart(tokens: readonly Token[], nearest: number): boolean {
	const first = firstSpoken(tokens);
	const opening = wordAt(tokens, first);
	const binder = binderOf(opening);
	if (binder === "self") return wants(tokens, first + 1);
	if (binder === "thing") return POLICY_NOUNS.has(wordAt(tokens, nearest));
	return true;
}

/** The rule word binds the agent, the user or the team rather than describing a thing. */
function bindsSomeone(tokens: readonly Token[], index: number, length: number): boolean {
	const { binder, at } = nearestBinder(tokens, index);
	const next = wordAt(tokens, index + length);
	switch (binder) {
		case "none":
			return true;
		case "person":
			return !((wordAt(tokens, index) === "don't" || length === 2) && STATES_OF_MIND.has(next));
		case "self":
			return WANTING.has(next) || wants(tokens, at + 1);
		case "thing":
			return false;
		case "other":
			return bindsFromStart(tokens, at);
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Clauses with a rule
// ---------------------------------------------------------------------------------------------------------------

/** "and", "but", … before a rule word start a new piece, so "don't push yet and always run the tests" keeps a rule. */
const CONJUNCTIONS = new Set(["and", "but", "or", "so", "then", "plus"]);
const BEFORE_RULE = new Set(["also", "please", "then", "just", "you", "we", "definitely", "really", "i"]);

function startsPiece(tokens: readonly Token[], index: number): boolean {
	if (!CONJUNCTIONS.has(wordAt(tokens, index))) return false;
	let at = index + 1;
	while (BEFORE_RULE.has(wordAt(tokens, at))) at++;
	return ruleLength(tokens, at) > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Relative clauses: "add an option that keeps only lines"
// ---------------------------------------------------------------------------------------------------------------

/** Pronouns that open a relative clause about the noun before them. */
const RELATIVES = new Set(["that", "which", "who"]);
/** Words that open a noun phrase: a relative within reach after one describes that noun ("a flag that …"). */
const DETERMINERS = new Set(
	"a an the this these those every each any some no another our my your their its his her".split(" "),
);
/** How many words a noun phrase may run between its determiner and the relative ("a --grep option that"). */
const NOUN_REACH = 4;
/**
 * Words after which "that" opens what is said, known or wanted, not a clause about a thing: "make sure that you
 * never push", "I told you that …", "I want that never to happen".
 */
const COMPLEMENT_TAKERS = new Set(
	(
		"sure certain ensure remember note know think believe mean means understand agree agreed decided decide " +
		"given promise hope feel notice realize see check verify confirm assume expect require demand suggest " +
		"recommend request rule is was are be so such now except provided in wrote write"
	).split(" "),
);
/** A modal rule word belongs to a relative clause only right after its pronoun ("an option that must be set"). */
const MODALS = new Set(["must", "mustn't", "don't", "do"]);

function complementTaker(word: string): boolean {
	return COMPLEMENT_TAKERS.has(word) || SAYING.has(word) || WANTING.has(word) || PEOPLE.has(word) || SELF.has(word);
}

/** The relative at `at` follows a noun phrase: a determiner within reach, no verb of saying or wanting between. */
function followsNounPhrase(tokens: readonly Token[], at: number): boolean {
	for (let back = at - 1; back >= Math.max(0, at - NOUN_REACH); back--) {
		const word = wordAt(tokens, back);
		if (DETERMINERS.has(word)) return back < at - 1;
		if (complementTaker(word) || ruleLength(tokens, back) > 0) return false;
	}
	return false;
}

/**
 * The pronoun at `at` opens a relative clause whose subject is the thing before it ("an option that keeps …", "a
 * script that never …"); one followed by a subject ("that you never push") is what is said, or a clause about
 * someone, and the binders read it.
 */
function opensRelative(tokens: readonly Token[], at: number): boolean {
	const next = wordAt(tokens, at + 1);
	const subject = PEOPLE.has(next) || SELF.has(next) || THINGS.has(next) || DETERMINERS.has(next);
	return RELATIVES.has(wordAt(tokens, at)) && !subject && followsNounPhrase(tokens, at);
}

/**
 * The rule word at `index` stands in a relative clause about a thing, so it describes that thing whatever opens the
 * sentence ("add a flag that keeps only lines with errors"). "never", "always" and "only" belong to the clause up to
 * the end of the clause; a modal only right after the pronoun, since one further on is the main verb's ("every
 * function that touches the network must be mocked" is a policy).
 */
function inRelativeClause(tokens: readonly Token[], index: number): boolean {
	const modal = MODALS.has(wordAt(tokens, index));
	for (let at = index - 1; at >= 0; at--) {
		if (opensRelative(tokens, at)) return true;
		if (modal && !PASSED_OVER.has(wordAt(tokens, at))) return false;
	}
	return false;
}

/**
 * The rule word at `index` lays down a rule: not an idiom, not describing a thing in a relative clause, and binding
 * someone rather than describing a thing.
 */
function laysDown(tokens: readonly Token[], index: number, directive: boolean): boolean {
	const length = ruleLength(tokens, index);
	return (
		length > 0 &&
		!idiom(tokens, index, length) &&
		!inRelativeClause(tokens, index) &&
		(directive || bindsSomeone(tokens, index, length))
	);
}

/**
 * A stretch of the clause, words `first` to `end`, between conjunctions that open a rule, has a rule word that lays
 * down a rule: the stretch is no request for now and withdraws nothing at or before the rule word.
 */
function pieceHasRule(
	clause: string,
	tokens: readonly Token[],
	first: number,
	end: number,
	directive: boolean,
): boolean {
	const from = tokens[first]?.start ?? 0;
	const text = clause.slice(from, tokens[end]?.start ?? clause.length);
	if (text.search(FOR_NOW) >= 0) return false;
	const withdrawal = firstWithdrawal(text);
	for (let index = first; index < end; index++) {
		if (withdrawal >= 0 && from + withdrawal <= (tokens[index]?.start ?? 0)) return false;
		if (laysDown(tokens, index, directive)) return true;
	}
	return false;
}

function clauseHasRule(clause: string): boolean {
	const tokens = tokenize(clause);
	const spoken = tokens.slice(firstSpoken(tokens)).map((token) => token.word);
	const directive = DIRECTIVE.test(spoken.join(" "));
	let first = 0;
	for (let end = 1; end <= tokens.length; end++) {
		if (end < tokens.length && !startsPiece(tokens, end)) continue;
		if (pieceHasRule(clause, tokens, first, end, directive)) return true;
		first = end;
	}
	return false;
}

/** A statement says "from now on" and withdraws nothing. */
function fromNowOn(statement: string): boolean {
	return FROM_NOW_ON.test(statement) && !WITHDRAWAL_PHRASES.some((phrase) => phrase.test(statement));
}

function sentenceIsRule(sentence: string): boolean {
	const body = statement(sentence);
	if (body === undefined) return false;
	if (fromNowOn(body)) return true;
	const clauses = body.split(CLAUSE_BREAK);
	return !clauses.some(onlyForNow) && clauses.some(clauseHasRule);
}

// ---------------------------------------------------------------------------------------------------------------
// The reader
// ---------------------------------------------------------------------------------------------------------------

/**
 * A message reads as a standing rule when a sentence of its own words, not a question, says "from now on" (or "from
 * here on", "going forward") and withdraws nothing, or has a clause with a rule word (never, always, don't, do not,
 * must, stop, only) that is not a request for now, withdraws nothing, is not "never mind" and describes no thing.
 */
export function readsAsStandingRule(text: string): boolean {
	return sentences(prose(text)).some(sentenceIsRule);
}

/** The earlier user messages that read as standing rules, in message order. */
export function standingRules(messages: readonly UserMessage[]): UserMessage[] {
	return messages.filter((message) => readsAsStandingRule(message.text));
}

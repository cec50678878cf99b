import { ownWords, type Region, trimRegion } from "../../events/index.js";
import { is } from "./words.js";

/*
 * The text the reader reads: the user's own words, split into sentences, each a statement or a question; and the
 * words of a clause.
 */

/** A word of a clause and where it starts in the clause's text. */
export interface Token {
	readonly word: string;
	readonly start: number;
}

/**
 * A word: letters and digits joined by `'`, `.`, `-` or `/` ("don't", "index.ts", "v1.2", "non-stop", "src/only"),
 * with a leading flag, path or sigil mark kept on it so "--only" and "/stop" are not rule words.
 */
// Started only where no `-/@#$~` stands before: within a run of them a start fails as the run's own first does, and
// trying each of them made a run of a megabyte of `#` quadratic.
const TOKEN = /(?<![-/@#$~])[-/@#$~]*[\p{L}\p{N}_]+(?:['.\-/][\p{L}\p{N}_]+)*/gu;

/** The words of `text` in order. One `exec` loop: `matchAll` copies the pattern at each call, and a sentence is read a few times. */
export function tokenize(text: string): Token[] {
	const tokens: Token[] = [];
	TOKEN.lastIndex = 0;
	for (let match = TOKEN.exec(text); match !== null; match = TOKEN.exec(text)) {
		tokens.push({ word: match[0], start: match.index });
	}
	return tokens;
}

export function wordAt(tokens: readonly Token[], index: number): string {
	return tokens[index]?.word ?? "";
}

/** The index of the first word that is not a lead-in ("so", "ok", "please"). */
export function firstSpoken(tokens: readonly Token[], from = 0): number {
	let index = from;
	while (is("leadIn", wordAt(tokens, index))) index++;
	return index;
}

// ---------------------------------------------------------------------------------------------------------------
// Someone else's words
// ---------------------------------------------------------------------------------------------------------------

/** Where the next of `chars` (any one of them) stands at `from` or after, -1 where none does. */
type NextOf = (from: number) => number;

/**
 * `NextOf` for a text whose lookups go forward: a character's next place is looked up again only once `from` has
 * passed it, so each character is searched for across the text once in all, however many times it is asked.
 */
function nextOf(text: string, chars: string): NextOf {
	const found = [...chars].map((char) => {
		let at = -2;
		return (from: number): number => {
			if (at !== -1 && at < from) at = text.indexOf(char, from);
			return at;
		};
	});
	return (from) =>
		found.reduce((min, next) => {
			const at = next(from);
			return at >= 0 && (min < 0 || at < min) ? at : min;
		}, -1);
}

/**
 * `text` with each passage `opener`, then no closer or line break, then a closer, blanked, as
 * `/«[^»\n]*»/g` replaces them: from each opening mark the first closer or line break decides, and where a line break
 * comes first no opening mark before it can close, so the search goes on from the next line. The pattern read on to
 * the line's end from each opening mark never closed (`« a` repeated on one line was quadratic).
 */
function blankPaired(text: string, opener: string, closers: string): string {
	const nextOpener = nextOf(text, opener);
	const nextCloser = nextOf(text, closers);
	const nextBreak = nextOf(text, "\n");
	let out = "";
	let kept = 0;
	for (let at = nextOpener(0); at >= 0; ) {
		const close = nextCloser(at + 1);
		const lineEnd = nextBreak(at + 1);
		if (close >= 0 && (lineEnd < 0 || close < lineEnd)) {
			out += text.slice(kept, at) + " ".repeat(close + 1 - at);
			kept = close + 1;
			at = nextOpener(kept);
		} else at = lineEnd < 0 ? -1 : nextOpener(lineEnd + 1);
	}
	return out + text.slice(kept);
}

const spaces = (text: string): string => text.replace(/[^\n]/g, " ");

/**
 * Quoted passages of any length, in this order: straight double quotes, German quotes, curly double quotes,
 * guillemets both ways, single quotes that open after no letter and close before none (so "don't" is no quote), and
 * inline code, each within a line. `ownWords` has already left out those of six words or more; a shorter one is
 * someone's words too ("git says 'fatal: you must …'"). A pattern whose closing mark is its opening one reads from
 * each mark no further than the next, so reads each line once; the others are paired by `blankPaired`.
 */
const QUOTED: readonly ((text: string) => string)[] = [
	(text) => text.replace(/"[^"\n]*"/g, spaces),
	(text) => blankPaired(text, "\u201e", "\u201c\u201d"),
	(text) => blankPaired(text, "\u201c", "\u201d"),
	(text) => blankPaired(text, "\u00ab", "\u00bb"),
	(text) => blankPaired(text, "\u00bb", "\u00ab"),
	(text) => text.replace(/(?<![\p{L}\p{N}])'[^'\n]+'(?![\p{L}\p{N}])/gu, spaces),
	(text) => text.replace(/`[^`\n]*`/g, spaces),
];

/** Lines of pasted tool output: an error or warning line, a stack frame, a shell prompt. */
const OUTPUT_LINE =
	/^[ \t]*(?:(?:fatal|error|warning|warn|hint|panic|[\w.]*error|[\w.]*exception)(?:\[[^\]\n]*\])?:|npm (?:err!|warn)\b|[\w-]+: (?:error|warning)\b|fail\s+\S|at \S[^\n]*\)[ \t]*$|\$ )[^\n]*/gm;

/** A text the reader reads, made from a message: `from[i]` is the offset in the message that `text[i]` came from. */
export interface ReadText {
	readonly text: string;
	readonly from: Int32Array;
}

/** Lowercase, with straight apostrophes. */
function lowered(text: string): string {
	return text.toLowerCase().replace(/[\u2018\u2019\u02bc\u2032]/g, "'");
}

/** Lowercase, straight apostrophes, and "dont" / "mustnt" spelled as the rule words they are. */
function normalize(text: string): string {
	return lowered(text)
		.replace(/\bdont\b/g, "don't")
		.replace(/\bmustnt\b/g, "mustn't");
}

/** 1 + the length of a UTF-16 unit lowercased, learned as units are met; 0 where not yet known. */
const LOWERED_LENGTH = new Uint8Array(0x10000);

/** How many units the character at `at`, `width` units wide, takes lowercased: lowercasing may lengthen one ("İ"). */
function loweredLength(text: string, at: number, width: number): number {
	const unit = text.charCodeAt(at);
	if (unit < 0x80) return 1;
	if (width === 2) return text.slice(at, at + 2).toLowerCase().length;
	if (LOWERED_LENGTH[unit] === 0) LOWERED_LENGTH[unit] = 1 + String.fromCharCode(unit).toLowerCase().length;
	return (LOWERED_LENGTH[unit] ?? 1) - 1;
}

/** 2 where a surrogate pair starts at `at`, else 1: the units of one character. */
function widthAt(text: string, at: number): number {
	const unit = text.charCodeAt(at);
	if (unit < 0xd800 || unit > 0xdbff) return 1;
	const next = text.charCodeAt(at + 1);
	return next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

/** Where each unit of `text` lowercased (`units` long) came from: the offset of its character in `text`. */
function lowercaseOffsets(text: string, units: number): Int32Array {
	const from = new Int32Array(units);
	let written = 0;
	for (let at = 0; at < text.length; ) {
		const width = widthAt(text, at);
		const length = loweredLength(text, at, width);
		from.fill(at, written, written + length);
		written += length;
		at += width;
	}
	return from;
}

/** Where each unit of `normalize(text)` came from; an apostrophe it adds, from the "t" it stands before. */
function normalizedOffsets(text: string): Int32Array {
	const low = lowered(text);
	const from = lowercaseOffsets(text, low.length);
	const added = [...low.matchAll(/\bdont\b|\bmustnt\b/g)].map((match) => match.index + match[0].length - 1);
	if (added.length === 0) return from;
	const out = new Int32Array(from.length + added.length);
	let written = 0;
	let done = 0;
	for (const t of added) {
		out.set(from.subarray(done, t + 1), written);
		written += t + 1 - done;
		done = t;
	}
	out.set(from.subarray(done), written);
	return out;
}

/** Blanks every quoted passage and pasted output line, keeping every offset. */
function blankQuoted(text: string): string {
	let out = text;
	for (const blankQuotes of QUOTED) out = blankQuotes(out);
	return out.replace(OUTPUT_LINE, spaces);
}

/** The user's own words (`ownWords`), lowercased, with every quoted passage and pasted output line blanked. */
export function prose(text: string): string {
	return blankQuoted(normalize(ownWords(text)));
}

/** `prose`, with where each of its units came from in the message. */
export function proseOf(text: string): ReadText {
	const own = ownWords(text);
	return { text: blankQuoted(normalize(own)), from: normalizedOffsets(own) };
}

/**
 * A sentence without what it relays: after someone else's verb of saying ("git says", "the README says") or of
 * printing and a colon ("npm prints:") the rest is their words, left out; after the user's own ("I said", "I told
 * you") or a relative's ("a flag that prints errors") it stays.
 */
export function unrelayed(sentence: string): string {
	const tokens = tokenize(sentence);
	const at = tokens.findIndex((token, index) => {
		const subject = wordAt(tokens, index - 1);
		if (index === 0 || is("self", subject) || is("relative", subject)) return false;
		const colon = sentence.slice(token.start + token.word.length).startsWith(":");
		return is("reporting", token.word) || (is("printing", token.word) && colon);
	});
	const token = tokens[at];
	if (token === undefined) return sentence;
	const end = token.start + token.word.length;
	return sentence.slice(0, end);
}

// ---------------------------------------------------------------------------------------------------------------
// Sentences and questions
// ---------------------------------------------------------------------------------------------------------------

/**
 * A sentence ends at a line break, or at `.`, `!` or `?` (closing quotes and brackets after it) followed by white
 * space or the end, so "index.ts", "v1.2" and "example.com/?q=1" stay whole. A run of marks is read from its first
 * (as TOKEN's prefix run is).
 */
const SENTENCE_END = /(?<![.!?])[.!?]+["'\u201d\u00bb)\]]*(?=\s|$)|\n/g;

/** Abbreviations whose closing period ends no sentence ("e.g. never …"). */
const ABBREVIATIONS = new Set(["e.g", "i.e", "eg", "ie", "cf", "vs", "viz", "approx", "incl", "esp", "aka", "a.k.a"]);

function abbreviationEndsAt(text: string, end: number): boolean {
	const word = /[\p{L}.]+$/u.exec(text.slice(Math.max(0, end - 8), end))?.[0] ?? "";
	return ABBREVIATIONS.has(word.replace(/^\.+/, ""));
}

/** Where the sentences of `text` stand in it, each without the white space at its ends (a blank one is empty). */
export function sentenceRegions(text: string): Region[] {
	const out: Region[] = [];
	let from = 0;
	for (const match of text.matchAll(SENTENCE_END)) {
		const at = match.index ?? 0;
		if (match[0] === "." && abbreviationEndsAt(text, at)) continue;
		out.push(trimRegion(text, { start: from, end: at + match[0].length }));
		from = at + match[0].length;
	}
	out.push(trimRegion(text, { start: from, end: text.length }));
	return out;
}

export function sentences(text: string): string[] {
	return sentenceRegions(text).map((region) => text.slice(region.start, region.end));
}

/** A closing tag that asks for no answer but an acknowledgement: "never push to main, ok?". */
const CLOSING_TAG =
	/(?:^|(?<![\s,;:\-\u2013\u2014])[\s,;:\-\u2013\u2014]+)(?:(?:is that|are we) )?(?:ok|okay|k|alright|all right|got it|understood|clear|capisce|deal|agreed|sounds? good)[\s?!.]*$/;

/** Worded as a question even without its mark: an auxiliary then a subject, or a wh-word then an auxiliary. */
function questionForm(sentence: string): boolean {
	const tokens = tokenize(sentence);
	const first = firstSpoken(tokens);
	const [head, next] = [wordAt(tokens, first), wordAt(tokens, first + 1)];
	return (is("questionAux", head) && is("questionSubject", next)) || (is("wh", head) && is("whFollower", next));
}

/** What closes a sentence after its words: quote marks, brackets, white space. */
const CLOSER = /["'\u201d\u00bb)\]\s]/;

/**
 * `sentence` without the closers at its end, read back one by one: a pattern anchored at the end is tried from every
 * place, and a long run of blanks inside the sentence made it quadratic.
 */
function withoutClosers(sentence: string): string {
	let end = sentence.length;
	while (end > 0 && CLOSER.test(sentence.charAt(end - 1))) end--;
	return sentence.slice(0, end);
}

/** The sentence as a statement to read, or undefined when it is a question; a closing "ok?" is taken off. */
export function statement(sentence: string): string | undefined {
	const body = withoutClosers(sentence);
	if (!body.endsWith("?")) return questionForm(body) ? undefined : body;
	const tag = CLOSING_TAG.exec(body);
	if (tag === null) return undefined;
	const rest = body.slice(0, tag.index);
	return rest.endsWith("?") || questionForm(rest) ? undefined : rest;
}

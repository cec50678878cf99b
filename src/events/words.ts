import type { Region } from "./user-text.js";

const WORD_CHAR = /^[\p{L}\p{N}\p{M}_]$/u;

/** The character (a whole code point) that ends just before `offset`, or "" at the start. */
function charBefore(text: string, offset: number): string {
	if (offset <= 0) return "";
	const low = text.charCodeAt(offset - 1);
	const pair = offset >= 2 && low >= 0xdc00 && low <= 0xdfff;
	return text.slice(pair ? offset - 2 : offset - 1, offset);
}

/** The character (a whole code point) that starts at `offset`, or "" at the end. */
function charAt(text: string, offset: number): string {
	const point = text.codePointAt(offset);
	return point === undefined ? "" : String.fromCodePoint(point);
}

function isWordChar(char: string): boolean {
	return WORD_CHAR.test(char);
}

/** False when the stretch starts or ends inside a word ("ever use" cut from "never use"). */
export function onWordBoundaries(text: string, region: Region): boolean {
	if (region.end <= region.start) return false;
	const startsInside = isWordChar(charBefore(text, region.start)) && isWordChar(charAt(text, region.start));
	const endsInside = isWordChar(charBefore(text, region.end)) && isWordChar(charAt(text, region.end));
	return !startsInside && !endsInside;
}

/** Every place `needle` stands verbatim in `text` inside `within`, oldest first. */
export function occurrences(text: string, needle: string, within: Region): Region[] {
	const found: Region[] = [];
	if (needle === "") return found;
	let at = text.indexOf(needle, within.start);
	while (at >= 0 && at + needle.length <= within.end) {
		found.push({ start: at, end: at + needle.length });
		at = text.indexOf(needle, at + 1);
	}
	return found;
}

/** Quote marks a model may write in place of the user's: straight, curly, low and guillemets. */
const QUOTE_MARK = /["'`\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a]/u;
const WHITESPACE = /\s/u;

/** A text read loosely: each run of whitespace one space, each quote mark one `"`; with the original offsets. */
interface Loose {
	readonly text: string;
	/** For each character of `text`, where it starts and ends in the original. */
	readonly starts: readonly number[];
	readonly ends: readonly number[];
}

function loose(text: string, within: Region): Loose {
	let out = "";
	const starts: number[] = [];
	const ends: number[] = [];
	let inRun = false;
	for (let i = within.start; i < within.end; i++) {
		const char = text.charAt(i);
		const space = WHITESPACE.test(char);
		if (space && inRun) {
			ends[ends.length - 1] = i + 1;
			continue;
		}
		inRun = space;
		out += space ? " " : QUOTE_MARK.test(char) ? '"' : char;
		starts.push(i);
		ends.push(i + 1);
	}
	return { text: out, starts, ends };
}

/** Where a loosely read needle stands in a loosely read text, as regions of the text's own characters. */
function searchLoose(hay: Loose, needle: string): Region[] {
	const pin = loose(needle, { start: 0, end: needle.length }).text;
	const found: Region[] = [];
	if (pin === "") return found;
	let at = hay.text.indexOf(pin);
	while (at >= 0) {
		const start = hay.starts[at];
		const end = hay.ends[at + pin.length - 1];
		if (start !== undefined && end !== undefined) found.push({ start, end });
		at = hay.text.indexOf(pin, at + 1);
	}
	return found;
}

/**
 * Every place `needle` stands in `text` inside `within`, oldest first, where a run of whitespace matches any other
 * run and a quote mark any other quote mark: the regions are the user's own characters, whatever the needle wrote.
 */
export function looseOccurrences(text: string, needle: string, within: Region): Region[] {
	return searchLoose(loose(text, within), needle);
}

/**
 * `looseOccurrences` over the whole of `text`, read loosely once for every needle searched: the fold checks each
 * stored rule against its message, and a message read again per rule would cost its length each time.
 */
export function looseSearch(text: string): (needle: string) => Region[] {
	const hay = loose(text, { start: 0, end: text.length });
	return (needle) => searchLoose(hay, needle);
}

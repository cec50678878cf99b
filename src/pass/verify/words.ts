/** A stretch of a text, `start` inclusive, `end` exclusive, in UTF-16 offsets. */
export interface Region {
	readonly start: number;
	readonly end: number;
}

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

/** The region with the whitespace at both ends left out. */
export function trimRegion(text: string, region: Region): Region {
	let { start, end } = region;
	while (start < end && /\s/.test(text[start] ?? "")) start++;
	while (end > start && /\s/.test(text[end - 1] ?? "")) end--;
	return { start, end };
}

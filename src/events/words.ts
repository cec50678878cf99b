import { leastFitting } from "./least-fitting.js";
import { suffixArray } from "./suffix-array.js";
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

/**
 * For each prefix of `needle`, the length of the longest prefix of it that is also its suffix and shorter than it
 * (Knuth-Morris-Pratt's table).
 */
function bordersOf(needle: string): Int32Array {
	const borders = new Int32Array(needle.length);
	let k = 0;
	for (let i = 1; i < needle.length; i++) {
		const char = needle.charCodeAt(i);
		while (k > 0 && needle.charCodeAt(k) !== char) k = borders[k - 1] ?? 0;
		if (needle.charCodeAt(k) === char) k++;
		borders[i] = k;
	}
	return borders;
}

/**
 * Every offset in `hay` where `needle` starts, overlapping ones too, oldest first, in time linear in both.
 *
 * Searching again from each match plus one reads the needle once a match, and a periodic text ("aaaa…" searched for
 * "aaa…") matches at every offset: a text's length times the needle's. So `indexOf` finds a match, and from its end
 * Knuth-Morris-Pratt reads on, a character at a time, for as long as a prefix of the needle is open; with none open
 * no match starts before where it stands, and `indexOf` takes over again.
 */
function startsIn(hay: string, needle: string): number[] {
	const found: number[] = [];
	if (needle === "" || hay.length < needle.length) return found;
	const borders = bordersOf(needle);
	const whole = borders[needle.length - 1] ?? 0;
	let i = 0;
	for (;;) {
		const at = hay.indexOf(needle, i);
		if (at < 0) return found;
		found.push(at);
		let open = whole;
		for (i = at + needle.length; open > 0 && i < hay.length; i++) {
			const char = hay.charCodeAt(i);
			while (open > 0 && needle.charCodeAt(open) !== char) open = borders[open - 1] ?? 0;
			if (needle.charCodeAt(open) === char) open++;
			if (open === needle.length) {
				found.push(i + 1 - open);
				open = whole;
			}
		}
	}
}

/** Every place `needle` stands verbatim in `text` inside `within`, oldest first. */
export function occurrences(text: string, needle: string, within: Region): Region[] {
	const start = Math.max(0, within.start);
	return startsIn(text.slice(start, Math.max(start, within.end)), needle).map((at) => ({
		start: start + at,
		end: start + at + needle.length,
	}));
}

/** Quote marks a model may write in place of the user's: straight, curly, low and guillemets. */
const QUOTE_MARK = /["'`\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a]/u;
const WHITESPACE = /\s/u;

/** A text read loosely: each run of whitespace one space, each quote mark one `"`; with the original offsets. */
interface Loose {
	readonly text: string;
	/** For each character of `text`, where it starts and ends in the original. */
	readonly starts: Int32Array;
	readonly ends: Int32Array;
}

const OWN = 0;
const BLANK = 1;
const QUOTE = 2;

/** What a loose reading makes of a code unit: itself, a blank (a run of them one space) or a quote mark (`"`). */
function looseKind(code: number): typeof OWN | typeof BLANK | typeof QUOTE {
	if (code < 128)
		return code === 32 || (code >= 9 && code <= 13) ? BLANK : code === 34 || code === 39 || code === 96 ? QUOTE : OWN;
	const char = String.fromCharCode(code);
	return WHITESPACE.test(char) ? BLANK : QUOTE_MARK.test(char) ? QUOTE : OWN;
}

/** How many code units `String.fromCharCode` is handed at once. */
const CODES_AT_ONCE = 8192;

/** `text` inside `within` read loosely, its code units decided one by one (a pattern per character cost 5x as much). */
function loose(text: string, within: Region): Loose {
	const start = Math.max(0, within.start);
	const end = Math.min(within.end, text.length);
	const size = Math.max(0, end - start);
	const codes = new Uint16Array(size);
	const starts = new Int32Array(size);
	const ends = new Int32Array(size);
	let length = 0;
	let inRun = false;
	for (let i = start; i < end; i++) {
		const code = text.charCodeAt(i);
		const kind = looseKind(code);
		if (kind === BLANK && inRun) {
			ends[length - 1] = i + 1;
			continue;
		}
		inRun = kind === BLANK;
		codes[length] = kind === BLANK ? 32 : kind === QUOTE ? 34 : code;
		starts[length] = i;
		ends[length] = i + 1;
		length++;
	}
	let out = "";
	for (let i = 0; i < length; i += CODES_AT_ONCE)
		out += String.fromCharCode(...codes.subarray(i, Math.min(length, i + CODES_AT_ONCE)));
	return { text: out, starts: starts.subarray(0, length), ends: ends.subarray(0, length) };
}

/**
 * The stretches of `needle` a loose reading leaves as they are (no blank, no quote mark), longest first, each once: a
 * text that holds the needle loosely holds each of them verbatim, so a few `indexOf`s can pass over a text the loose
 * search would find nothing in.
 */
export function looseAnchors(needle: string): string[] {
	const stretches = new Set<string>();
	let start = 0;
	for (let i = 0; i <= needle.length; i++) {
		if (i < needle.length && looseKind(needle.charCodeAt(i)) === OWN) continue;
		if (i > start) stretches.add(needle.slice(start, i));
		start = i + 1;
	}
	return [...stretches].sort((x, y) => y.length - x.length);
}

/** Where a loosely read needle stands in a loosely read text, as regions of the text's own characters. */
function searchLoose(hay: Loose, pin: string): Region[] {
	return startsIn(hay.text, pin).flatMap((at) => {
		const start = hay.starts[at];
		const end = hay.ends[at + pin.length - 1];
		return start === undefined || end === undefined ? [] : [{ start, end }];
	});
}

/** `needle` read loosely: each run of whitespace one space, each quote mark one `"`. */
function loosely(needle: string): string {
	return loose(needle, { start: 0, end: needle.length }).text;
}

/**
 * Where `needle` stands in a text inside a stretch, oldest first, where a run of whitespace matches any other run and a
 * quote mark any other quote mark: the regions are the user's own characters, whatever the needle wrote. The needle is
 * read loosely once, for every stretch searched: a message's quotable text comes in as many stretches as it quotes.
 */
export function looseFinder(needle: string): (text: string, within: Region) => Region[] {
	const pin = loosely(needle);
	return (text, within) => (within.end - within.start < pin.length ? [] : searchLoose(loose(text, within), pin));
}

/**
 * `looseFinder` over the whole of `text`, read loosely once for every needle searched: each needle costs a search of
 * the text (`looseIndex` answers many needles for less, once made).
 */
export function looseSearch(text: string): (needle: string) => Region[] {
	const hay = loose(text, { start: 0, end: text.length });
	return (needle) => searchLoose(hay, loosely(needle));
}

/**
 * Whether `needle` stands loosely (as `looseFinder` finds it) inside one of `regions` of `text` (in order, none
 * overlapping), for as many needles as asked: the fold checks each stored rule against its message, and a search of
 * the message per rule cost its length times its rules. Made once, in time the text's length times its log: the text
 * read loosely, its suffixes ordered (`suffixArray`), and for each place the longest match from there that stays in
 * a region, the most over any run of places in that order kept in a tree of maxima. A needle then costs its length
 * times the text's log: the run of suffixes it begins is found by binary search, and the tree says whether one of
 * them has room for it.
 */
export function looseIndex(text: string, regions: readonly Region[]): (needle: string) => boolean {
	const hay = loose(text, { start: 0, end: text.length });
	const order = suffixArray(hay.text);
	const rooms = roomsIn(hay, regions);
	const n = order.length;
	const most = new Int32Array(2 * n);
	for (let k = 0; k < n; k++) most[n + k] = rooms[order[k] ?? 0] ?? 0;
	for (let k = n - 1; k > 0; k--) most[k] = Math.max(most[2 * k] ?? 0, most[2 * k + 1] ?? 0);
	/** How the suffix at `at` compares with `pin` over the pin's length: a suffix shorter than the pin is less. */
	const compared = (at: number, pin: string): number => {
		for (let j = 0; j < pin.length; j++) {
			if (at + j >= n) return -1;
			const d = hay.text.charCodeAt(at + j) - pin.charCodeAt(j);
			if (d !== 0) return d;
		}
		return 0;
	};
	/** The first place in suffix order whose suffix is not below the pin (`past`: not below nor beginning with it). */
	const firstFrom = (pin: string, past: boolean): number =>
		leastFitting(n, (k) => {
			const d = compared(order[k] ?? 0, pin);
			return d > 0 || (!past && d === 0);
		});
	return (needle) => {
		const pin = loosely(needle);
		if (pin === "" || pin.length > n) return false;
		let lo = firstFrom(pin, false) + n;
		let hi = firstFrom(pin, true) + n;
		let room = 0;
		for (; lo < hi; lo >>>= 1, hi >>>= 1) {
			if (lo & 1) room = Math.max(room, most[lo++] ?? 0);
			if (hi & 1) room = Math.max(room, most[--hi] ?? 0);
		}
		return room >= pin.length;
	};
}

/**
 * For each place of a loosely read text, how many of its characters from there stand inside the region (in order,
 * none overlapping) that holds the place's start: its match ends inside it (0 where no region holds it).
 */
function roomsIn(hay: Loose, regions: readonly Region[]): Int32Array {
	const rooms = new Int32Array(hay.text.length);
	let r = 0;
	let last = -1;
	for (let at = 0; at < rooms.length; at++) {
		const start = hay.starts[at] ?? 0;
		while (r < regions.length && (regions[r]?.end ?? 0) <= start) r++;
		const region = regions[r];
		if (region === undefined) break;
		if (start < region.start) continue;
		while (last + 1 < rooms.length && (hay.ends[last + 1] ?? 0) <= region.end) last++;
		rooms[at] = Math.max(0, last - at + 1);
	}
	return rooms;
}

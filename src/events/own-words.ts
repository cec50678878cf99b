import { type Region, userText } from "./user-text.js";

/** A quoted passage of this many words or more is someone else's text, not the user's own words. Exported for tests. */
export const QUOTED_WORDS = 6;

/**
 * Pairs of quote marks: straight, German (closing with either curly mark; read before curly quotes, whose opening
 * mark is the German closing one), curly, guillemets both ways, inline code.
 */
const QUOTES: readonly { readonly pattern: RegExp; readonly closers: string }[] = [
	{ pattern: /"([^"]*)"/g, closers: '"' },
	{ pattern: /\u201e([^\u201c\u201d]*)[\u201c\u201d]/g, closers: "\u201c\u201d" },
	{ pattern: /\u201c([^\u201d]*)\u201d/g, closers: "\u201d" },
	{ pattern: /\u00ab([^\u00bb]*)\u00bb/g, closers: "\u00bb" },
	{ pattern: /\u00bb([^\u00ab]*)\u00ab/g, closers: "\u00ab" },
	{ pattern: /`([^`\n]*)`/g, closers: "`" },
];

/**
 * The text up to its last closing mark of `closers`: an opening mark after it has no match, and the pattern read on
 * to the text's end from each such mark (`« a` repeated was quadratic). Before it, each opening mark the pattern
 * reads from has a closing mark after it (inline code's stops at a line's end, so it reads no further than that).
 */
function toLastCloser(text: string, closers: string): string {
	let end = -1;
	for (const closer of closers) end = Math.max(end, text.lastIndexOf(closer));
	return text.slice(0, end + 1);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const BLOCKQUOTE = /^[ \t]*>/;

/**
 * `text` with each of `ranges` (`[start, end)`, in any order) blanked: a space in place of each UTF-16 unit but a line
 * break, so offsets and lines stay where they were. One pass over a mask, then one slice and one replace a run: a
 * message of a megabyte costs milliseconds, where an array of its characters split and joined a pass cost a second.
 */
function blanked(text: string, ranges: readonly Region[]): string {
	if (ranges.length === 0) return text;
	const mask = new Uint8Array(text.length);
	for (const { start, end } of ranges) mask.fill(1, start, end);
	let out = "";
	let kept = 0;
	let at = 0;
	while (at < text.length) {
		if (mask[at] === 0) {
			at++;
			continue;
		}
		const start = at;
		while (at < text.length && mask[at] === 1) at++;
		out += text.slice(kept, start) + text.slice(start, at).replace(/[^\n]/g, " ");
		kept = at;
	}
	return out + text.slice(kept);
}

/** The code fences (an unclosed one runs to the end) and blockquoted lines, as the lines' ranges. */
function fencesAndBlockquotes(text: string): Region[] {
	const ranges: Region[] = [];
	let offset = 0;
	let fence: string | null = null;
	for (const line of text.split("\n")) {
		const opener = FENCE.exec(line)?.[1];
		const inFence = fence !== null;
		if (fence === null && opener !== undefined) fence = opener;
		else if (fence !== null && opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length) {
			fence = null;
		}
		if (inFence || fence !== null || BLOCKQUOTE.test(line)) ranges.push({ start: offset, end: offset + line.length });
		offset += line.length + 1;
	}
	return ranges;
}

const WORD = /\S+/g;

/** Whether `text` holds at least `count` words: read up to the last of them, not split whole. */
function holdsWords(text: string, count: number): boolean {
	WORD.lastIndex = 0;
	let found = 0;
	while (found < count && WORD.exec(text) !== null) found++;
	return found === count;
}

/** What lies outside the quotable regions: a pi-goal message's template. */
function outsideQuotable(text: string): Region[] {
	const ranges: Region[] = [];
	let from = 0;
	for (const region of userText(text).own) {
		ranges.push({ start: from, end: region.start });
		from = region.end;
	}
	ranges.push({ start: from, end: text.length });
	return ranges;
}

/**
 * The user's own words in a message: the same text with a pi-goal template, code fences, blockquoted lines and
 * quoted passages of six words or more blanked out (same length, same offsets), so a pasted or relayed withdrawal
 * withdraws nothing.
 */
export function ownWords(text: string): string {
	let current = blanked(text, [...outsideQuotable(text), ...fencesAndBlockquotes(text)]);
	for (const { pattern, closers } of QUOTES) {
		const quoted: Region[] = [];
		for (const match of toLastCloser(current, closers).matchAll(pattern)) {
			if (!holdsWords(match[1] ?? "", QUOTED_WORDS)) continue;
			const start = match.index ?? 0;
			quoted.push({ start, end: start + match[0].length });
		}
		current = blanked(current, quoted);
	}
	return current;
}

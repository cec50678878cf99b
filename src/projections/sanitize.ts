/**
 * Characters that must never reach a terminal: C0 controls but `\n` and `\t` (a lone `\r` too), DEL, the C1 range
 * (0x9B is CSI, 0x9D is OSC), and the bidi controls. They are shown escaped rather than stripped, so nothing is
 * hidden and no pattern can be slipped past (SECURITY-NOTES, "Printing untrusted text to a terminal").
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
	const code = ch.charCodeAt(0);
	return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** Untrusted text made safe to print: every unsafe character shown as a visible escape. */
export function sanitize(text: string): string {
	return text.replace(UNSAFE, visible);
}

/**
 * Text meant to be read as lines (the summary pi stores): a CRLF is a line break, and every other unsafe character,
 * a lone carriage return among them, is shown as a visible escape.
 */
export function sanitizeText(text: string): string {
	return sanitize(text.replace(/\r\n/g, "\n"));
}

/** `JSON.stringify` leaves C1 and bidi controls raw; this escapes them as JSON `\u` escapes, still valid JSON. */
export function safeJson(value: unknown, indent?: number): string {
	return JSON.stringify(value, null, indent).replace(
		UNSAFE,
		(ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
	);
}

/** True when the text holds no character `sanitize` would escape. Exported for tests. */
export function isTerminalSafe(text: string): boolean {
	UNSAFE.lastIndex = 0;
	const found = UNSAFE.test(text);
	UNSAFE.lastIndex = 0;
	return !found;
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
/** True when `at` falls between the two halves of a surrogate pair. */
const splitsPair = (text: string, at: number): boolean =>
	at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at));

/**
 * `text.slice(start, end)` with each end moved inward off the middle of a surrogate pair, so the piece is whole
 * code points of the text and never longer than `end - start`. Every cut of text in Longhaul goes through it.
 */
export function sliceWhole(text: string, start: number, end = text.length): string {
	const from = Math.max(0, Math.min(start, text.length));
	const to = Math.max(from, Math.min(end, text.length));
	const first = splitsPair(text, from) ? from + 1 : from;
	const last = splitsPair(text, to) ? to - 1 : to;
	return last <= first ? "" : text.slice(first, last);
}

/** The mark a cut leaves between a head and a tail, counting what it left out. */
const leftOut = (left: number): string => `\n… ${left} characters left out …\n`;

/**
 * A long text as its head and tail with `mark` between (what was left out counted, by default), never half a
 * surrogate pair: the one way Longhaul shows a text by its ends.
 */
export function headAndTail(text: string, head: number, tail: number, mark = leftOut): string {
	if (text.length <= head + tail) return text;
	const first = sliceWhole(text, 0, head);
	const last = sliceWhole(text, text.length - tail);
	return `${first}${mark(text.length - first.length - last.length)}${last}`;
}

/** The text whole when it has at most `max` UTF-16 units, else its longest whole-code-point head ending in "…". */
export function cutWhole(text: string, max: number): string {
	if (text.length <= max) return text;
	return max < 1 ? "" : `${sliceWhole(text, 0, max - 1)}…`;
}

/** How many code points the text has (an emoji is one, not two UTF-16 units). */
export function codePoints(text: string): number {
	let count = 0;
	for (const _ of text) count++;
	return count;
}

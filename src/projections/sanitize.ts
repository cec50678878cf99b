/**
 * Characters that must never reach a terminal or a reader raw: C0 controls but `\n` and `\t` (a `\r` too), DEL,
 * the C1 range (0x9B is CSI, 0x9D is OSC) and the bidi controls (SECURITY-NOTES, "Printing untrusted text to a
 * terminal"), and the characters that hide text from a person while a model still reads it: the zero-width ones
 * (U+200B-U+200D, U+2060, U+FEFF), the line and paragraph separators (U+2028, U+2029), the Hangul fillers (U+3164,
 * U+FFA0), the interlinear annotation marks (U+FFF9-U+FFFB) and the Unicode tag characters (U+E0000-U+E007F, an
 * ASCII text no font draws). They are shown escaped rather than stripped, so nothing is hidden and no pattern can be
 * slipped past. One class of single code points: no pattern here can backtrack.
 */
const UNSAFE =
	/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\u3164\ufeff\uffa0\ufff9-\ufffb\u{e0000}-\u{e007f}]/gu;

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

const ZWJ = "\u200d";
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
/** What may stand between an emoji and the ZWJ after it: a variation selector (U+FE0F) or a skin tone modifier. */
const EMOJI_EXTEND = /^[\ufe0f\p{Emoji_Modifier}]$/u;

/** The code point that ends at `end` (a surrogate pair read whole), and where it starts. */
function before(text: string, end: number): { readonly char: string; readonly start: number } {
	const low = text.charCodeAt(end - 1);
	const pair = end >= 2 && isLow(low) && isHigh(text.charCodeAt(end - 2));
	const start = pair ? end - 2 : end - 1;
	return { char: text.slice(start, end), start };
}

/**
 * True when the ZWJ at `at` joins two emoji (an Extended_Pictographic code point on each side, the one before it
 * perhaps followed by a variation selector and a skin tone): an emoji ZWJ sequence (family, profession, flag) needs
 * it, and between two pictographs it hides no text. Every other ZWJ is escaped, since inside a word it makes two
 * strings that look the same. At most three code points are read, whatever the text.
 */
function joinsEmoji(text: string, at: number): boolean {
	const next = text.codePointAt(at + 1);
	if (next === undefined || !PICTOGRAPHIC.test(String.fromCodePoint(next))) return false;
	let end = at;
	for (let skipped = 0; end > 0 && skipped <= 2; skipped++) {
		const prev = before(text, end);
		if (PICTOGRAPHIC.test(prev.char)) return true;
		if (!EMOJI_EXTEND.test(prev.char)) return false;
		end = prev.start;
	}
	return false;
}

/** `\x1b`, `\u200b`, `\u{e0041}`: the code point's number, in the shortest of the three forms that holds it. */
function visible(ch: string): string {
	const code = ch.codePointAt(0) ?? 0;
	if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
	return code <= 0xffff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\u{${code.toString(16)}}`;
}

/** `text` with each unsafe character (a ZWJ that joins two emoji left as it is) replaced by `shown(ch)`. */
function escapeUnsafe(text: string, shown: (ch: string) => string): string {
	return text.replace(UNSAFE, (ch: string, at: number, whole: string) =>
		ch === ZWJ && joinsEmoji(whole, at) ? ch : shown(ch),
	);
}

/** Untrusted text made safe to print: every unsafe character shown as a visible escape. */
export function sanitize(text: string): string {
	return escapeUnsafe(text, visible);
}

/** A character as JSON `\u` escapes: two, a surrogate pair, for a tag character. */
function jsonEscape(ch: string): string {
	let out = "";
	for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`;
	return out;
}

/**
 * `JSON.stringify` leaves C1, bidi and invisible characters raw; this escapes them as JSON `\u` escapes, still valid
 * JSON that reads back to the very characters (a rule's words keep theirs).
 */
export function safeJson(value: unknown, indent?: number): string {
	return escapeUnsafe(JSON.stringify(value, null, indent), jsonEscape);
}

/** True when the text holds no character `sanitize` would escape. Exported for tests. */
export function isTerminalSafe(text: string): boolean {
	return sanitize(text) === text;
}

/** True when `at` falls between the two halves of a surrogate pair. */
const splitsPair = (text: string, at: number): boolean =>
	at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at));

/**
 * `text.slice(start, end)` with each end moved inward off the middle of a surrogate pair, and past a ZWJ left at
 * either edge, so the piece is whole code points of the text, never starts or ends in a joiner that joins nothing
 * (`sanitize` keeps a ZWJ raw only between two emoji, and a cut must not leave one dangling), and is never longer
 * than `end - start`. Every cut of text in Longhaul goes through it.
 */
export function sliceWhole(text: string, start: number, end = text.length): string {
	const from = Math.max(0, Math.min(start, text.length));
	const to = Math.max(from, Math.min(end, text.length));
	const whole = splitsPair(text, from) ? from + 1 : from;
	const first = text.charAt(whole) === ZWJ ? whole + 1 : whole;
	const wholeEnd = splitsPair(text, to) ? to - 1 : to;
	const last = wholeEnd > 0 && text.charAt(wholeEnd - 1) === ZWJ ? wholeEnd - 1 : wholeEnd;
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

// The text as a reader of it sees it, for finding secrets: terminal escapes dropped, JSON `\u` and backslash escapes
// and URL percent escapes decoded, zero-width and format characters dropped, with a map from each character back to
// where it stood, so a secret found in the view is replaced where it stands in the original. One pass, no pattern.
// A second reading keeps the terminal escapes that may have taken text (`keepEscapes`): dropped with its final byte,
// an escape may take a letter that was text (`ESC p` the `p` of `password=`, `ESC [` the `g` of `ghp_`).

import { leastFitting } from "../../events/index.js";
import { NAME, runEnd } from "./chars.js";
import { isPlainByFirstWord } from "./names.js";

/** A text read for secrets, and where each of its characters came from. */
export interface View {
	readonly text: string;
	/** Where each character's source starts and ends in the original; undefined when the view is the original. */
	readonly origin: { readonly starts: Int32Array; readonly ends: Int32Array } | undefined;
}

const ESC = 0x1b;
const CSI = 0x9b;
const BACKSLASH = 0x5c;
const PERCENT = 0x25;

/** A character no reader sees: the bell, zero-width and format characters, the soft hyphen. */
function isInvisible(code: number): boolean {
	return (
		code === 0x07 ||
		code === 0x00ad ||
		code === 0x034f ||
		code === 0x180e ||
		(code >= 0x200b && code <= 0x200f) ||
		(code >= 0x2060 && code <= 0x2064) ||
		code === 0xfeff
	);
}

/** What may need decoding or dropping; a text without any of these is its own view. */
const NEEDS_VIEW = /[\\%\u0007\u001b\u009b\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff\udb40]|\u034f/;

function hexValue(code: number): number {
	if (code >= 0x30 && code <= 0x39) return code - 0x30;
	const lower = code | 0x20;
	return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The value of `count` hex digits at `at`, or -1. */
function hexAt(text: string, at: number, count: number): number {
	let value = 0;
	for (let i = 0; i < count; i++) {
		const digit = hexValue(text.charCodeAt(at + i));
		if (digit < 0) return -1;
		value = value * 16 + digit;
	}
	return value;
}

/** Where a terminal escape's body that starts at `at` (after ESC, CSI or an escaped ESC) ends. */
function escapeEnd(text: string, at: number, csi: boolean): number {
	let i = at;
	if (csi || text.charCodeAt(i) === 0x5b) {
		if (!csi) i++;
		while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x3f) i++;
		while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
		const final = text.charCodeAt(i);
		return final >= 0x40 && final <= 0x7e ? i + 1 : i;
	}
	if (text.charCodeAt(i) === 0x5d) {
		i++;
		while (i < text.length) {
			const c = text.charCodeAt(i);
			if (c === 0x07) return i + 1;
			if (c === ESC || c === BACKSLASH) return i;
			i++;
		}
		return i;
	}
	// Any other escape (ECMA-48, 5.3): intermediate bytes, then one final byte, as in ESC 7, ESC c, ESC ( B and the
	// string terminator ESC \ (`tput sgr0` writes ESC ( B ESC [ m).
	while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
	const final = text.charCodeAt(i);
	return final >= 0x30 && final <= 0x7e ? i + 1 : i;
}

/** Whether a terminal escape's body at `body` is an OSC's (ESC ]): text up to a terminator, not a final byte. */
function isOsc(text: string, body: number, csi: boolean): boolean {
	return !csi && text.charCodeAt(body) === 0x5d;
}

/**
 * Whether a terminal escape whose body runs from `body` to `end` may have taken a letter that was text: an OSC (its
 * body is read to a terminator a cut may have lost), or one that ends at a letter (`ESC p`, `ESC - - p`, `ESC [ g`,
 * `ESC [ 1 g`; a colour code too: `ESC [ 1 m` may have taken the `m` of `mysql`). `ESC 7` took none.
 */
function mayTakeText(text: string, body: number, end: number, csi: boolean): boolean {
	if (isOsc(text, body, csi)) return true;
	const final = text.charCodeAt(end - 1);
	return end > body && (final | 0x20) >= 0x61 && (final | 0x20) <= 0x7a;
}

/** Where a control sequence's parameter bytes (`ESC [ 1 ; 2`) end, from its body at `body`: what follows is text. */
function afterParameters(text: string, body: number, csi: boolean): number {
	let i = !csi && text.charCodeAt(body) === 0x5b ? body + 1 : body;
	while (text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x3f) i++;
	return i;
}

/**
 * Where the text after an escape ending at `at` starts: past any more terminal escapes there, which a reading drops
 * (`ESC [ H ESC [ 2 J PUBLIC_KEY`).
 */
function textAfterEscapes(text: string, at: number): number {
	let i = at;
	while (i < text.length) {
		const code = text.charCodeAt(i);
		if (code === ESC || code === CSI) i = escapeEnd(text, i + 1, code === CSI);
		else if (code === BACKSLASH && (backslashEscape(text, i)?.code ?? 0) < 0)
			i = backslashEscape(text, i)?.end ?? i + 1;
		else break;
	}
	return i;
}

/** The most characters of a name read to judge it: a longer run is no name a tool prints. */
const NAME_CHARS = 256;

/** The run of name characters (letters, digits, `_`, `-`, `.`) from `at`, at most NAME_CHARS of them. */
function nameAt(text: string, at: number): string {
	const window = text.slice(at, at + NAME_CHARS);
	return window.slice(0, runEnd(NAME, window, 0));
}

/** JSON's one-letter escapes, as what they stand for. */
const SHORT_ESCAPES: Readonly<Record<string, number>> = { n: 10, r: 13, t: 9, '"': 0x22, "'": 0x27, "/": 0x2f };

/** How many bytes a UTF-8 sequence that starts with `lead` has, or 0 for a byte no sequence starts with. */
function utf8Length(lead: number): number {
	if (lead < 0x80) return 1;
	if (lead >= 0xc2 && lead <= 0xdf) return 2;
	if (lead >= 0xe0 && lead <= 0xef) return 3;
	return lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
}

/** Decodes the view's UTF-16 code units, a leading U+FEFF kept so each unit stays one character. */
const UTF16 = new TextDecoder("utf-16le", { ignoreBOM: true });

/** Collects the view's characters and where each came from. */
class Builder {
	private readonly codes: Uint16Array;
	readonly starts: Int32Array;
	readonly ends: Int32Array;
	length = 0;
	constructor(size: number) {
		this.codes = new Uint16Array(size);
		this.starts = new Int32Array(size);
		this.ends = new Int32Array(size);
	}
	push(code: number, from: number, to: number): void {
		if (code > 0xffff) {
			const c = code - 0x10000;
			this.push(0xd800 + (c >> 10), from, to);
			this.push(0xdc00 + (c & 0x3ff), from, to);
			return;
		}
		this.codes[this.length] = code;
		this.starts[this.length] = from;
		this.ends[this.length] = to;
		this.length++;
	}
	/** The characters as a string, in one native call (a lone surrogate reads as U+FFFD, the same length). */
	text(): string {
		return UTF16.decode(this.codes.subarray(0, this.length));
	}
}

/**
 * A backslash escape at `at` (after any run of backslashes, so an escape escaped again reads the same): the code it
 * stands for (-1 for a terminal escape, -2 for a CSI, dropped with its body, which starts at `body`) and where it
 * ends; undefined when it is no escape.
 */
function backslashEscape(text: string, at: number): { code: number; end: number; body?: number } | undefined {
	let i = at;
	while (text.charCodeAt(i) === BACKSLASH) i++;
	const letter = text.charAt(i);
	if (letter === "u") {
		const code = hexAt(text, i + 1, 4);
		if (code < 0) return undefined;
		if (code === ESC || code === CSI)
			return { code: code === CSI ? -2 : -1, end: escapeEnd(text, i + 5, code === CSI), body: i + 5 };
		return { code, end: i + 5 };
	}
	if (letter === "x") {
		const code = hexAt(text, i + 1, 2);
		if (code === ESC || code === CSI)
			return { code: code === CSI ? -2 : -1, end: escapeEnd(text, i + 3, code === CSI), body: i + 3 };
		return code < 0 ? undefined : { code, end: i + 3 };
	}
	if (text.startsWith("033", i)) return { code: -1, end: escapeEnd(text, i + 3, false), body: i + 3 };
	if (letter === "e" && (text.charAt(i + 1) === "[" || text.charAt(i + 1) === "]"))
		return { code: -1, end: escapeEnd(text, i + 1, false), body: i + 1 };
	const short = SHORT_ESCAPES[letter];
	return short === undefined ? undefined : { code: short, end: i + 1 };
}

/** A run of percent escapes at `at` read as UTF-8: the characters and where the run ends; undefined when none. */
function percentEscapes(text: string, at: number, into: Builder): number | undefined {
	let i = at;
	let decoded = false;
	while (text.charCodeAt(i) === PERCENT) {
		const lead = hexAt(text, i + 1, 2);
		const size = lead < 0 ? 0 : utf8Length(lead);
		if (size === 0) break;
		let code = size === 1 ? lead : lead & (0xff >> (size + 1));
		let j = 1;
		for (; j < size; j++) {
			const next = text.charCodeAt(i + 3 * j) === PERCENT ? hexAt(text, i + 3 * j + 1, 2) : -1;
			if (next < 0x80 || next > 0xbf) break;
			code = (code << 6) | (next & 0x3f);
		}
		if (j < size) break;
		if (!isInvisible(code) && !(code >= 0xe0000 && code <= 0xe007f)) into.push(code, i, i + 3 * size);
		i += 3 * size;
		decoded = true;
	}
	return decoded ? i : undefined;
}

/**
 * Reads a text's view a stretch at a time, so that a long text need not be read in one go. With `keepEscapes`, the
 * second reading: a terminal escape that may have taken text (mayTakeText) has its introducer (ESC, CSI, ESC written
 * as text: `\x1b`, `\u001b`, `\033`, `\e`) read as one ESC, a blank to every finder, and what follows read as text,
 * so a letter the view drops as an escape's final byte is read; all else is read as in the view.
 */
export class ViewReader {
	private at = 0;
	private readonly builder: Builder | undefined;
	/**
	 * The last run of escapes looked past (from `from` to `to`, where its text starts) and whether a name of no secret
	 * stands there: an escape ending inside the run has the same text after it, so a run of escapes is read once.
	 */
	private lastRun = { from: -1, to: -1, plain: false };
	/**
	 * Whether an escape that may have taken text was read: only then may the reading with escapes kept differ (the
	 * view's reader says so of any such escape; the kept reading's, only where it read one on as text).
	 */
	escapes = false;
	constructor(
		readonly source: string,
		readonly keepEscapes = false,
	) {
		this.builder = NEEDS_VIEW.test(source) ? new Builder(source.length) : undefined;
	}
	/** Reads on over about `chars` more characters of the source; true once all of it is read. */
	read(chars: number): boolean {
		const b = this.builder;
		const text = this.source;
		if (b === undefined) return true;
		const stop = Math.min(text.length, this.at + chars);
		let i = this.at;
		while (i < stop) {
			const code = text.charCodeAt(i);
			if (code === ESC || code === CSI) {
				const end = escapeEnd(text, i + 1, code === CSI);
				i = this.escape(i, i + 1, end, code === CSI);
				continue;
			}
			if (code === BACKSLASH) {
				const decoded = backslashEscape(text, i);
				if (decoded !== undefined) {
					if (decoded.code < 0) i = this.escape(i, decoded.body ?? decoded.end, decoded.end, decoded.code === -2);
					else {
						if (!isInvisible(decoded.code)) b.push(decoded.code, i, decoded.end);
						i = decoded.end;
					}
				}
				// No escape after this run of backslashes: the run stands as it is, read once.
				else for (; text.charCodeAt(i) === BACKSLASH; i++) b.push(BACKSLASH, i, i + 1);
				continue;
			}
			if (code === PERCENT) {
				const end = percentEscapes(text, i, b);
				if (end !== undefined) {
					i = end;
					continue;
				}
			}
			// A tag character (U+E0000–U+E007F) is a surrogate pair whose high half is U+DB40.
			if (code === 0xdb40 && (text.charCodeAt(i + 1) & 0xff80) === 0xdc00) {
				i += 2;
				continue;
			}
			if (!isInvisible(code)) b.push(code, i, i + 1);
			i++;
		}
		this.at = i;
		return i >= text.length;
	}
	/**
	 * A terminal escape from `at`, its body from `body` to `end`: dropped, or with escapes kept and one that may have
	 * taken text, one ESC (for the introducer, with a control sequence's `[` and parameters) and the rest read on as
	 * text: an OSC's body, another escape's intermediate and final bytes. A final byte is not read on before a name of
	 * no secret (`ESC M` before `PUBLIC_KEY=`: read on, the letter would make it
	 * `MPUBLIC_KEY`, a key's name). Where the reading goes on.
	 */
	private escape(at: number, body: number, end: number, csi: boolean): number {
		const text = this.source;
		if (!mayTakeText(text, body, end, csi)) return end;
		// The view drops it whole; whether the name after it lets the kept reading drop it too is that reading's to judge.
		if (!this.keepEscapes) {
			this.escapes = true;
			return end;
		}
		const osc = isOsc(text, body, csi);
		if (!osc && this.plainNameAfter(end)) return end;
		this.escapes = true;
		const from = osc ? body : afterParameters(text, body, csi);
		this.builder?.push(ESC, at, from);
		return from;
	}
	/** Whether the name after the escapes from `end` on is one of no secret that a letter glued before would change. */
	private plainNameAfter(end: number): boolean {
		const run = this.lastRun;
		if (end >= run.from && end <= run.to) return run.plain;
		const to = textAfterEscapes(this.source, end);
		this.lastRun = { from: end, to, plain: isPlainByFirstWord(nameAt(this.source, to)) };
		return this.lastRun.plain;
	}
	/** The view of what was read (the whole source's, once `read` said so). */
	view(): View {
		const b = this.builder;
		if (b === undefined) return { text: this.source, origin: undefined };
		return { text: b.text(), origin: { starts: b.starts.subarray(0, b.length), ends: b.ends.subarray(0, b.length) } };
	}
}

/** The view of `text` (see the file's head). Linear in the text. */
export function readView(text: string): View {
	const reader = new ViewReader(text);
	reader.read(text.length);
	return reader.view();
}

/**
 * The reading of `text` with its terminal escapes kept (see ViewReader), or undefined when it holds none that may
 * have taken text (then it is the view). Linear.
 */
export function readEscapesKept(text: string): View | undefined {
	const reader = new ViewReader(text, true);
	reader.read(text.length);
	return reader.escapes ? reader.view() : undefined;
}

/** The view's stretch that stands at the original's [start, end): from its first character that comes from there. */
export function viewRange(view: View, start: number, end: number): { start: number; end: number } {
	const starts = view.origin?.starts;
	if (starts === undefined) return { start, end };
	const first = (at: number) => leastFitting(starts.length, (k) => (starts[k] ?? 0) >= at);
	return { start: first(start), end: first(end) };
}

/** Where the view's stretch [start, end) stands in the original. */
export function originalRange(view: View, start: number, end: number): { start: number; end: number } {
	if (view.origin === undefined || end <= start) return { start, end };
	return { start: view.origin.starts[start] ?? 0, end: view.origin.ends[end - 1] ?? 0 };
}

import * as E from "fp-ts/lib/Either.js";

/** The links of an entry: its id and, as written, its parentId. */
export interface Links {
	readonly id: string;
	readonly parentId: unknown;
}

/** Keys and values longer than this are not read: an id is short. */
const SMALL_CHARS = 4096;

const SPACE = " \t\n\r";

/** A string's next quote or backslash. */
const STRING_STOP = /["\\]/g;
/** What changes depth inside a nested value, or opens a string there. */
const STRUCTURE = /["{}[\]]/g;
/** What ends a number, `true`, `false` or `null`. */
const PRIMITIVE_END = /[,}\s]/g;

function next(pattern: RegExp, s: string, from: number): RegExpExecArray | null {
	pattern.lastIndex = from;
	return pattern.exec(s);
}

function skipSpace(s: string, from: number): number {
	let i = from;
	while (i < s.length && SPACE.includes(s.charAt(i))) i++;
	return i;
}

/** A short JSON text parsed, or undefined when it is not JSON. */
function parsed(text: string): unknown {
	return E.getOrElseW(() => undefined)(E.tryCatch(() => JSON.parse(text), E.toError));
}

/** Reads the links of one line handed in pieces; the line itself is never held. */
export interface LinksScanner {
	readonly push: (piece: string) => void;
	/** The links once the whole line was pushed, or undefined when it is no JSON object with a string id. */
	readonly end: () => Links | undefined;
}

type Phase =
	| "start"
	| "key"
	| "keyText"
	| "colon"
	| "value"
	| "stringValue"
	| "nested"
	| "primitive"
	| "commaOrClose"
	| "after"
	| "bad";

/** Where a scan of one line stands. */
interface Scan {
	phase: Phase;
	/** The raw text of the key being read, or of an `id` or `parentId` value. */
	text: string;
	keeping: boolean;
	tooLong: boolean;
	key: unknown;
	inString: boolean;
	escaped: boolean;
	depth: number;
	readonly found: Map<string, unknown>;
}

function take(scan: Scan, s: string, from: number, to: number): void {
	if (!scan.keeping || scan.tooLong) return;
	if (scan.text.length + (to - from) > SMALL_CHARS) scan.tooLong = true;
	else scan.text += s.slice(from, to);
}

function begin(scan: Scan, keep: boolean): void {
	scan.text = "";
	scan.keeping = keep;
	scan.tooLong = false;
}

function valueDone(scan: Scan): void {
	if (scan.key === "id" || scan.key === "parentId")
		scan.found.set(scan.key, scan.tooLong ? undefined : parsed(scan.text));
	scan.phase = "commaOrClose";
}

/** Reads a string body from `from`; the index after its closing quote, or -1 when it goes on past the piece. */
function stringBody(scan: Scan, s: string, from: number): number {
	let i = from;
	if (scan.escaped) {
		scan.escaped = false;
		i++;
	}
	for (let m = next(STRING_STOP, s, i); m !== null; m = next(STRING_STOP, s, i)) {
		if (m[0] === '"') return m.index + 1;
		if (m.index + 1 >= s.length) {
			scan.escaped = true;
			return -1;
		}
		i = m.index + 2;
	}
	return -1;
}

/** Reads a key's or a string value's text from `i`; the index after its closing quote, or the piece's end. */
function stringText(scan: Scan, s: string, i: number): number {
	const end = stringBody(scan, s, i);
	take(scan, s, i, end < 0 ? s.length : end);
	if (end < 0) return s.length;
	if (scan.phase === "keyText") {
		scan.key = scan.tooLong ? undefined : parsed(scan.text);
		scan.phase = "colon";
	} else valueDone(scan);
	return end;
}

/** Reads a nested object or array from `from` to the bracket that closes it, or to the piece's end. */
function nested(scan: Scan, s: string, from: number): number {
	let i = from;
	while (i < s.length) {
		if (scan.inString) {
			const end = stringBody(scan, s, i);
			take(scan, s, i, end < 0 ? s.length : end);
			if (end < 0) return s.length;
			scan.inString = false;
			i = end;
			continue;
		}
		const m = next(STRUCTURE, s, i);
		if (m === null) {
			take(scan, s, i, s.length);
			return s.length;
		}
		take(scan, s, i, m.index + 1);
		i = m.index + 1;
		if (m[0] === '"') scan.inString = true;
		else if (m[0] === "{" || m[0] === "[") scan.depth++;
		else if (--scan.depth === 0) {
			valueDone(scan);
			return i;
		}
	}
	return i;
}

/** Reads a number, `true`, `false` or `null` from `i` to what ends it, or to the piece's end. */
function primitive(scan: Scan, s: string, i: number): number {
	const m = next(PRIMITIVE_END, s, i);
	const end = m === null ? s.length : m.index;
	take(scan, s, i, end);
	if (m !== null) valueDone(scan);
	return end;
}

/** A value's first character at `i`: a string, a nested value, or a primitive read from `i` itself. */
function valueStart(scan: Scan, s: string, i: number, c: string): number {
	begin(scan, scan.key === "id" || scan.key === "parentId");
	if (c === "," || c === "}" || c === "]" || c === ":") return to(scan, "bad", i);
	if (c === '"') {
		take(scan, s, i, i + 1);
		return to(scan, "stringValue", i);
	}
	if (c === "{" || c === "[") {
		scan.depth = 1;
		scan.inString = false;
		take(scan, s, i, i + 1);
		return to(scan, "nested", i);
	}
	scan.phase = "primitive";
	return i;
}

/** Moves to `phase` past the character at `i`. */
function to(scan: Scan, phase: Phase, i: number): number {
	scan.phase = phase;
	return i + 1;
}

/** Reads the punctuation the phase expects at `i` (spaces skipped before). */
function punctuation(scan: Scan, s: string, i: number): number {
	if (i >= s.length) return i;
	const c = s.charAt(i);
	switch (scan.phase) {
		case "start":
			return to(scan, c === "{" ? "key" : "bad", i);
		case "key":
			if (c !== '"') return to(scan, "bad", i);
			begin(scan, true);
			take(scan, s, i, i + 1);
			return to(scan, "keyText", i);
		case "colon":
			return to(scan, c === ":" ? "value" : "bad", i);
		case "value":
			return valueStart(scan, s, i, c);
		case "commaOrClose":
			if (c === ",") return to(scan, "key", i);
			return to(scan, c === "}" ? "after" : "bad", i);
		default:
			return to(scan, "bad", i);
	}
}

/** Reads from `i` in the current phase; the index where the next phase starts. */
function step(scan: Scan, s: string, i: number): number {
	switch (scan.phase) {
		case "keyText":
		case "stringValue":
			return stringText(scan, s, i);
		case "nested":
			return nested(scan, s, i);
		case "primitive":
			return primitive(scan, s, i);
		default:
			return punctuation(scan, s, skipSpace(s, i));
	}
}

/**
 * A scanner of the `id` and `parentId` of a JSON object line, read from its top-level keys without building its
 * values, for a line too long to hold: the branch can still run through the entry. Only the top-level keys and
 * the values of `id` and `parentId` (when short) are kept. The last of repeated keys counts, as in `JSON.parse`.
 */
export function linksScanner(): LinksScanner {
	const scan: Scan = {
		phase: "start",
		text: "",
		keeping: false,
		tooLong: false,
		key: undefined,
		inString: false,
		escaped: false,
		depth: 0,
		found: new Map(),
	};
	return {
		push: (piece) => {
			for (let i = 0; i < piece.length && scan.phase !== "bad"; ) i = step(scan, piece, i);
		},
		end: () => {
			const id = scan.found.get("id");
			return scan.phase === "after" && typeof id === "string"
				? { id, parentId: scan.found.get("parentId") }
				: undefined;
		},
	};
}

/** The links of a whole line (see `linksScanner`). */
export function lineLinks(line: string): Links | undefined {
	const scanner = linksScanner();
	scanner.push(line);
	return scanner.end();
}

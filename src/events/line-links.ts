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
	| "keyOrClose"
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

/**
 * A scanner of the `id` and `parentId` of a JSON object line, read from its top-level keys without building its
 * values, for a line too long to hold: the branch can still run through the entry. Only the top-level keys and
 * the values of `id` and `parentId` (when short) are kept. The last of repeated keys counts, as in `JSON.parse`.
 */
export function linksScanner(): LinksScanner {
	let phase: Phase = "start";
	/** The raw text of the key being read, or of an `id` or `parentId` value. */
	let text = "";
	let keeping = false;
	let tooLong = false;
	let key: unknown;
	let inString = false;
	let escaped = false;
	let depth = 0;
	const found = new Map<string, unknown>();

	const take = (s: string, from: number, to: number) => {
		if (!keeping || tooLong) return;
		if (text.length + (to - from) > SMALL_CHARS) tooLong = true;
		else text += s.slice(from, to);
	};
	const begin = (keep: boolean) => {
		text = "";
		keeping = keep;
		tooLong = false;
	};
	const valueDone = () => {
		if (key === "id" || key === "parentId") found.set(key, tooLong ? undefined : parsed(text));
		phase = "commaOrClose";
	};
	/** Reads a string body from `from`; the index after its closing quote, or -1 when it goes on past the piece. */
	const stringBody = (s: string, from: number): number => {
		let i = from;
		if (escaped) {
			if (i >= s.length) return -1;
			escaped = false;
			i++;
		}
		for (let m = next(STRING_STOP, s, i); m !== null; m = next(STRING_STOP, s, i)) {
			if (m[0] === '"') return m.index + 1;
			if (m.index + 1 >= s.length) {
				escaped = true;
				return -1;
			}
			i = m.index + 2;
		}
		return -1;
	};

	/** Reads from `i` in the current phase; the index where the next phase starts. */
	const step = (s: string, i: number): number => {
		switch (phase) {
			case "start":
			case "keyOrClose":
			case "key":
			case "colon":
			case "value":
			case "commaOrClose":
			case "after":
				return punctuation(s, skipSpace(s, i));
			case "keyText":
			case "stringValue": {
				const end = stringBody(s, i);
				take(s, i, end < 0 ? s.length : end);
				if (end < 0) return s.length;
				if (phase === "keyText") {
					key = tooLong ? undefined : parsed(text);
					phase = "colon";
				} else valueDone();
				return end;
			}
			case "nested":
				return nested(s, i);
			case "primitive": {
				const m = next(PRIMITIVE_END, s, i);
				const end = m === null ? s.length : m.index;
				take(s, i, end);
				if (m !== null) valueDone();
				return end;
			}
			case "bad":
				return s.length;
		}
	};

	const nested = (s: string, from: number): number => {
		let i = from;
		while (i < s.length) {
			if (inString) {
				const end = stringBody(s, i);
				take(s, i, end < 0 ? s.length : end);
				if (end < 0) return s.length;
				inString = false;
				i = end;
				continue;
			}
			const m = next(STRUCTURE, s, i);
			if (m === null) {
				take(s, i, s.length);
				return s.length;
			}
			take(s, i, m.index + 1);
			i = m.index + 1;
			if (m[0] === '"') inString = true;
			else if (m[0] === "{" || m[0] === "[") depth++;
			else if (--depth === 0) {
				valueDone();
				return i;
			}
		}
		return i;
	};

	const punctuation = (s: string, i: number): number => {
		if (i >= s.length) return i;
		const c = s.charAt(i);
		const to = (p: Phase) => {
			phase = p;
			return i + 1;
		};
		switch (phase) {
			case "start":
				return to(c === "{" ? "keyOrClose" : "bad");
			case "keyOrClose":
			case "key":
				if (c === "}" && phase === "keyOrClose") return to("bad");
				if (c !== '"') return to("bad");
				begin(true);
				take(s, i, i + 1);
				return to("keyText");
			case "colon":
				return to(c === ":" ? "value" : "bad");
			case "value":
				begin(key === "id" || key === "parentId");
				if (c === "," || c === "}" || c === "]" || c === ":") return to("bad");
				if (c === '"') {
					take(s, i, i + 1);
					return to("stringValue");
				}
				if (c === "{" || c === "[") {
					depth = 1;
					inString = false;
					take(s, i, i + 1);
					return to("nested");
				}
				phase = "primitive";
				return i;
			case "commaOrClose":
				if (c === ",") return to("key");
				return to(c === "}" ? "after" : "bad");
			default:
				return to("bad");
		}
	};

	return {
		push: (piece) => {
			for (let i = 0; i < piece.length && phase !== "bad"; ) i = step(piece, i);
		},
		end: () => {
			const id = found.get("id");
			return phase === "after" && typeof id === "string" ? { id, parentId: found.get("parentId") } : undefined;
		},
	};
}

/** The links of a whole line (see `linksScanner`). */
export function lineLinks(line: string): Links | undefined {
	const scanner = linksScanner();
	scanner.push(line);
	return scanner.end();
}

// Character classes of tokens, as tables: a run of a class is read by a loop, never by a pattern that can backtrack.

/** A character class: `has[code]` is 1 for its ASCII members; `wide` holds the few past ASCII. */
export interface CharClass {
	readonly has: Uint8Array;
	readonly wide: ReadonlySet<number>;
}

/** The class of the characters of `members` (ranges as `a-z`, ASCII only). */
export function charClass(members: string): CharClass {
	const has = new Uint8Array(128);
	const wide = new Set<number>();
	for (let i = 0; i < members.length; i++) {
		const from = members.charCodeAt(i);
		if (members.charAt(i + 1) === "-" && i + 2 < members.length) {
			for (let c = from; c <= members.charCodeAt(i + 2); c++) has[c] = 1;
			i += 2;
		} else if (from < 128) has[from] = 1;
		else wide.add(from);
	}
	return { has, wide };
}

/** True when the character `code` is in `cls`. Exported for tests. */
export function isMember(cls: CharClass, code: number): boolean {
	return code < 128 ? cls.has[code] === 1 : cls.wide.has(code);
}

/** True when the character at `at` is in `cls` (false past either end). */
export function isIn(cls: CharClass, text: string, at: number): boolean {
	// Past either end `charCodeAt` is NaN, which no class holds.
	return isMember(cls, text.charCodeAt(at));
}

/** Where the run of `cls` that starts at `from` ends (the first index not in it). */
export function runEnd(cls: CharClass, text: string, from: number): number {
	let i = from;
	while (i < text.length && isIn(cls, text, i)) i++;
	return i;
}

/**
 * Where the first character of `cls` at or after `from` stands, or the text's end. The loops over a text's characters
 * live here, beside the tables they read: a loop in another module reads an imported binding on every character, and
 * under jiti (how pi loads an extension) each read is a getter call.
 */
export function stopAt(cls: CharClass, text: string, from: number): number {
	let i = from;
	while (i < text.length && !isIn(cls, text, i)) i++;
	return i;
}

/** Where the run of `cls` that ends just before `to` starts, reading back at most `max` characters. */
export function runStart(cls: CharClass, text: string, to: number, max: number): number {
	let i = to;
	while (i > 0 && to - i < max && isIn(cls, text, i - 1)) i--;
	return i;
}

/**
 * How many runs of one class are remembered. A shape reads up to three runs of one class from one anchor (a JWT's
 * header, payload and signature), and the run the next anchor stands in must outlast them: remembered alone, a header
 * of a megabyte holding an `eyJ` every four characters was read again from each, and 128 KB of it took 15 s.
 */
const RUNS_KEPT = 4;

/**
 * Class runs of one text, remembered: a run read once is not read again from a position inside it, so scans that
 * start at many places in one long run (a run of prefixes) stay linear. The last RUNS_KEPT runs of each class read
 * are kept, in a table, each new one over the oldest, so a look allocates nothing (a prefix every three characters
 * looks at every one). `read` is for tests.
 */
export class Runs {
	/** For each class, the runs kept, each one's `from` and `end` (-1 where none is yet), then the slot to fill next. */
	private readonly kept = new Map<CharClass, Int32Array>();
	constructor(
		readonly text: string,
		private readonly read = runEnd,
	) {}
	/** Where the run of `cls` that starts at `from` ends. */
	end(cls: CharClass, from: number): number {
		let kept = this.kept.get(cls);
		if (kept === undefined) {
			kept = new Int32Array(2 * RUNS_KEPT + 1).fill(-1);
			kept[2 * RUNS_KEPT] = 0;
			this.kept.set(cls, kept);
		}
		for (let i = 0; i < 2 * RUNS_KEPT; i += 2) {
			const end = kept[i + 1] ?? -1;
			if (from >= (kept[i] ?? -1) && from < end) return end;
		}
		const end = this.read(cls, this.text, from);
		if (end > from) {
			const slot = kept[2 * RUNS_KEPT] ?? 0;
			kept[2 * slot] = from;
			kept[2 * slot + 1] = end;
			kept[2 * RUNS_KEPT] = (slot + 1) % RUNS_KEPT;
		}
		return end;
	}
}

export const ALNUM = charClass("A-Za-z0-9");
export const WORD = charClass("A-Za-z0-9_");
export const BASE62 = ALNUM;
export const URL_SAFE = charClass("A-Za-z0-9_-");
export const BASE64 = charClass("A-Za-z0-9+/=");
export const HEX = charClass("0-9a-f");
export const UPPER_DIGITS = charClass("A-Z0-9");
export const LETTERS = charClass("A-Za-z");
export const DIGITS = charClass("0-9");
/** What a name may be made of: `AWS_SECRET_ACCESS_KEY`, `db.password`, `x-api-key`. */
export const NAME = charClass("A-Za-z0-9_.-");

/**
 * What ends any stretch read as one piece: a blank (control characters, NEL, the no-break space, the line and
 * paragraph separators), a quote, an angle bracket.
 */
const STOPS = "\u0000-\u0020\u0085\u00a0\u2028\u2029\"'`<>";
/** What ends a token a copy of a secret may stand as: a stop, a bracket, a comma, a semicolon. */
export const TOKEN_END = charClass(`${STOPS}()[]{},;`);
/** What ends a value after a name: a token's end, `&` (a query string's next field), a backslash, a cut mark `…`. */
export const VALUE_END = charClass(`${STOPS}()[]{},;&\\\u2026`);
/**
 * What ends a quoted value before its closing quote: a stop (a blank: a quoted sentence is no secret's value; a
 * quote; an angle bracket) or a cut mark `…`. Not `& ; , ( ) [ ] { } \`, which a generated password may hold.
 */
const QUOTED_VALUE_END = charClass(`${STOPS}\u2026`);
/** The most characters a quoted value is read for its closing quote (a value's judged head is no longer). Exported for tests. */
export const QUOTED_MAX = 256;

/**
 * Where a value opened by `quote` at `from` ends if it runs to its closing quote: that quote's index, when it comes
 * within QUOTED_MAX characters with no character of QUOTED_VALUE_END before it (so never past a line break); else -1,
 * and the value ends where an unquoted one does. Reads at most QUOTED_MAX characters, and no further than the next
 * quote, so reads from many openings on a line stay linear.
 */
export function quotedEnd(text: string, from: number, quote: string): number {
	const limit = Math.min(text.length, from + QUOTED_MAX);
	let i = from;
	while (i < limit && !isIn(QUOTED_VALUE_END, text, i)) i++;
	return i < limit && i > from && text.charAt(i) === quote ? i : -1;
}

/** What ends a URL's authority: a stop, the path's, query's or fragment's start, a backslash, a cut mark `…`. */
export const AUTHORITY_END = charClass(`${STOPS}/?#\\\u2026`);

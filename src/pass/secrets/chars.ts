// Character classes of tokens, as tables: a run of a class is read by a loop, never by a pattern that can backtrack.

/** An ASCII character class: `has[code]` is 1 for its members. */
export interface CharClass {
	readonly has: Uint8Array;
}

/** The class of the characters of `members` (ranges as `a-z`). */
export function charClass(members: string): CharClass {
	const has = new Uint8Array(128);
	for (let i = 0; i < members.length; i++) {
		const from = members.charCodeAt(i);
		if (members.charAt(i + 1) === "-" && i + 2 < members.length) {
			for (let c = from; c <= members.charCodeAt(i + 2); c++) has[c] = 1;
			i += 2;
		} else has[from] = 1;
	}
	return { has };
}

/** True when the character at `at` is in `cls` (false past either end). */
export function isIn(cls: CharClass, text: string, at: number): boolean {
	const code = text.charCodeAt(at);
	return code < 128 && cls.has[code] === 1;
}

/** Where the run of `cls` that starts at `from` ends (the first index not in it). */
export function runEnd(cls: CharClass, text: string, from: number): number {
	let i = from;
	while (i < text.length && isIn(cls, text, i)) i++;
	return i;
}

/** Where the run of `cls` that ends just before `to` starts, reading back at most `max` characters. */
export function runStart(cls: CharClass, text: string, to: number, max: number): number {
	let i = to;
	while (i > 0 && to - i < max && isIn(cls, text, i - 1)) i--;
	return i;
}

/**
 * Class runs of one text, remembered: a run read once is not read again from a position inside it, so scans that
 * start at many places in one long run (a run of prefixes) stay linear.
 */
export class Runs {
	private readonly last = new Map<CharClass, { readonly from: number; readonly end: number }>();
	constructor(readonly text: string) {}
	/** Where the run of `cls` that starts at `from` ends. */
	end(cls: CharClass, from: number): number {
		const known = this.last.get(cls);
		if (known !== undefined && from >= known.from && from < known.end) return known.end;
		const end = runEnd(cls, this.text, from);
		if (end > from) this.last.set(cls, { from, end });
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

/**
 * Terminal escape sequences, which a reader never sees as text: CSI (colours, cursor moves), OSC, DCS, PM and APC
 * strings up to their terminator or the line's end, other two-character escapes, their 8-bit C1 forms, and CSI
 * written out as text (`\x1b[31m`, `\033[0m`, `\e[1m`), as scripts and logs print it.
 */
const ESCAPES =
	/\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|(?:\u001b[\]P^_X]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c\n]*(?:\u0007|\u001b\\|\u009c)?|\u001b[ -/]*[0-~]|\\(?:x1b|u001b|033|e)\[[0-?]*[ -/]*[@-~]/g;

/** The text as a reader sees it in a terminal: escape sequences removed, so `\x1b[31mRED` reads `RED`. */
export function readable(text: string): string {
	return text.replace(ESCAPES, "");
}

/** Characters words are made of: letters, digits, combining marks, and emoji with their modifiers and joiners. */
const WORD_RUN = /[\p{L}\p{N}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u200d]+/gu;
const ASCII = /^[\u0000-\u007f]*$/;
const segmenter = new Intl.Segmenter("und", { granularity: "word" });

/**
 * The words of a text as a reader sees it, lowercased: runs of word characters (`wrap-ansi.ts` is `wrap`, `ansi`,
 * `ts`), each split again on Unicode word boundaries, so a word of a script written without spaces stands alone
 * and an emoji is a word of its own. A run of ASCII letters and digits is one word by those rules already.
 */
export function words(text: string): string[] {
	const out: string[] = [];
	for (const [run] of readable(text).toLowerCase().matchAll(WORD_RUN)) {
		if (ASCII.test(run)) out.push(run);
		else segmentRun(run, out);
	}
	return out;
}

/**
 * The most characters of a run segmented at once. ICU's word segmenter takes superlinear time on a long run with
 * no break in it (64K characters of Chinese take 0.6 s, 128K take 32 s), and runs come from strangers' text, so a
 * longer run is segmented a window at a time, which keeps the cost linear. Exported for tests.
 */
export const WINDOW = 1000;

/**
 * Pushes the words of a run, segmented a window at a time. The last word of a window may be cut by its edge, so it
 * is left to the next window, which starts where that word does; a window that is one word is cut at its end. An
 * edge never falls inside a surrogate pair, where the segmenter would see a break (`👍🏽` cut off its skin tone).
 */
function segmentRun(run: string, out: string[]): void {
	for (let start = 0; start < run.length; ) {
		let end = Math.min(start + WINDOW, run.length);
		if (end < run.length && isLowSurrogate(run.charCodeAt(end))) end--;
		let last: Intl.SegmentData | undefined;
		for (const part of segmenter.segment(run.slice(start, end))) {
			if (last !== undefined) out.push(last.segment);
			last = part;
		}
		if (last !== undefined && last.index > 0 && end < run.length) start += last.index;
		else {
			if (last !== undefined) out.push(last.segment);
			start = end;
		}
	}
}

/** Whether a code unit is the second half of a surrogate pair, where a window must not end. */
function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}

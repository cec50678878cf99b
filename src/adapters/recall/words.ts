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
		else for (const { segment } of segmenter.segment(run)) out.push(segment);
	}
	return out;
}

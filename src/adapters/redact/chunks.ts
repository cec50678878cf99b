// Where one long text is cut into pieces the redactor reads apart, giving the event loop a turn between them: only
// where no secret and nothing a finder reads can stand across the cut, so the pieces find what the whole text finds.
// And where the lines handed to secretlint are cut into windows it lints apart.

import { originalRange, privateKeySpans, type View, viewRange } from "../../pass/secrets/index.js";
import { LINT_TRIGGER } from "./prefilter.js";

/** A stretch [start, end) of a view's text. */
export interface Range {
	readonly start: number;
	readonly end: number;
}

/** True when the view's line break at `at` stands as itself in the original (no escape decoded to it). */
function isRealBreak(view: View, at: number): boolean {
	if (view.origin === undefined) return true;
	const from = view.origin.starts[at] ?? -1;
	return view.origin.ends[at] === from + 1;
}

/**
 * The private key blocks of the view, and those of the text's reading with its terminal escapes kept (`kept`, where
 * the text holds an escape that may have taken text) placed in the view, in order of their starts.
 */
function keyBlocks(view: View, kept: View | undefined): Range[] {
	const blocks: Range[] = privateKeySpans(view.text);
	if (kept !== undefined)
		for (const s of privateKeySpans(kept.text)) {
			const at = originalRange(kept, s.start, s.end);
			blocks.push(viewRange(view, at.start, at.end));
		}
	return blocks.sort((a, b) => a.start - b.start);
}

/**
 * The view's text in ranges of about `size` characters or more, each ending just after a line break, and the last
 * at the text's end. A cut is made only after a line break that stands as itself in the original, outside every
 * private key block of the view or of `kept` (a block and the body lines it takes stay whole), and after a line
 * with no lint trigger (a name the lint reads may take its value from the next line). Every other finder reads
 * within a line, and the netrc finder at most READS_BACK characters back, which the redactor reads again before
 * each range; copies are whole tokens, and a line break ends every token. Linear in the text.
 */
export function chunkRanges(view: View, size: number, kept?: View): Range[] {
	const text = view.text;
	if (text.length <= size) return [{ start: 0, end: text.length }];
	// Found at the first line break a cut may follow: a text with none (one long line) is not read for them.
	let keys: Range[] | undefined;
	const ranges: Range[] = [];
	let start = 0;
	let next = 0;
	// The furthest end of the key blocks that start before the cut looked at.
	let keyEnd = 0;
	let at = text.indexOf("\n", start + size - 1);
	while (at >= 0 && at + 1 < text.length) {
		const cut = at + 1;
		keys ??= keyBlocks(view, kept);
		for (; next < keys.length && (keys[next]?.start ?? cut) < cut; next++)
			keyEnd = Math.max(keyEnd, keys[next]?.end ?? 0);
		const line = text.slice(text.lastIndexOf("\n", at - 1) + 1, at);
		if (keyEnd <= cut && isRealBreak(view, at) && !LINT_TRIGGER.test(line)) {
			ranges.push({ start, end: cut });
			start = cut;
			at = text.indexOf("\n", start + size - 1);
		} else at = text.indexOf("\n", cut);
	}
	ranges.push({ start, end: text.length });
	return ranges;
}

/**
 * The lines of `text` (secretlint's candidate lines) in windows of about `size` characters or more, each of whole
 * lines (a window ends before a line break) and of at least three lines where there are, each window after the first
 * opening at the start of the one before's last two lines. A match of the lint spans at most three of these lines (a
 * name, a line holding only its `=` or nothing, and the value: a line is a candidate only with a trigger or after
 * one), and every three lines in a row stand whole in some window. One kind of match may differ from the whole
 * text's: where the AWS rule's matches chain (a value that ends in the next one's name), which of them it takes
 * depends on where its reading starts. A line stands in at most three windows: linting them all is linear in the
 * text.
 */
export function lintWindows(text: string, size: number): Range[] {
	const windows: Range[] = [];
	let start = 0;
	for (;;) {
		let lines = 0;
		// The starts of the window's last two lines, and of the line after the window's last.
		let secondLast = start;
		let last = start;
		let next = start;
		let end: number;
		do {
			const lineBreak = text.indexOf("\n", next);
			end = lineBreak < 0 ? text.length : lineBreak;
			secondLast = last;
			last = next;
			next = end + 1;
			lines++;
		} while (end < text.length && (lines < 3 || end - start < size));
		windows.push({ start, end });
		if (end === text.length) return windows;
		start = secondLast;
	}
}

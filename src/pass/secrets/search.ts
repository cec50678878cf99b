/**
 * The matches of one global pattern in one text, one at a time, like `text.matchAll(pattern)` but without a copy of
 * the pattern: the place in the text is kept here and handed to the pattern before each look. So the finders, paused
 * between steps while another redaction runs, can share their module's patterns, and a finder costs no pattern built
 * per text (building the vendor prefixes' pattern costs more than searching most texts with it).
 */
export class Search {
	/** Where the next look starts; a finder moves it on past what it has read. */
	from = 0;

	/** `pattern` must be global: a pattern without the flag ignores the place it is given. */
	constructor(
		private readonly pattern: RegExp,
		private readonly text: string,
	) {
		if (!pattern.global) throw new Error(`Search: /${pattern.source}/ is not global`);
	}

	/** The next match from `from`, with `from` moved past it (past an empty one by a character); null at the end. */
	next(): RegExpExecArray | null {
		this.pattern.lastIndex = this.from;
		const match = this.pattern.exec(this.text);
		this.from = match === null ? this.text.length : Math.max(this.pattern.lastIndex, match.index + 1);
		return match;
	}
}

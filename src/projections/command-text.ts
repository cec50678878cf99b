import type { Command, State } from "../reducers/index.js";

/** How much of a command's text the summary and the views show beside a value or an error. Exported for tests. */
export const COMMAND_CHARS = 60;

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

/** A leading `cd DIR &&` (or `;`): where a command ran says less about its value or error than what it ran. */
const LEADING_CD = /^cd\s+(?:"[^"]*"|'[^']*'|([^\s;&|]+))\s*(?:&&|;)\s*/;

/** A folder taken as a bare word though it opens with a quote mark: the quote's close may lie past a window's end. */
const OPENS_QUOTE = /^["']/;

/** What is left of a line past its leading `cd DIR &&` clauses (or `;`). */
interface PastCds {
	/** The line without them, one after another, unless nothing would be left. */
	readonly line: string;
	/** Whether a folder left out was a bare word that opens with a quote mark (`cd "a;b" && …` cut after `a;`). */
	readonly bareQuote: boolean;
}

function pastLeadingCds(line: string): PastCds {
	let kept = line;
	let bareQuote = false;
	for (let clause = LEADING_CD.exec(kept); clause !== null; clause = LEADING_CD.exec(kept)) {
		const rest = kept.slice(clause[0].length);
		if (rest === "") break;
		bareQuote ||= OPENS_QUOTE.test(clause[1] ?? "");
		kept = rest;
	}
	return { line: kept, bareQuote };
}

/**
 * A command's text on one line, a leading `cd DIR &&` left out, cut to `COMMAND_CHARS` with "…" where it is
 * longer, never half a surrogate pair. The whole text stays in the ledger (`longhaul_recall` of its C<n>).
 * A command may carry a heredoc of megabytes: only its start is put on one line, twice the cut's length and twice
 * that as needed, until what is left past the `cd`s is longer than the cut, starts no `cd` the window may have cut
 * short, and no folder left out is a quote the window may have cut before its close (a stretch of the text on one
 * line, trimmed, is a start of the whole on one line). A command of nothing but `cd` clauses is put on one line
 * about three times over, the windows and then the whole.
 */
export function cutCommand(text: string): string {
	for (let units = 2 * COMMAND_CHARS; ; units *= 2) {
		const whole = units >= text.length;
		const { line, bareQuote } = pastLeadingCds((whole ? text : text.slice(0, units)).replace(/\s+/g, " ").trim());
		if (!whole && (line.length <= COMMAND_CHARS || /^cd\s/.test(line) || bareQuote)) continue;
		if (line.length <= COMMAND_CHARS) return line;
		const end = isHighSurrogate(line.charCodeAt(COMMAND_CHARS - 2)) ? COMMAND_CHARS - 2 : COMMAND_CHARS - 1;
		return `${line.slice(0, end)}…`;
	}
}

/** The state's commands by id (the first one, should an id repeat). */
export function commandsById(state: State): ReadonlyMap<string, Command> {
	const byId = new Map<string, Command>();
	for (const c of state.commands) if (!byId.has(c.id)) byId.set(c.id, c);
	return byId;
}

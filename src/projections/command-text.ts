import type { Command, State } from "../reducers/index.js";

/** How much of a command's text the summary and the views show beside a value or an error. Exported for tests. */
export const COMMAND_CHARS = 60;

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

/** A leading `cd DIR &&` (or `;`): where a command ran says less about its value or error than what it ran. */
const LEADING_CD = /^cd\s+(?:"[^"]*"|'[^']*'|[^\s;&|]+)\s*(?:&&|;)\s*/;

/** The line without its leading `cd DIR &&` (or `;`), one after another, unless nothing would be left. */
function withoutLeadingCd(line: string): string {
	let kept = line;
	let rest = kept.replace(LEADING_CD, "");
	while (rest !== kept && rest !== "") {
		kept = rest;
		rest = kept.replace(LEADING_CD, "");
	}
	return kept;
}

/**
 * A command's text on one line, a leading `cd DIR &&` left out, cut to `COMMAND_CHARS` with "…" where it is
 * longer, never half a surrogate pair. The whole text stays in the ledger (`longhaul_recall` of its C<n>).
 * A command may carry a heredoc of megabytes: only its start is put on one line, twice the cut's length and twice
 * that as needed, until what is left past the `cd`s is longer than the cut and starts no `cd` the start may have cut
 * short (a stretch of the text on one line, trimmed, is a start of the whole on one line).
 */
export function cutCommand(text: string): string {
	for (let units = 2 * COMMAND_CHARS; ; units *= 2) {
		const whole = units >= text.length;
		const line = withoutLeadingCd((whole ? text : text.slice(0, units)).replace(/\s+/g, " ").trim());
		if (!whole && (line.length <= COMMAND_CHARS || /^cd\s/.test(line))) continue;
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

import type { Command, State } from "../reducers/index.js";

/** How much of a command's text the summary and the views show beside a value or an error. Exported for tests. */
export const COMMAND_CHARS = 60;

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

/** A leading `cd DIR &&` (or `;`): where a command ran says less about its value or error than what it ran. */
const LEADING_CD = /^cd\s+(?:"[^"]*"|'[^']*'|[^\s;&|]+)\s*(?:&&|;)\s*/;

/**
 * A command's text on one line, a leading `cd DIR &&` left out, cut to `COMMAND_CHARS` with "…" where it is
 * longer, never half a surrogate pair. The whole text stays in the ledger (`longhaul_recall` of its C<n>).
 */
export function cutCommand(text: string): string {
	let line = text.replace(/\s+/g, " ").trim();
	let rest = line.replace(LEADING_CD, "");
	while (rest !== line && rest !== "") {
		line = rest;
		rest = line.replace(LEADING_CD, "");
	}
	if (line.length <= COMMAND_CHARS) return line;
	const end = isHighSurrogate(line.charCodeAt(COMMAND_CHARS - 2)) ? COMMAND_CHARS - 2 : COMMAND_CHARS - 1;
	return `${line.slice(0, end)}…`;
}

/** The state's commands by id (the first one, should an id repeat). */
export function commandsById(state: State): ReadonlyMap<string, Command> {
	const byId = new Map<string, Command>();
	for (const c of state.commands) if (!byId.has(c.id)) byId.set(c.id, c);
	return byId;
}

import { type Command, isOpen, type LedgerError } from "../reducers/index.js";
import { cutCommand } from "./command-text.js";

// One drawing of an error for every reader: the summary's "Open errors", the `/longhaul` views, `longhaul_recall`,
// the diff prompt's ledger and `show(ref)`. Each shows what its place needs (the span, the status, the command's
// text) but in the same order and words, so a change to how an error reads changes all of them together.

/** What an error line shows beside the error's id, tool and head. */
export interface ErrorFacets {
	/** The state's commands: given, the origin shows the raising command's text (cut) after its id. */
	readonly commands?: ReadonlyMap<string, Command>;
	/** The span that raised it (`span N`). */
	readonly span?: boolean;
	/** `open`, or `fixed by` what fixed it. */
	readonly status?: boolean;
}

/**
 * What an error line reads of an error: a ledger error, or a span record's copy of one, which keeps only its id, tool
 * and head (a facet whose field is absent is not shown).
 */
type ShownError = Pick<LedgerError, "id" | "tool" | "head"> &
	Partial<Pick<LedgerError, "command" | "span" | "fixedBy">>;

/** An error's origin on one line: its tool, and its command's id (and text, cut, given the commands) when one raised it. */
function errorOrigin(e: ShownError, commands?: ReadonlyMap<string, Command>): string {
	const tool = e.tool.replace(/\s+/g, " ").trim();
	if (e.command === null || e.command === undefined) return tool;
	const text = commands?.get(e.command)?.command;
	return `${tool} ${e.command}${text === undefined ? "" : `: ${cutCommand(text)}`}`;
}

/** An error's id and, in parentheses, its origin and the facets asked for: `E2 (bash C5: npm test, span 3, open)`. */
export function errorLabel(e: ShownError, facets: ErrorFacets): string {
	const parts = [errorOrigin(e, facets.commands)];
	if (facets.span === true && e.span !== undefined) parts.push(`span ${e.span}`);
	const fixedBy = e.fixedBy;
	if (facets.status === true && fixedBy !== undefined) parts.push(isOpen({ fixedBy }) ? "open" : `fixed by ${fixedBy}`);
	return `${e.id} (${parts.join(", ")})`;
}

/** An error's label and its head (`head` as its place shows it: on one line, cut, or whole). */
export function errorLine(e: ShownError, facets: ErrorFacets, head: string = e.head): string {
	return `${errorLabel(e, facets)}: ${head}`;
}

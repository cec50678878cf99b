import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";
import type { Event } from "../../../events/index.js";
import type { LedgerError } from "../../../reducers/index.js";

/** An expectation check: the model may excuse one with a one-sentence reason, which the span record keeps. */
export type ExpectationCheck = "modified-file-named" | "unfixed-error-placed" | "resume-set";

/** An expectation the model excused, and its reason. */
export interface Excused {
	readonly check: ExpectationCheck;
	readonly reason: string;
}

/** An expectation an answer does not meet, with the line that asks for it. */
export interface Unmet {
	readonly check: ExpectationCheck;
	readonly note: string;
}

/** An error of the span that no later run fixed. */
export type UnfixedError = Pick<LedgerError, "id" | "head">;

/** The longest excuse kept: one sentence. Exported for tests. */
export const EXCUSE_CHARS = 240;

/** The files the span modified, from its ledger. */
export function modifiedFiles(ledger: readonly Event[]): string[] {
	const files = ledger.flatMap((e) => (e.type === "files-touched" ? e.data.modified : []));
	return [...new Set(files)];
}

/** The errors the span recorded that the same span did not fix. */
export function unfixedErrors(ledger: readonly Event[]): UnfixedError[] {
	const fixed = new Set(ledger.flatMap((e) => (e.type === "error-fixed" ? [e.data.error] : [])));
	return ledger.flatMap((e) =>
		e.type === "error-recorded" && !fixed.has(e.data.id) ? [{ id: e.data.id, head: e.data.head }] : [],
	);
}

function fileName(path: string): string {
	return (
		path
			.split(/[\\/]/)
			.filter((part) => part !== "")
			.at(-1) ?? path
	);
}

/** When the span modified files, the narrative names at least one of them, by its path or its file name. */
export function modifiedFileNamed(narrative: string, modified: readonly string[]): Unmet | undefined {
	if (modified.length === 0 || modified.some((path) => narrative.includes(path) || narrative.includes(fileName(path))))
		return undefined;
	const shown = modified.slice(0, 5).join(", ");
	return { check: "modified-file-named", note: `the narrative names none of the files this span modified (${shown})` };
}

/** Every error the span left unfixed is the evidence of a dead end or listed as an open error. */
export function unfixedErrorsPlaced(
	deadEndEvidence: readonly string[],
	openErrors: readonly string[],
	unfixed: readonly UnfixedError[],
): Unmet | undefined {
	const placed = new Set([...deadEndEvidence, ...openErrors]);
	const missing = unfixed.filter((error) => !placed.has(error.id)).map((error) => error.id);
	if (missing.length === 0) return undefined;
	return {
		check: "unfixed-error-placed",
		note: `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not fixed: cite each in a dead end's evidence or list it in "openErrors"`,
	};
}

/** Resume is set: the Now section says what is in progress and what comes next. */
export function resumeSet(now: string | undefined): Unmet | undefined {
	return now === undefined
		? { check: "resume-set", note: '"now" is empty: say what is in progress and what comes next' }
		: undefined;
}

/** Sentence ends followed by more text: a second sentence. */
const SECOND_SENTENCE = /[.!?]["')\]\u201d]*\s+\S/;

/** An excuse for an unmet check: one sentence, on one line, within `EXCUSE_CHARS`; else the note that says why not. */
export function readExcuse(check: ExpectationCheck, text: string): Either<string, Excused> {
	const reason = text.trim();
	if (reason === "") return E.left('"excuse" is empty: give one sentence, or meet the check');
	if (reason.length > EXCUSE_CHARS || /\n/.test(reason) || SECOND_SENTENCE.test(reason))
		return E.left(`"excuse" must be one sentence of at most ${EXCUSE_CHARS} characters`);
	return E.right({ check, reason });
}

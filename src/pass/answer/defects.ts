/** The default of `retryNoteChars` (docs/contracts.md, Inside pi): the room for a retry note, and for questions. */
export const RETRY_NOTE_CHARS = 2000;

/** What a format defect is about; codes go to the log, never message text. */
export type DefectCode =
	| "no-json"
	| "json-invalid"
	| "forbidden-key"
	| "schema"
	| "label-invalid"
	| "unlabeled"
	| "words-missing"
	| "words-inside-word"
	| "words-unwritten"
	| "narrative-missing";

/** A format defect the model can fix: its code, the message it concerns if any, and one line for the retry note. */
export interface Defect {
	readonly code: DefectCode;
	readonly msg: string | null;
	readonly note: string;
}

/** Why an item of the answer was left out; codes only, so they can be logged. */
export type DropReason =
	| "outside-span"
	| "duplicate-label"
	| "empty-message"
	| "excerpt-words"
	| "pick-words"
	| "self-lift"
	| "later-target"
	| "lift-check"
	| "unknown-target"
	| "replaced-target"
	| "unknown-evidence"
	| "unknown-turn"
	| "value-not-in-turn"
	| "value-is-secret"
	| "empty-text"
	| "past-count"
	| "cut-text";

/** An item left out: where it was (ids and positions, never text) and why. */
export interface Dropped {
	readonly item: string;
	readonly reason: DropReason;
}

/** A defect value. */
export function defect(code: DefectCode, note: string, msg: string | null = null): Defect {
	return { code, msg, note: note.replace(/\s+/g, " ").trim() };
}

/**
 * The retry note: one line per defect, each shown whole or not at all, within `maxChars` (`retryNoteChars`).
 * Empty when not even the first line fits.
 */
export function retryNote(defects: readonly Defect[], maxChars: number = RETRY_NOTE_CHARS): string {
	const lines: string[] = [];
	let used = 0;
	for (const { note } of defects) {
		const line = `- ${note}`;
		const cost = line.length + (lines.length === 0 ? 0 : 1);
		if (used + cost > maxChars) break;
		lines.push(line);
		used += cost;
	}
	return lines.join("\n");
}

import { ANSWER_BOUNDS, type RawAnswer } from "./answer.js";
import type { Dropped } from "./defects.js";

// A single-mode answer read within the relaxed bounds (`readRelaxedAnswer`) is brought within the schema's here,
// so that what is stored fits it (a deliberate extension of the retry: docs/how-it-works.md, One pass). Lists keep
// their first items; the model's own prose is cut at a word with "…". Labels, words, ids and value strings are
// never touched: an answer past their bounds is not read, and is retried.

/** The mark a cut text ends with. Exported for tests. */
export const CUT_MARK = "…";

/** The last offset at or before `at` that splits no surrogate pair. */
function codePointStart(text: string, at: number): number {
	const code = text.charCodeAt(at);
	return at > 0 && code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

/**
 * The text within `max` characters: whole when it fits, else cut where a word ends (inside one long word, at a code
 * point) with "…" after it. Never throws; `max` below 1 gives "…". Exported for tests.
 */
export function cutProse(text: string, max: number): string {
	if (text.length <= max) return text;
	const room = codePointStart(text, Math.max(0, max - CUT_MARK.length));
	const head = text.slice(0, room);
	// A cut where the next character is whitespace ends a word; else back to the last whitespace, if any.
	const atWord = /\s/u.test(text.charAt(room)) ? head : head.replace(/\S+$/u, "");
	const kept = (atWord.trim() === "" ? head : atWord).replace(/[\s,;:]+$/u, "");
	return `${kept}${CUT_MARK}`;
}

/** An answer within the schema's bounds, and what was cut or left out to get there (one item each). */
export interface Repaired {
	readonly answer: RawAnswer;
	readonly cuts: readonly Dropped[];
}

type Prose = "objective" | "narrative" | "now";
const PROSE: readonly Prose[] = ["objective", "narrative", "now"];

/** Brings a relaxed answer within `ANSWER_BOUNDS`; an answer already within them comes back equal to itself. */
export function repairAnswer(answer: RawAnswer): Repaired {
	const cuts: Dropped[] = [];
	const first = <T>(kind: "decisions" | "deadEnds" | "values", items: readonly T[]): T[] => {
		const max = ANSWER_BOUNDS[kind];
		for (let i = max; i < items.length; i++) cuts.push({ item: `${kind}[${i}]`, reason: "past-count" });
		return items.slice(0, max);
	};
	const texts = (kind: "decisions" | "deadEnds") =>
		first(kind, answer[kind]).map((finding, i) => {
			if (finding.text.length <= ANSWER_BOUNDS.text) return finding;
			cuts.push({ item: `${kind}[${i}].text`, reason: "cut-text" });
			return { ...finding, text: cutProse(finding.text, ANSWER_BOUNDS.text) };
		});
	const repaired: RawAnswer = {
		...answer,
		decisions: texts("decisions"),
		deadEnds: texts("deadEnds"),
		values: first("values", answer.values),
	};
	for (const key of PROSE) {
		const text = answer[key];
		if (text === undefined || text.length <= ANSWER_BOUNDS[key]) continue;
		cuts.push({ item: key, reason: "cut-text" });
		repaired[key] = cutProse(text, ANSWER_BOUNDS[key]);
	}
	return { answer: repaired, cuts };
}

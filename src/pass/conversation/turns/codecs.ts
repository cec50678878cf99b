import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { ANSWER_BOUNDS, decodeAnswer, jsonObjectIn, type RawAnswer, type RawLabel } from "../../answer/index.js";
import { SECTION_KEYS, type Section } from "./sections.js";

/** An integrity failure: the item it concerns (a message id, a position, a section), a code for the log, a note. */
export interface Failure {
	readonly item: string;
	readonly code: string;
	readonly note: string;
}

/** A decision or dead end as the model gave it, decoded and bounded, its evidence not yet checked. */
export type RawFinding = RawAnswer["decisions"][number];

/** One section's answer, decoded; items that failed their codec are `broken`, the rest are kept. */
export type SectionAnswer =
	| { readonly section: "narrative"; readonly narrative: string | undefined; readonly excuse: string | undefined }
	| { readonly section: "objective"; readonly objective: string | undefined }
	| { readonly section: "labels"; readonly labels: readonly RawLabel[]; readonly broken: readonly Failure[] }
	| {
			readonly section: "findings";
			readonly decisions: readonly RawFinding[];
			readonly deadEnds: readonly RawFinding[];
			readonly openErrors: readonly string[];
			readonly excuse: string | undefined;
			readonly broken: readonly Failure[];
	  }
	| { readonly section: "now"; readonly now: string | undefined; readonly excuse: string | undefined };

/** The labels section's answer, and the answer of any other section. */
export type LabelsAnswer = Extract<SectionAnswer, { section: "labels" }>;
export type TextAnswer = Exclude<SectionAnswer, { section: "labels" }>;

/** A text field: a string, or null or nothing for none. */
const OptionalText = t.union([t.string, t.null, t.undefined]);
const TextFields = t.type({
	narrative: OptionalText,
	objective: OptionalText,
	now: OptionalText,
	excuse: OptionalText,
});
const TEXT_KEYS: ReadonlySet<string> = new Set(Object.keys(TextFields.props));
const IdList = t.array(t.string);

/** `note` is one line already: a defect's note, or one written here. */
function failure(item: string, code: string, note: string): Failure {
	return { item, code, note };
}

/** Blank is none; the narrative and an excuse are one line. */
function text(u: string | null | undefined, oneLine: boolean): string | undefined {
	if (u === null || u === undefined) return undefined;
	const trimmed = (oneLine ? u.replace(/\s+/g, " ") : u).trim();
	return trimmed === "" ? undefined : trimmed;
}

/** An omitted or null list is empty; a single item given bare is a list of one. */
function list(u: unknown): unknown[] | undefined {
	if (u === undefined || u === null) return [];
	if (Array.isArray(u)) return u;
	return typeof u === "object" || typeof u === "string" ? [u] : undefined;
}

/** Each item decoded on its own through the single mode's codec, so one bad item does not sink the others. */
function items<A>(
	key: "labels" | "decisions" | "deadEnds",
	value: unknown,
	max: number,
	pick: (answer: RawAnswer) => readonly A[],
): { kept: A[]; broken: Failure[] } {
	const all = list(value);
	if (all === undefined) return { kept: [], broken: [failure(key, "schema", `"${key}" must be a list`)] };
	const kept: A[] = [];
	const broken: Failure[] = [];
	all.forEach((item, index) => {
		const at = `${key}[${index}]`;
		if (index >= max) {
			if (index === max) broken.push(failure(at, "too-many", `"${key}" holds more than ${max} items`));
			return;
		}
		const decoded = decodeAnswer({ [key]: [item] });
		if (E.isRight(decoded)) kept.push(...pick(decoded.right));
		else broken.push(failure(at, "schema", decoded.left.note.replace(`${key}[0]`, at)));
	});
	return { kept, broken };
}

function openErrors(u: unknown): Either<Failure, string[]> {
	const ids = typeof u === "string" ? u.split(/[\s,]/).filter((id) => id !== "") : (list(u) ?? u);
	return IdList.is(ids)
		? E.right(ids.map((id) => id.trim()))
		: E.left(failure("openErrors", "schema", '"openErrors" must be a list of error ids (E<n>)'));
}

function readObject(section: Section, answer: Record<string, unknown>): Either<Failure, SectionAnswer> {
	const own = Object.fromEntries(SECTION_KEYS[section].map((key) => [key, answer[key]]));
	const fields = TextFields.decode(own);
	if (E.isLeft(fields)) {
		const key = SECTION_KEYS[section].find((k) => TEXT_KEYS.has(k) && !OptionalText.is(own[k])) ?? section;
		return E.left(failure(key, "schema", `"${key}" must be a string`));
	}
	const { narrative, objective, now, excuse } = fields.right;
	switch (section) {
		case "narrative":
			return E.right({ section, narrative: text(narrative, true), excuse: text(excuse, true) });
		case "objective":
			return E.right({ section, objective: text(objective, false) });
		case "now":
			return E.right({ section, now: text(now, false), excuse: text(excuse, true) });
		case "labels": {
			const labels = items("labels", answer.labels, ANSWER_BOUNDS.labels, (a) => a.labels);
			return E.right({ section, labels: labels.kept, broken: labels.broken });
		}
		case "findings": {
			const decisions = items("decisions", answer.decisions, ANSWER_BOUNDS.decisions, (a) => a.decisions);
			const deadEnds = items("deadEnds", answer.deadEnds, ANSWER_BOUNDS.deadEnds, (a) => a.deadEnds);
			const open = openErrors(answer.openErrors);
			return E.right({
				section,
				decisions: decisions.kept,
				deadEnds: deadEnds.kept,
				openErrors: E.isRight(open) ? open.right : [],
				excuse: text(excuse, true),
				broken: [...decisions.broken, ...deadEnds.broken, ...(E.isLeft(open) ? [open.left] : [])],
			});
		}
	}
}

/** Finds and decodes one section's answer in a reply; only that section's keys are read. Never throws. */
export function readSection(section: "labels", reply: string): Either<Failure, LabelsAnswer>;
export function readSection(section: Exclude<Section, "labels">, reply: string): Either<Failure, TextAnswer>;
export function readSection(section: Section, reply: string): Either<Failure, SectionAnswer> {
	const found = jsonObjectIn(reply, SECTION_KEYS[section]);
	if (E.isLeft(found)) return E.left(failure(section, found.left.code, found.left.note));
	return readObject(section, found.right);
}

import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import * as t from "io-ts";
import { isRecord, UserRef } from "../../events/index.js";
import { type Defect, defect } from "./defects.js";
import { jsonObjectIn } from "./json-in-text.js";
import { formatLabel, parseLabel } from "./labels.js";

// ---------------------------------------------------------------------------------------------------------------
// Bounds: every list and string of an answer has one, and the prompt states each (see `boundsText`).
// ---------------------------------------------------------------------------------------------------------------

/** The bounds of the answer schema (docs/contracts.md, The diff answer). */
export const ANSWER_BOUNDS = {
	/** Labels in one answer: a chunk's span messages plus up to 30 carried ones fit well inside. */
	labels: 200,
	/** A label string (`rule and lifts R1, R6` is 21). */
	label: 200,
	/** A rule's exact words, for a message over 600 characters. */
	words: 1200,
	decisions: 20,
	deadEnds: 20,
	/** A decision's or dead end's text. */
	text: 500,
	/** Evidence ids per decision or dead end, and the length of one id. */
	evidence: 20,
	evidenceId: 16,
	values: 20,
	valueName: 100,
	value: 200,
	objective: 500,
	narrative: 300,
	now: 1200,
} as const;

/** A bound for every part of the answer. */
type Bounds = { readonly [K in keyof typeof ANSWER_BOUNDS]: number };

/**
 * The parts code can bring back within their bounds: lists that keep their first items, and the model's own prose,
 * cut at a word. Labels, words, ids and value strings are never cut or dropped, so their bounds never relax.
 */
const REPAIRABLE = ["decisions", "deadEnds", "values", "text", "objective", "narrative", "now"] as const;

/** The bounds a single-mode answer is read with before it is repaired: each repairable one twice the schema's. */
export const RELAXED_BOUNDS: Bounds = {
	...ANSWER_BOUNDS,
	...Object.fromEntries(REPAIRABLE.map((key) => [key, ANSWER_BOUNDS[key] * 2])),
};

/** A codec known by its validation alone: an answer is only ever decoded, and its guard is that decode. */
function checked<A>(name: string, validate: t.Validate<unknown, A>): t.Type<A, A, unknown> {
	const type: t.Type<A, A, unknown> = new t.Type(name, (u): u is A => E.isRight(type.decode(u)), validate, t.identity);
	return type;
}

function boundedString(max: number): t.Type<string, string, unknown> {
	return checked(`a string of at most ${max} characters`, (u, c) =>
		typeof u === "string" && u.length <= max ? t.success(u) : t.failure(u, c),
	);
}

function boundedArray<C extends t.Mixed>(item: C, max: number): t.Type<t.TypeOf<C>[], t.TypeOf<C>[], unknown> {
	const list = t.array(item);
	return checked(`a list of at most ${max} items`, (u, c) =>
		Array.isArray(u) && u.length > max ? t.failure(u, c) : list.validate(u, c),
	);
}

const MessageRef = checked<string>("a message id u<n>", (u, c) => (UserRef.is(u) ? t.success(u) : t.failure(u, c)));

/** An object with these keys and no other: an unknown key fails the decode instead of being dropped. */
function closed<R extends t.Props, O extends t.Props>(name: string, required: R, optional: O) {
	const inner = t.intersection([t.type(required), t.partial(optional)]);
	const keys = new Set([...Object.keys(required), ...Object.keys(optional)]);
	return checked<t.TypeOf<typeof inner>>(name, (u, c) => {
		if (!isRecord(u)) return t.failure(u, c, `expected ${name}`);
		const key = Object.keys(u).find((k) => !keys.has(k));
		return key === undefined ? inner.validate(u, c) : t.failure(u, c, `unknown key \`${key.slice(0, 40)}\``);
	});
}

/** The diff answer (docs/contracts.md, The diff answer), strict and held to `b`. */
function answerCodec(b: Bounds) {
	const LabelItem = closed(
		"a label {msg, label, words?}",
		{ msg: MessageRef, label: boundedString(b.label) },
		{ words: boundedString(b.words) },
	);
	const Finding = closed(
		"{text, evidence}",
		{ text: boundedString(b.text), evidence: boundedArray(boundedString(b.evidenceId), b.evidence) },
		{},
	);
	const ValueItem = closed(
		"a value {name, value, turn}",
		{ name: boundedString(b.valueName), value: boundedString(b.value), turn: MessageRef },
		{},
	);
	return closed(
		"the answer object",
		{
			labels: boundedArray(LabelItem, b.labels),
			decisions: boundedArray(Finding, b.decisions),
			deadEnds: boundedArray(Finding, b.deadEnds),
			values: boundedArray(ValueItem, b.values),
		},
		{
			objective: boundedString(b.objective),
			narrative: boundedString(b.narrative),
			now: boundedString(b.now),
		},
	);
}

const AnswerCodec = answerCodec(ANSWER_BOUNDS);
const RelaxedCodec = answerCodec(RELAXED_BOUNDS);

/** A decoded, normalised answer; nothing in it is verified yet. */
export type RawAnswer = t.TypeOf<typeof AnswerCodec>;
/** One label of an answer, as the model gave it (the label string in canonical form when it parsed). */
export type RawLabel = RawAnswer["labels"][number];

/** The answer's top-level keys; the JSON object that holds one of them is the answer. */
export const ANSWER_KEYS: readonly string[] = [
	"labels",
	"decisions",
	"deadEnds",
	"values",
	"objective",
	"narrative",
	"now",
];

// ---------------------------------------------------------------------------------------------------------------
// Shape slips: forms that say nothing about content, made canonical before the schema check.
// ---------------------------------------------------------------------------------------------------------------

/** The record without keys whose value is `null` (an absent optional written as null). */
function withoutNulls(u: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(Object.entries(u).filter(([, v]) => v !== null));
}

/** `u7`, `U7`, ` u7 ` all name u7 (lower case makes no other string a message id). */
function messageRef(u: unknown): unknown {
	return typeof u === "string" ? u.trim().toLowerCase() : u;
}

/** An omitted or null list is empty; a single item given bare is a list of one. */
function asList(u: unknown): unknown {
	if (u === undefined || u === null) return [];
	return isRecord(u) || typeof u === "string" ? [u] : u;
}

function labelItem(u: unknown): unknown {
	if (!isRecord(u)) return u;
	const item = withoutNulls(u);
	const label = typeof item.label === "string" ? item.label.trim().replace(/\s+/g, " ") : item.label;
	const parsed = typeof label === "string" ? parseLabel(label) : undefined;
	const words = typeof item.words === "string" && item.words.trim() === "" ? undefined : item.words;
	const { words: _words, ...rest } = item;
	return {
		...rest,
		msg: messageRef(item.msg),
		label: parsed !== undefined && E.isRight(parsed) ? formatLabel(parsed.right) : label,
		...(words === undefined ? {} : { words }),
	};
}

/** Evidence once the item's nulls are gone: absent is none; one string holds ids apart by spaces or commas. */
function evidence(u: unknown): unknown {
	if (u === undefined) return [];
	if (typeof u === "string") return u.match(/[^\s,]+/g) ?? [];
	return Array.isArray(u) ? u.map((id) => (typeof id === "string" ? id.trim() : id)) : u;
}

function findingItem(u: unknown): unknown {
	if (typeof u === "string") return { text: u.trim(), evidence: [] };
	if (!isRecord(u)) return u;
	const item = withoutNulls(u);
	return {
		...item,
		text: typeof item.text === "string" ? item.text.trim() : item.text,
		evidence: evidence(item.evidence),
	};
}

function valueItem(u: unknown): unknown {
	if (!isRecord(u)) return u;
	const item = withoutNulls(u);
	const value = Number.isFinite(item.value) ? String(item.value) : item.value;
	return {
		...item,
		name: typeof item.name === "string" ? item.name.trim() : item.name,
		value: typeof value === "string" ? value.trim() : value,
		turn: messageRef(item.turn),
	};
}

/** Optional text: null or blank is absent; the narrative is one line. */
function optionalText(u: unknown, oneLine: boolean): unknown {
	if (typeof u !== "string") return u;
	const trimmed = (oneLine ? u.replace(/\s+/g, " ") : u).trim();
	return trimmed === "" ? undefined : trimmed;
}

/** A list of the answer (bare or absent allowed, as `asList`), each item made canonical by `each`. */
function normalItems(u: unknown, each: (item: unknown) => unknown): unknown {
	const l = asList(u);
	return Array.isArray(l) ? l.map(each) : l;
}

/** The answer with its shape slips made canonical; content is never changed. */
export function normalise(answer: Record<string, unknown>): Record<string, unknown> {
	const normal: Record<string, unknown> = {
		...withoutNulls(answer),
		labels: normalItems(answer.labels, labelItem),
		decisions: normalItems(answer.decisions, findingItem),
		deadEnds: normalItems(answer.deadEnds, findingItem),
		values: normalItems(answer.values, valueItem),
	};
	for (const key of ["objective", "narrative", "now"] as const) {
		const value = optionalText(answer[key], key === "narrative");
		if (value === undefined || value === null) delete normal[key];
		else normal[key] = value;
	}
	return normal;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading an answer
// ---------------------------------------------------------------------------------------------------------------

/** Where in the answer a codec error is (`labels[2].msg`), for the defect line. */
function errorPath(error: t.ValidationError): string {
	const parts: string[] = [];
	for (const entry of error.context.slice(1)) {
		const member = entry.type instanceof t.InterfaceType || entry.type instanceof t.PartialType;
		if (member) continue;
		parts.push(/^[0-9]+$/.test(entry.key) ? `[${entry.key}]` : `${parts.length === 0 ? "" : "."}${entry.key}`);
	}
	return parts.join("") || "the answer";
}

/** One line per schema error (at most three), naming where and what was expected. */
function schemaDefect(errors: t.Errors): Defect {
	const lines = errors.slice(0, 3).map((error) => {
		// io-ts starts every context with the root, so the last entry, the type that failed, is always there.
		const expected = error.message ?? `expected ${error.context.map((entry) => entry.type.name).at(-1)}`;
		return `at ${errorPath(error)}: ${expected}`;
	});
	return defect("schema", `the answer does not fit the schema: ${lines.join("; ")}`);
}

/** Decodes an already parsed answer object, after normalising its shape slips. */
export function decodeAnswer(answer: Record<string, unknown>): Either<Defect, RawAnswer> {
	return E.mapLeft(schemaDefect)(AnswerCodec.decode(normalise(answer)));
}

/** Finds, parses, normalises and decodes the answer in a model reply; never throws. Exported for tests. */
export function readAnswer(text: string): Either<Defect, RawAnswer> {
	return pipe(jsonObjectIn(text, ANSWER_KEYS), E.chain(decodeAnswer));
}

/**
 * As `readAnswer`, but an answer that runs past the schema's bounds only where code can repair it, and at most to
 * `RELAXED_BOUNDS`, is read too, for `repairAnswer` to bring within them (single mode). A defect names the schema's
 * bounds, as the retry note should.
 */
export function readRelaxedAnswer(text: string): Either<Defect, RawAnswer> {
	return pipe(
		jsonObjectIn(text, ANSWER_KEYS),
		E.chain((answer): Either<Defect, RawAnswer> => {
			// What fails the relaxed bounds fails the schema's too, and the note names the schema's.
			const normalised = normalise(answer);
			const relaxed = RelaxedCodec.decode(normalised);
			return E.isRight(relaxed) ? relaxed : E.mapLeft(schemaDefect)(AnswerCodec.decode(normalised));
		}),
	);
}

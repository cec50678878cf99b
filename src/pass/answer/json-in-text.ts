import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";
import { isRecord } from "../../events/index.js";
import { type Defect, defect } from "./defects.js";

/** Only this much of a reply is searched, so a runaway answer costs bounded work. Exported for tests. */
export const MAX_REPLY_CHARS = 200_000;
/** At most this many `{` are tried as the start of an object. */
const MAX_STARTS = 20;
/** Keys that could reach an object's prototype if anything merged the answer; an answer holding one is refused. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Parses one candidate, to its object, or "forbidden", or undefined when it is no JSON object; never throws. */
function parseCandidate(text: string): Record<string, unknown> | "forbidden" | undefined {
	let forbidden = false;
	let value: unknown;
	try {
		value = JSON.parse(text, (key, v: unknown) => {
			if (FORBIDDEN_KEYS.has(key)) forbidden = true;
			return v;
		});
	} catch {
		return undefined;
	}
	if (forbidden) return "forbidden";
	return isRecord(value) ? value : undefined;
}

/** The end (exclusive) of the balanced object starting at `start`, reading strings and escapes, if it ends. */
function objectEnd(text: string, start: number): number | undefined {
	let depth = 0;
	let inString = false;
	for (let i = start; i < text.length; i++) {
		const c = text[i];
		if (inString) {
			if (c === "\\") i++;
			else if (c === '"') inString = false;
		} else if (c === '"') inString = true;
		else if (c === "{") depth++;
		else if (c === "}" && --depth === 0) return i + 1;
	}
	return undefined;
}

/** Texts that may be the JSON object: fenced blocks, the whole reply, then balanced `{…}` stretches in order. */
function* candidates(text: string): Generator<string> {
	for (const match of text.matchAll(/```[ \t]*(?:(?:json|JSON|jsonc)[ \t]*)?\r?\n([\s\S]*?)```/g)) yield match[1] ?? "";
	yield text;
	let from = 0;
	for (let tries = 0; tries < MAX_STARTS; tries++) {
		const start = text.indexOf("{", from);
		if (start < 0) return;
		const end = objectEnd(text, start);
		if (end === undefined) from = start + 1;
		else {
			yield text.slice(start, end);
			from = end;
		}
	}
}

/**
 * The JSON object in a model reply (bare, fenced, or with prose around it): the first that has one of `keys`,
 * else the first object found. Never throws; an object holding `__proto__`, `constructor` or `prototype` is refused.
 */
export function jsonObjectIn(text: string, keys: readonly string[]): Either<Defect, Record<string, unknown>> {
	const searched = text.slice(0, MAX_REPLY_CHARS);
	let first: Record<string, unknown> | undefined;
	for (const candidate of candidates(searched)) {
		const parsed = parseCandidate(candidate);
		if (parsed === "forbidden") {
			return E.left(defect("forbidden-key", "the JSON holds a key named __proto__, constructor or prototype"));
		}
		if (parsed === undefined) continue;
		if (keys.some((key) => Object.hasOwn(parsed, key))) return E.right(parsed);
		first ??= parsed;
	}
	if (first !== undefined) return E.right(first);
	return E.left(
		searched.includes("{")
			? defect("json-invalid", "the answer's JSON does not parse: return one JSON object")
			: defect("no-json", "the answer holds no JSON object: return one JSON object"),
	);
}

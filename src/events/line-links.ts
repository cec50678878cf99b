import * as E from "fp-ts/lib/Either.js";

/** The links of an entry: its id and, as written, its parentId. */
export interface Links {
	readonly id: string;
	readonly parentId: unknown;
}

/** Keys and values longer than this are not read: an id is short. */
const SMALL_CHARS = 4096;

function skipSpace(s: string, from: number): number {
	let i = from;
	while (i < s.length && " \t\n\r".includes(s.charAt(i))) i++;
	return i;
}

/** The index just past the JSON string that opens at `from`, or -1 when it never closes. */
function stringEnd(s: string, from: number): number {
	let i = from + 1;
	for (;;) {
		const quote = s.indexOf('"', i);
		if (quote < 0) return -1;
		let slashes = 0;
		for (let k = quote - 1; s.charCodeAt(k) === 0x5c; k--) slashes++;
		if (slashes % 2 === 0) return quote + 1;
		i = quote + 1;
	}
}

/** The index just past the JSON value that starts at `from` (nested ones skipped by depth, not built), or -1. */
function valueEnd(s: string, from: number): number {
	const first = s.charAt(from);
	if (first === '"') return stringEnd(s, from);
	if (first !== "{" && first !== "[") {
		const end = /[,}\]\s]/g;
		end.lastIndex = from;
		return end.exec(s)?.index ?? s.length;
	}
	const structure = /["{}[\]]/g;
	structure.lastIndex = from;
	let depth = 0;
	for (let m = structure.exec(s); m !== null; m = structure.exec(s)) {
		if (m[0] === '"') {
			const end = stringEnd(s, m.index);
			if (end < 0) return -1;
			structure.lastIndex = end;
		} else if (m[0] === "{" || m[0] === "[") depth++;
		else if (--depth === 0) return m.index + 1;
	}
	return -1;
}

/** A short JSON text parsed, or undefined when it is long or not JSON. */
function small(s: string, from: number, to: number): unknown {
	if (to - from > SMALL_CHARS) return undefined;
	return E.getOrElseW(() => undefined)(E.tryCatch(() => JSON.parse(s.slice(from, to)), E.toError));
}

/**
 * The `id` and `parentId` of a JSON object line read from its top-level keys without building its values, for a
 * line too long to parse: the branch can still run through the entry. Undefined when the line is not an object at
 * the top level or has no string id. The last of repeated keys counts, as in `JSON.parse`.
 */
export function lineLinks(line: string): Links | undefined {
	const found = new Map<unknown, unknown>();
	let i = skipSpace(line, 0);
	if (line.charAt(i) !== "{") return undefined;
	i = skipSpace(line, i + 1);
	if (line.charAt(i) === "}") return undefined;
	for (;;) {
		if (line.charAt(i) !== '"') return undefined;
		const keyEnd = stringEnd(line, i);
		if (keyEnd < 0) return undefined;
		const key = small(line, i, keyEnd);
		i = skipSpace(line, keyEnd);
		if (line.charAt(i) !== ":") return undefined;
		i = skipSpace(line, i + 1);
		const end = valueEnd(line, i);
		if (end < 0) return undefined;
		if (key === "id" || key === "parentId") found.set(key, small(line, i, end));
		i = skipSpace(line, end);
		if (line.charAt(i) === "}") break;
		if (line.charAt(i) !== ",") return undefined;
		i = skipSpace(line, i + 1);
	}
	if (skipSpace(line, i + 1) !== line.length) return undefined;
	const id = found.get("id");
	return typeof id === "string" ? { id, parentId: found.get("parentId") } : undefined;
}

// Copies of found secrets, wherever else they stand in a batch as a whole token: one pass over each text's tokens,
// each looked up in a map of the secrets found, so the cost is the text's length whatever the number of secrets.

import { type Finder, runEnd, stopAt, TOKEN_END } from "../../pass/secrets/index.js";

/** The secrets found in a batch, by their text, with the kind each was found as. */
export type Found = ReadonlyMap<string, string>;

/** A found secret this long is also replaced wherever else it stands (shorter copies could be words). */
export const MIN_COPY_CHARS = 12;

/**
 * The parts of a token a secret may stand as: the whole, what follows its first `=` or its last `:` (`NAME=secret`,
 * `user:secret`), what precedes its first `@` (`secret@host`), each without a closing full stop.
 */
function parts(token: string, at: number): { start: number; end: number }[] {
	const out: { start: number; end: number }[] = [];
	const add = (start: number, end: number) => {
		const stop = token.charAt(end - 1) === "." ? end - 1 : end;
		if (stop - start >= MIN_COPY_CHARS) out.push({ start: at + start, end: at + stop });
	};
	add(0, token.length);
	const eq = token.indexOf("=");
	if (eq >= 0) add(eq + 1, token.length);
	const colon = token.lastIndexOf(":");
	if (colon >= 0) add(colon + 1, token.length);
	const mark = token.indexOf("@");
	if (mark > 0) add(0, mark);
	return out;
}

/**
 * The finder of copies of the found secrets: where they stand in a text as whole tokens (or a token's parts), with
 * their kinds, one token a step.
 */
export function copiesOf(found: Found): Finder {
	return function* (text, spans) {
		if (found.size === 0) return;
		let i = 0;
		while (i < text.length) {
			yield;
			const start = runEnd(TOKEN_END, text, i);
			i = stopAt(TOKEN_END, text, start);
			if (i - start < MIN_COPY_CHARS) continue;
			for (const part of parts(text.slice(start, i), start)) {
				const kind = found.get(text.slice(part.start, part.end));
				if (kind !== undefined) spans.push({ start: part.start, end: part.end, kind });
			}
		}
	};
}

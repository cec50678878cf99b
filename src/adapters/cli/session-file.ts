import { readFileSync, statSync } from "node:fs";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";

/** A pi session file's first line, as pi tells one (`type` "session" and a string `id`; v1 files included). */
const SessionHeader = t.type({ type: t.literal("session"), id: t.string });

const errorCode = (error: unknown) => (error instanceof Error && "code" in error ? String(error.code) : "unreadable");

/** True when the first line of `text` is a pi session header. */
export function startsWithSessionHeader(text: string): boolean {
	const end = text.indexOf("\n");
	const first = end === -1 ? text : text.slice(0, end);
	const parsed = E.tryCatch(
		(): unknown => JSON.parse(first),
		() => "malformed",
	);
	return E.isRight(parsed) && E.isRight(SessionHeader.decode(parsed.right));
}

/** A session file's text, or why it is none: unreadable, not a regular file, or no pi session header first. */
export function readSessionFile(path: string): E.Either<string, string> {
	const stats = E.tryCatch(() => statSync(path), errorCode);
	if (E.isLeft(stats)) return E.left(`cannot read (${stats.left})`);
	if (!stats.right.isFile()) return E.left("not a regular file");
	const text = E.tryCatch(() => readFileSync(path, "utf8"), errorCode);
	if (E.isLeft(text)) return E.left(`cannot read (${text.left})`);
	return startsWithSessionHeader(text.right) ? text : E.left("not a pi session (its first line is no session header)");
}

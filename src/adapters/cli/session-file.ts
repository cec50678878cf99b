import { closeSync, openSync, readFileSync, statSync } from "node:fs";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { type Line, READ_LIMITS, type ReadLimits, readLines, type Transcript } from "../../events/index.js";
import { chunkLines, fileChunks, type ReadFailure } from "./file-lines.js";

/** A pi session file's first line, as pi tells one (`type` "session" and a string `id`; v1 files included). */
const SessionHeader = t.type({ type: t.literal("session"), id: t.string });

/**
 * How many characters of lines a read holds at most (lines over the line limit, which are not held, aside): the
 * entries parsed from them cost about twice as much again, so a read stays within Node's default heap.
 */
export const MAX_HELD_CHARS = 512 * 1024 * 1024;

const errorCode = (error: unknown) => (error instanceof Error && "code" in error ? String(error.code) : "unreadable");

const NOT_A_SESSION = "not a pi session (its first line is no session header)";

/** True when the first line of `text` is a pi session header. Exported for tests. */
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
	return startsWithSessionHeader(text.right) ? text : E.left(NOT_A_SESSION);
}

/** How far the first line may run before the file is taken for no session: pi's header is a few hundred bytes. */
export const HEADER_CHARS = 64 * 1024;

/** What a streamed read met that ends it: a header that is none, a failed read, too much to hold. */
interface Stop {
	reason: string | undefined;
}

/** The chunks, stopped as no session when no line ends within the first `HEADER_CHARS` characters. */
function* headed(chunks: Iterable<string>, stop: Stop): Generator<string> {
	let seen = 0;
	for (const chunk of chunks) {
		if (seen >= 0) {
			const newline = chunk.indexOf("\n");
			seen = newline >= 0 ? -1 : seen + chunk.length;
			if (seen > HEADER_CHARS) {
				stop.reason = NOT_A_SESSION;
				return;
			}
		}
		yield chunk;
	}
}

/**
 * The lines of a session file as they are read: the first must be a session header (checked before anything
 * else is read), and the lines held must stay under `maxHeld` characters; otherwise `stop` says why.
 */
function* sessionLines(fd: number, stop: Stop, limits: ReadLimits, maxHeld: number): Generator<Line> {
	const failure: ReadFailure = { code: undefined };
	let held = 0;
	let first = true;
	for (const line of chunkLines(headed(fileChunks(fd, failure), stop), limits.lineChars)) {
		if (first && (line.text === undefined || !startsWithSessionHeader(line.text))) {
			stop.reason = NOT_A_SESSION;
			return;
		}
		first = false;
		held += line.text?.length ?? 0;
		if (held > maxHeld) {
			stop.reason = `over ${maxHeld} characters of entries to read (lines over the line limit aside): more than Longhaul holds`;
			return;
		}
		yield line;
	}
	if (failure.code !== undefined) stop.reason = `cannot read (${failure.code})`;
	else if (first) stop.reason ??= NOT_A_SESSION;
}

/**
 * A session file read line by line into a transcript, or why it is none (unreadable, not a regular file, no pi
 * session header first, too much to hold). Memory is bounded by the entries held, never by the file: a line over
 * the limit goes by, only its links read.
 */
export function readSession(
	path: string,
	limits: ReadLimits = READ_LIMITS,
	maxHeld: number = MAX_HELD_CHARS,
): E.Either<string, Transcript> {
	const stats = E.tryCatch(() => statSync(path), errorCode);
	if (E.isLeft(stats)) return E.left(`cannot read (${stats.left})`);
	if (!stats.right.isFile()) return E.left("not a regular file");
	const fd = E.tryCatch(() => openSync(path, "r"), errorCode);
	if (E.isLeft(fd)) return E.left(`cannot read (${fd.left})`);
	try {
		const stop: Stop = { reason: undefined };
		const transcript = readLines(sessionLines(fd.right, stop, limits, maxHeld), limits);
		return stop.reason === undefined ? E.right(transcript) : E.left(stop.reason);
	} finally {
		closeSync(fd.right);
	}
}

import { readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import * as E from "fp-ts/lib/Either.js";
import { type Line, type LinksScanner, linksScanner } from "../../events/index.js";

// A transcript file read a chunk at a time and handed to the pure reader line by line: no more of a line is held
// than the line limit, and a longer line goes by piece by piece, only its links read.

/** How many bytes one read takes. */
export const CHUNK_BYTES = 1024 * 1024;

/** Where a file read stopped early: the error code of a read that failed. */
export interface ReadFailure {
	code: string | undefined;
}

const errorCode = (error: unknown) => (error instanceof Error && "code" in error ? String(error.code) : "unreadable");

/** The rest of an open file, a chunk at a time, decoded as UTF-8 (a character split between reads is joined). */
export function* fileChunks(fd: number, failure: ReadFailure, chunkBytes = CHUNK_BYTES): Generator<string> {
	const buffer = Buffer.alloc(chunkBytes);
	const decoder = new StringDecoder("utf8");
	for (;;) {
		const read = E.tryCatch(() => readSync(fd, buffer, 0, buffer.length, null), errorCode);
		if (E.isLeft(read)) {
			failure.code = read.left;
			return;
		}
		if (read.right === 0) break;
		const text = decoder.write(buffer.subarray(0, read.right));
		if (text !== "") yield text;
	}
	const rest = decoder.end();
	if (rest !== "") yield rest;
}

/** What `chunkLines` held at most of one line, in characters: a test of the bound. */
export interface Held {
	most: number;
}

/**
 * The lines of text handed in chunks. A line of at most `lineChars` characters comes whole; a longer one is not
 * held past the limit: its pieces go through a links scanner and it comes as its length and links.
 */
export function* chunkLines(chunks: Iterable<string>, lineChars: number, held: Held = { most: 0 }): Generator<Line> {
	let pieces: string[] = [];
	let chars = 0;
	let scanner: LinksScanner | undefined;
	const add = (piece: string) => {
		chars += piece.length;
		if (scanner === undefined && chars > lineChars) {
			scanner = linksScanner();
			for (const p of pieces) scanner.push(p);
			pieces = [];
		}
		if (scanner !== undefined) scanner.push(piece);
		else {
			pieces.push(piece);
			held.most = Math.max(held.most, chars);
		}
	};
	const line = (terminated: boolean): Line => {
		const out: Line =
			scanner === undefined
				? { text: pieces.join(""), chars, links: undefined, terminated }
				: { text: undefined, chars, links: scanner.end(), terminated };
		pieces = [];
		chars = 0;
		scanner = undefined;
		return out;
	};
	for (const chunk of chunks) {
		let from = 0;
		for (let newline = chunk.indexOf("\n"); newline >= 0; newline = chunk.indexOf("\n", from)) {
			add(chunk.slice(from, newline));
			yield line(true);
			from = newline + 1;
		}
		if (from < chunk.length) add(chunk.slice(from));
	}
	if (chars > 0) yield line(false);
}

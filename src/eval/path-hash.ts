import { createHash } from "node:crypto";
import { basename, resolve } from "node:path";

/** A transcript's name in output: the first 8 hex digits of the sha256 of its absolute path. */
export function pathHash(path: string): string {
	return createHash("sha256").update(resolve(path)).digest("hex").slice(0, 8);
}

/** The name a transcript goes by in output: a replay's own output keeps its source's hash, anything else is hashed. */
export function transcriptName(path: string): string {
	const replay = /^([0-9a-f]{8})\.replay\.jsonl$/.exec(basename(path));
	return replay?.[1] === undefined ? pathHash(path) : `${replay[1]}.replay`;
}

import { readSync, statSync } from "node:fs";

// What the log tests (unit/adapters/log/log-file.test.ts, hostile/log.test.ts) read of a path on disk to tell
// whether a log was written through it.

/** What a non-blocking reader of a FIFO can read now: an empty FIFO answers EOF or EAGAIN. */
export function bytesWaiting(fd: number): number {
	try {
		return readSync(fd, Buffer.alloc(64));
	} catch (error) {
		if (error instanceof Error && "code" in error && error.code === "EAGAIN") return 0;
		throw error;
	}
}

/** A path's permission bits (with setuid, setgid and sticky). */
export const modeOf = (path: string): number => statSync(path).mode & 0o7777;

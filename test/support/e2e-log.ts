import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh path for Longhaul's log in an e2e test (`PI_COMPACT_STATE_DEBUG`). */
export function logPath(): string {
	return join(mkdtempSync(join(tmpdir(), "longhaul-e2e-log-")), "log.jsonl");
}

/** The records of the log at `path`, in order; none when it was never written. */
export function records(path: string): Record<string, unknown>[] {
	if (!existsSync(path)) return [];
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line));
}

import { existsSync, lstatSync, readFileSync } from "node:fs";
import { labeler } from "./fake-summarizer.js";
import { type Harness, type HarnessOptions, say, startSession } from "./pi-harness.js";
import { repoRoot } from "./shared.js";

/** A real pi session with Longhaul loaded from this repository, keeping one token so that each compaction has a span. */
export function longhaulSession(options: Partial<HarnessOptions> = {}): Promise<Harness> {
	return startSession({ extensionPaths: [repoRoot], keepRecentTokens: 1, ...options });
}

/** One span, a rule and a turn after it, compacted by a careful model: the pass every session test starts from. */
export async function compactAfterRule(h: Harness): Promise<void> {
	h.model.scriptSide(labeler());
	h.model.scriptAgent(say("ok"), say("ok"));
	await h.prompt("never add dependencies");
	await h.prompt("next");
	await h.compact();
}

/** The records of a Longhaul log file, or none when there is no regular file to read. */
export function logRecords(path: string): Record<string, unknown>[] {
	if (!existsSync(path) || !lstatSync(path).isFile()) return [];
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line));
}

/** Lets a deferred append (the compaction line) land. */
export function tick(): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, 20));
}

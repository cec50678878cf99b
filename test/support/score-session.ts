import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assistant, compaction, type Line, result, user, v1Text } from "./v1-transcript.js";

// The recorded session both score tests (e2e/eval/score.test.ts against a faux model, score-endpoint.test.ts against
// a local endpoint) score: a dev server started under a rule, some talk, pi's compaction, then a health check.

/** What a score session says where the two tests tell theirs apart. */
export interface ScoreSessionParts {
	/** The rule the first user message gives beside starting the dev server. */
	readonly rule: string;
	/** What `npm run dev` prints. */
	readonly devOutput: string;
	/** The lines after the dev server runs and before pi's compaction. */
	readonly talk: readonly Line[];
	/** The line pi's compaction keeps from (counted from 0 with the header). */
	readonly firstKeptEntryIndex: number;
	/** What the health check prints. */
	readonly healthOutput: string;
}

/** The session as a v1 file in a fresh temp dir; returns its path. */
export function scoreSession(parts: ScoreSessionParts): string {
	const path = join(mkdtempSync(join(tmpdir(), "longhaul-score-")), "session.jsonl");
	writeFileSync(
		path,
		v1Text([
			user(`start the dev server; ${parts.rule}`),
			assistant("", [["c1", "bash", { command: "npm run dev" }]]),
			result("c1", "bash", parts.devOutput),
			assistant("It runs."),
			...parts.talk,
			compaction("pi's recorded summary", parts.firstKeptEntryIndex),
			user("check it"),
			assistant("", [["c2", "bash", { command: "curl localhost:8787/health" }]]),
			result("c2", "bash", parts.healthOutput),
			assistant("healthy"),
		]),
	);
	return path;
}

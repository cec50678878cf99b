import type { LogRecord, LogRecordOf, LogSession } from "../../src/adapters/log/index.js";

/** A session as records name it. */
export const session: LogSession = {
	cwd: "/home/alice/projects/atlas",
	sessionId: "019a2b3c-4d5e-7f60-8a9b-0c1d2e3f4a5b",
	model: "anthropic/claude-sonnet-4-5",
	thinkingLevel: "medium",
};

/** A `compaction` record with every field filled. */
export const compactionRecord: LogRecordOf<"compaction"> = {
	event: "compaction",
	...session,
	span: 3,
	tokensBefore: 151_000,
	summaryChars: 8_400,
	narrative: {
		mode: "single",
		kind: "whole",
		calls: 2,
		accepted: 14,
		dropped: { "unverified-quote": 1, "unknown-id": 2 },
		usage: { input: 40_000, output: 1_200, cacheRead: 0, cacheWrite: 0 },
		timings: { ledger: 3, world: 41, diff: 5_400, render: 2 },
		reasoning: null,
	},
	route: { configured: "openai/gpt-5-mini:low", used: "anthropic/claude-sonnet-4-5", notUsed: "no-api-key" },
	capFit: { limit: 12_000, chars: 8_400, cut: { workLog: 0, openErrors: 3 }, rulesAndNowChars: 900, fits: true },
	world: { taken: true, ms: 41 },
	carried: { rules: 4, lifted: 1, decisions: 3, deadEnds: 1, notes: 0, values: 6, openErrors: 1, workLog: 2 },
	durationMs: 5_530,
};

/** One record of each event the log writes, in the order of the log's table (docs/how-it-works.md, The log). */
export const sampleRecords: readonly LogRecord[] = [
	{ event: "extension-loaded", ...session, piVersion: "0.73.1", piVersionVerified: true },
	compactionRecord,
	{
		event: "compacted",
		...session,
		fromExtension: true,
		reason: "threshold",
		span: 3,
		summaryChars: 8_400,
		tokensBefore: 151_000,
	},
	{ event: "compact-failed", ...session, reason: "overflow", span: null },
	{
		event: "kept-window-strip",
		...session,
		cutoff: "a1b2c3d4",
		strippedBlocks: 5,
		strippedChars: 9_000,
		contextMessages: 40,
	},
	{ event: "span-record-failed", ...session, span: 3, errorClass: "Error", error: "EACCES: permission denied" },
	{ event: "compaction-line-failed", ...session, errorClass: "TypeError", error: "x is not a function" },
	{ event: "aborted", ...session, reason: "signal", errorClass: "AbortError", error: "This operation was aborted" },
	{ event: "fallback", ...session, reason: "pass-threw", errorClass: "RangeError", error: "Invalid array length" },
];

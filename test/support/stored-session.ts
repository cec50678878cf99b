import type { Event } from "../../src/events/index.js";
import { type EntrySpec, place, transcriptText } from "./transcript.js";

const close = (span: number, kind: "whole" | "narrative-less" | "partial" = "whole"): Event => ({
	type: "span-closed",
	data: { span, kind, unlabeled: kind === "whole" ? [] : ["u9"], reason: kind === "whole" ? null : "no answer" },
});

const command = (id: string, text: string, exitCode: number | null, span: number): Event => ({
	type: "command-recorded",
	data: { id, command: text, exitCode, span, toolCallId: `t-${id}`, by: "tool" },
});

/**
 * A session as stateFormat 1 stores it, from before events carried their ids: every event kind, and the cases the
 * reducer decides (a repeated rule, lifts by id, by message and of nothing, a second fix, repeated commands, errors
 * and values, a read file later modified, notes written between passes, a foreign compaction, a newer format and an
 * event that fails its codec). Its fold is pinned by golden files, so it must not change. The user messages its rules
 * and lifts cite are there, as in any session Longhaul wrote (the fold checks each rule event against them); they
 * carry ids of their own, so every other entry keeps the id the golden files name.
 */
export function storedSessionText(): string {
	const specs: EntrySpec[] = [
		{ kind: "user", text: "never push to main" },
		{ kind: "user", text: "run the tests before a commit", id: "m2" },
		{
			kind: "longhaul-compaction",
			span: 1,
			events: [
				{ type: "objective-set", data: { text: "ship the rate limiter" } },
				{ type: "rule-added", data: { words: "never push to main", source: "u1" } },
				{ type: "rule-added", data: { words: "run the tests before a commit", source: "u2" } },
				{ type: "rule-added", data: { words: "never push to main", source: "u1" } },
				command("C1", "npm test", 1, 1),
				command("C2", "npm test", 0, 1),
				command("C1", "npm test again", 0, 1),
				{ type: "error-recorded", data: { id: "E1", tool: "bash", head: "2 failing", span: 1, command: "C1" } },
				{ type: "error-recorded", data: { id: "E1", tool: "bash", head: "a repeat", span: 1, command: null } },
				{ type: "error-fixed", data: { error: "E1", by: "C2" } },
				{ type: "error-fixed", data: { error: "E1", by: "C1" } },
				{ type: "error-fixed", data: { error: "E9", by: "C2" } },
				{ type: "decision-made", data: { text: "token bucket per key", evidence: ["C2"] } },
				{ type: "dead-end-found", data: { text: "a global mutex", evidence: ["E1"] } },
				{ type: "value-recorded", data: { name: "port", value: "5173", source: "u2" } },
				{ type: "value-recorded", data: { name: "port", value: "5173", source: "u2" } },
				{ type: "files-touched", data: { read: ["src/a.ts", "src/b.ts"], modified: [] } },
				{
					type: "world-taken",
					data: {
						span: 1,
						world: { taken: true, branch: "main", head: "abc", status: "", log: "abc x", diffStat: "" },
					},
				},
				{ type: "narrative-line", data: { span: 1, text: "wrote the limiter" } },
				{ type: "now-set", data: { text: "next: the tests" } },
				close(1),
			],
		},
		{ kind: "event-entry", event: { type: "note-remembered", data: { text: "the CI runs on Node 20" } } },
		{ kind: "event-entry", event: { type: "note-remembered", data: { text: "the CI runs on Node 20" } } },
		{ kind: "foreign-compaction", summary: "pi's own summary" },
		{
			kind: "raw",
			value: { type: "custom", customType: "compaction-state.event", data: { stateFormat: 2, seq: 99, event: {} } },
		},
		{
			kind: "raw",
			value: {
				type: "custom",
				customType: "compaction-state.event",
				data: { stateFormat: 1, seq: 100, event: { type: "rule-added", data: { words: 7 } } },
			},
		},
		{ kind: "user", text: "the port is 5173", id: "m3" },
		{ kind: "user", text: "go on", id: "m4" },
		{ kind: "user", text: "never push to main no longer applies", id: "m5" },
		{ kind: "user", text: "the tests before a commit are not needed now; keep the public API", id: "m6" },
		{
			kind: "longhaul-compaction",
			span: 2,
			events: [
				{ type: "rule-lifted", data: { target: "R1", by: "u5" } },
				{ type: "rule-lifted", data: { target: "u2", by: "u6" } },
				{ type: "rule-lifted", data: { target: "R7", by: "u6" } },
				{ type: "rule-added", data: { words: "keep the public API", source: "u6" } },
				{ type: "decision-made", data: { text: "limits in config", evidence: [] } },
				{ type: "dead-end-found", data: { text: "redis", evidence: ["C3"] } },
				{ type: "files-touched", data: { read: ["src/c.ts"], modified: ["src/a.ts", "src/d.ts"] } },
				{ type: "world-taken", data: { span: 2, world: { taken: false, reason: "not a git repository" } } },
				close(2, "narrative-less"),
			],
		},
		{ kind: "event-entry", event: { type: "note-remembered", data: { text: "ask before deleting" } } },
		{ kind: "longhaul-compaction", span: 3, events: [{ type: "narrative-line", data: { span: 3, text: "x" } }] },
	];
	return transcriptText(place(specs));
}

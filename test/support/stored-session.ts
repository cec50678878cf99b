import type { Event } from "../../src/events/index.js";
import * as ev from "./events.js";
import { type EntrySpec, place, transcriptText } from "./transcript.js";

const close = (span: number, kind: "whole" | "narrative-less" | "partial" = "whole"): Event =>
	ev.spanClosed(span, kind, kind === "whole" ? [] : ["u9"], kind === "whole" ? null : "no answer");

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
				ev.objective("ship the rate limiter"),
				ev.ruleAdded("never push to main", "u1"),
				ev.ruleAdded("run the tests before a commit", "u2"),
				ev.ruleAdded("never push to main", "u1"),
				ev.command("C1", "npm test", 1, 1, "t-C1"),
				ev.command("C2", "npm test", 0, 1, "t-C2"),
				ev.command("C1", "npm test again", 0, 1, "t-C1"),
				ev.errorRecorded("E1", "2 failing", "C1"),
				ev.errorRecorded("E1", "a repeat"),
				ev.errorFixed("E1", "C2"),
				ev.errorFixed("E1", "C1"),
				ev.errorFixed("E9", "C2"),
				ev.decision("token bucket per key", ["C2"]),
				ev.deadEnd("a global mutex", ["E1"]),
				ev.value("port", "5173", "u2"),
				ev.value("port", "5173", "u2"),
				ev.files(["src/a.ts", "src/b.ts"]),
				ev.worldTaken(1, ev.gitWorld({ log: "abc x" })),
				ev.narrative(1, "wrote the limiter"),
				ev.nowSet("next: the tests"),
				close(1),
			],
		},
		{ kind: "event-entry", event: ev.note("the CI runs on Node 20") },
		{ kind: "event-entry", event: ev.note("the CI runs on Node 20") },
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
				ev.ruleLifted("R1", "u5"),
				ev.ruleLifted("u2", "u6"),
				ev.ruleLifted("R7", "u6"),
				ev.ruleAdded("keep the public API", "u6"),
				ev.decision("limits in config"),
				ev.deadEnd("redis", ["C3"]),
				ev.files(["src/c.ts"], ["src/a.ts", "src/d.ts"]),
				ev.worldTaken(2, ev.noWorld("not a git repository")),
				close(2, "narrative-less"),
			],
		},
		{ kind: "event-entry", event: ev.note("ask before deleting") },
		{ kind: "longhaul-compaction", span: 3, events: [ev.narrative(3, "x")] },
	];
	return transcriptText(place(specs));
}

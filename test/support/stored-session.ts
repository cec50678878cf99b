import type { Event } from "../../src/events/index.js";
import {
	command,
	deadEnd,
	decision,
	errorFixed,
	errorRecorded,
	files,
	gitWorld,
	narrative,
	note,
	noWorld,
	nowSet,
	objective,
	ruleAdded,
	ruleLifted,
	spanClosed,
	value,
	worldTaken,
} from "./events.js";
import { type EntrySpec, place, transcriptText } from "./transcript.js";

const close = (span: number, kind: "whole" | "narrative-less" | "partial" = "whole"): Event =>
	spanClosed(span, kind, kind === "whole" ? [] : ["u9"], kind === "whole" ? null : "no answer");

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
				objective("ship the rate limiter"),
				ruleAdded("never push to main", "u1"),
				ruleAdded("run the tests before a commit", "u2"),
				ruleAdded("never push to main", "u1"),
				command("C1", "npm test", 1, 1, "t-C1"),
				command("C2", "npm test", 0, 1, "t-C2"),
				command("C1", "npm test again", 0, 1, "t-C1"),
				errorRecorded("E1", "2 failing", "C1"),
				errorRecorded("E1", "a repeat"),
				errorFixed("E1", "C2"),
				errorFixed("E1", "C1"),
				errorFixed("E9", "C2"),
				decision("token bucket per key", ["C2"]),
				deadEnd("a global mutex", ["E1"]),
				value("port", "5173", "u2"),
				value("port", "5173", "u2"),
				files(["src/a.ts", "src/b.ts"]),
				worldTaken(1, gitWorld({ log: "abc x" })),
				narrative(1, "wrote the limiter"),
				nowSet("next: the tests"),
				close(1),
			],
		},
		{ kind: "event-entry", event: note("the CI runs on Node 20") },
		{ kind: "event-entry", event: note("the CI runs on Node 20") },
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
				ruleLifted("R1", "u5"),
				ruleLifted("u2", "u6"),
				ruleLifted("R7", "u6"),
				ruleAdded("keep the public API", "u6"),
				decision("limits in config"),
				deadEnd("redis", ["C3"]),
				files(["src/c.ts"], ["src/a.ts", "src/d.ts"]),
				worldTaken(2, noWorld("not a git repository")),
				close(2, "narrative-less"),
			],
		},
		{ kind: "event-entry", event: note("ask before deleting") },
		{ kind: "longhaul-compaction", span: 3, events: [narrative(3, "x")] },
	];
	return transcriptText(place(specs));
}

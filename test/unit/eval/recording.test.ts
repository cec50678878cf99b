import { describe, expect, it } from "vitest";
import { recordingOf } from "../../../src/eval/recording.js";
import { branchOf, readTranscript } from "../../../src/events/index.js";
import { assistant, compaction, failedReply, result, user, userRun, v1Text } from "../../support/v1-transcript.js";

const recording = (text: string) => recordingOf(branchOf(readTranscript(text).entries).entries);

describe("a recording read as replay steps", () => {
	it("groups each user message with its replies, keeps results by call id and places compactions and ! runs", () => {
		const r = recording(
			v1Text([
				user("run the tests"),
				assistant("running", [["c1", "bash", { command: "npm test" }]]),
				result("c1", "bash", "3 failed\n\nCommand exited with code 1", true),
				assistant("three fail"),
				compaction("pi's summary", 3),
				userRun("ls", "a.txt", 0),
				user("thanks"),
				assistant("ok"),
			]),
		);
		expect(r.steps.map((s) => s.kind)).toEqual(["turn", "compact", "bash", "turn"]);
		const first = r.steps[0];
		expect(first?.kind === "turn" ? first.replies.map((m) => m.stopReason) : []).toEqual(["toolUse", "stop"]);
		expect(r.steps[1]).toEqual({
			kind: "compact",
			compactor: "pi",
			summary: "pi's summary",
			kept: { turn: 1, offset: 2, role: "toolResult" },
		});
		expect(r.results.get("c1")).toEqual([
			{
				content: [{ type: "text", text: "3 failed\n\nCommand exited with code 1" }],
				isError: true,
				details: undefined,
			},
		]);
		expect(r.toolNames).toEqual(["bash"]);
	});

	it("leaves out an error reply a retry followed, but keeps one that ended its turn", () => {
		const r = recording(
			v1Text([user("a"), failedReply("overloaded"), assistant("done"), user("b"), failedReply("overloaded")]),
		);
		const replies = r.steps.map((s) => (s.kind === "turn" ? s.replies.map((m) => m.stopReason) : []));
		expect(replies).toEqual([["stop"], ["error"]]);
		expect(r.droppedReplies).toBe(1);
	});

	it("counts a reply before any user message as unreadable rather than inventing a turn", () => {
		const r = recording(v1Text([assistant("hello"), user("hi"), assistant("hi")]));
		expect(r.unreadable).toBe(1);
		expect(r.steps).toHaveLength(1);
	});
});

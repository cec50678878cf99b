import { describe, expect, it } from "vitest";
import type { Message } from "../../../../../src/events/messages.js";
import { digest } from "../../../../../src/pass/conversation/turns/digest.js";
import { transcriptLines } from "../../../../../src/pass/conversation/turns/transcript.js";
import { initialState } from "../../../../../src/reducers/index.js";

const bigResult = `${"a".repeat(500)}MIDDLE${"z".repeat(500)}`;
const longId = `call_${"x".repeat(100)}`;
const messages: Message[] = [
	{ role: "user", text: "go" },
	{
		role: "assistant",
		text: "running",
		toolCalls: [
			{ id: "t1", name: "bash", arguments: { command: "npm test" } },
			{ id: longId, name: "grep", arguments: { pattern: "x" } },
		],
		stopReason: "toolUse",
		errorMessage: "",
	},
	{ role: "toolResult", toolCallId: "t1", toolName: "bash", text: bigResult, isError: false, details: undefined },
	{ role: "toolResult", toolCallId: longId, toolName: "grep", text: "none", isError: true, details: undefined },
	{ role: "bashExecution", command: "ls", output: "a b", exitCode: 0, cancelled: false },
];

describe("the Digest's condensed transcript", () => {
	it("has one line per tool call with its result cut to head and tail, and the user's messages by id", () => {
		const lines = transcriptLines(messages, ["u4"], new Map([["t1", "C7"]]));
		expect(lines.map((l) => JSON.parse(l).role)).toEqual(["user", "assistant", "call", "call", "user-run"]);
		const bash = JSON.parse(lines[2] ?? "{}");
		expect(bash).toMatchObject({ tool: "bash", id: "C7" });
		expect(bash.result.startsWith("a".repeat(120))).toBe(true);
		expect(bash.result.endsWith("z".repeat(80))).toBe(true);
		expect(bash.result).not.toContain("MIDDLE");
		expect(JSON.parse(lines[3] ?? "{}")).toEqual({
			role: "call",
			tool: "grep",
			args: '{"pattern":"x"}',
			error: true,
			result: "none",
		});
	});
});

describe("the Digest", () => {
	it("shows the messages to label whole and a takeover's earlier messages cut to their start", () => {
		const long = `please keep this ${"very ".repeat(100)}long message whole`;
		const text = digest({
			span: 3,
			stateText: "## Rules\n> R1",
			state: initialState,
			whole: [{ ref: "u5", entryId: "e5", text: long }],
			earlier: [{ ref: "u1", entryId: "e1", text: long }],
			standing: [],
			foreignSummary: "pi's summary",
			ledger: [],
			world: { taken: false, reason: "no git" },
			notes: ["remember the port"],
			messages: [],
			messageRefs: [],
		});
		expect(text).toContain(JSON.stringify({ msg: "u5", text: long }));
		expect(text).not.toContain(JSON.stringify({ msg: "u1", text: long }));
		expect(text).toContain('{"msg":"u1","text":"please keep this very');
		expect(text).toContain("pi's summary");
		expect(text).toContain("- remember the port");
		expect(text).not.toContain("## Transcript");
	});
});

import { describe, expect, it } from "vitest";
import { commandIdsByCall, transcriptLines } from "../../../../../src/pass/conversation/turns/transcript.js";
import { command, errorRecorded, files, userCommand } from "../../../../support/events.js";
import { assistant, result, user } from "../../../../support/messages.js";

const parsed = (lines: readonly string[]) => lines.map((l) => JSON.parse(l));

describe("the Digest's condensed transcript, on what a session holds", () => {
	it("names the user's messages by their ids in order, and one past the ids as ?", () => {
		const lines = transcriptLines([user("go"), user("and the docs"), user("stop")], ["u4", "u5"], new Map());
		expect(parsed(lines)).toEqual([
			{ role: "user", msg: "u4" },
			{ role: "user", msg: "u5" },
			{ role: "user", msg: "?" },
		]);
	});

	it("leaves out blank assistant text but keeps the turn's calls", () => {
		const lines = transcriptLines(
			[
				assistant(" \n\t ", [{ id: "t1", name: "read", arguments: { path: "src/a.ts" } }]),
				result("t1", "read", "x = 1"),
			],
			[],
			new Map(),
		);
		expect(parsed(lines)).toEqual([{ role: "call", tool: "read", args: "src/a.ts", call: "t1", result: "x = 1" }]);
	});

	it("records an assistant turn that stopped with an error, on one line", () => {
		const failed = assistant("", [], "error", "529 overloaded_error:\n  retry later");
		expect(parsed(transcriptLines([failed], [], new Map()))).toEqual([
			{ role: "assistant-error", text: "529 overloaded_error: retry later" },
		]);
	});

	it("records a call the span holds no result for as having none", () => {
		const lines = transcriptLines(
			[assistant("", [{ id: "t9", name: "bash", arguments: { command: "npm test" } }])],
			[],
			new Map(),
		);
		expect(parsed(lines)).toEqual([
			{ role: "call", tool: "bash", args: "npm test", call: "t9", result: "(no result)" },
		]);
	});

	it("records a result whose call is not in the span on its own line, and a called one only with its call", () => {
		const lines = transcriptLines(
			[
				result("t0", "bash", "ok\n\n  done"),
				assistant("checking", [{ id: "t1", name: "bash", arguments: { command: "ls" } }]),
				result("t1", "bash", "a b"),
			],
			[],
			new Map([["t1", "C2"]]),
		);
		expect(parsed(lines)).toEqual([
			{ role: "result", tool: "bash", result: "ok done" },
			{ role: "assistant", text: "checking" },
			{ role: "call", tool: "bash", id: "C2", result: "a b" },
		]);
	});

	it("shows a call id of 64 characters, and not one of 65", () => {
		const call = (id: string) =>
			parsed(transcriptLines([assistant("", [{ id, name: "grep", arguments: { pattern: "x" } }])], [], new Map()))[0];
		const id64 = `call_${"a".repeat(59)}`;
		expect(call(id64)).toEqual({
			role: "call",
			tool: "grep",
			args: '{"pattern":"x"}',
			call: id64,
			result: "(no result)",
		});
		expect(call(`${id64}b`)).toEqual({ role: "call", tool: "grep", args: '{"pattern":"x"}', result: "(no result)" });
	});

	it("maps each bash call the ledger recorded to its command id, leaving out the user's own runs and other events", () => {
		const ids = commandIdsByCall([
			command("C1", "npm test", 1, 1, "t1"),
			errorRecorded("E1", "1 failed", "C1"),
			userCommand("C2", "npm test", 1),
			files(["a.ts"]),
			command("C3", "npm test", 1, 1, "t3"),
		]);
		expect([...ids]).toEqual([
			["t1", "C1"],
			["t3", "C3"],
		]);
	});
});

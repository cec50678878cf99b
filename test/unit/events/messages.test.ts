import { describe, expect, it } from "vitest";
import { contentText, decodeMessage, messageOf, userMessages } from "../../../src/events/messages.js";
import type { Entry } from "../../../src/events/transcript.js";

// What Longhaul reads of a pi message, role by role; a shape that does not decode is not a message.

const entry = (id: string, type: string, message: unknown): Entry => ({ id, parentId: null, type, raw: { message } });

describe("a pi message as Longhaul reads it", () => {
	it("joins the text blocks of a content list by newlines and leaves every other block out", () => {
		const blocks = [
			{ type: "text", text: "one" },
			{ type: "image", data: "…" },
			{ type: "toolCall", id: "t1", name: "bash", arguments: {} },
			{ type: "text", text: "two" },
			{ type: "text", text: 3 },
		];
		expect(contentText(blocks)).toBe("one\ntwo");
		expect(contentText("as it is")).toBe("as it is");
		expect([contentText(undefined), contentText({ text: "x" }), contentText([])]).toEqual(["", "", ""]);
	});

	it("reads a user message's text, from a string or from blocks", () => {
		expect(decodeMessage({ role: "user", content: "hi" })).toEqual({ role: "user", text: "hi" });
		expect(decodeMessage({ role: "user", content: [{ type: "text", text: "a" }] })).toEqual({
			role: "user",
			text: "a",
		});
	});

	it("reads an assistant message's text, tool calls, stop reason and error, empty when absent", () => {
		const call = { type: "toolCall", id: "t1", name: "bash", arguments: { command: "ls" } };
		expect(
			decodeMessage({
				role: "assistant",
				content: [{ type: "text", text: "running" }, call, { type: "toolCall", id: 2 }],
				stopReason: "error",
				errorMessage: "overloaded",
			}),
		).toEqual({
			role: "assistant",
			text: "running",
			toolCalls: [call],
			stopReason: "error",
			errorMessage: "overloaded",
		});
		expect(decodeMessage({ role: "assistant", content: [] })).toEqual({
			role: "assistant",
			text: "",
			toolCalls: [],
			stopReason: "",
			errorMessage: "",
		});
	});

	it("reads a tool result as an error only when isError is true", () => {
		const result = (more: object) => ({
			role: "toolResult",
			toolCallId: "t1",
			toolName: "bash",
			content: "out",
			...more,
		});
		expect(decodeMessage(result({ isError: true, details: { exit: 1 } }))).toEqual({
			role: "toolResult",
			toolCallId: "t1",
			toolName: "bash",
			text: "out",
			isError: true,
			details: { exit: 1 },
		});
		expect(decodeMessage(result({ isError: false }))).toMatchObject({ isError: false });
		expect(decodeMessage(result({}))).toMatchObject({ isError: false, details: undefined });
	});

	it("reads a bash execution's exit code (null when there is none) and whether it was cancelled", () => {
		const bash = (more: object) => ({ role: "bashExecution", command: "make", output: "ok", ...more });
		expect(decodeMessage(bash({ exitCode: 2, cancelled: true }))).toEqual({
			role: "bashExecution",
			command: "make",
			output: "ok",
			exitCode: 2,
			cancelled: true,
		});
		expect(decodeMessage(bash({ exitCode: 0, cancelled: false }))).toMatchObject({ exitCode: 0, cancelled: false });
		expect(decodeMessage(bash({ exitCode: null }))).toMatchObject({ exitCode: null, cancelled: false });
		expect(decodeMessage(bash({}))).toMatchObject({ exitCode: null, cancelled: false });
	});

	it("gives nothing for a role it does not read or a shape that fails its role's codec", () => {
		for (const u of [
			{ role: "system", content: "x" },
			{ role: "user", content: 1 },
			{ role: "assistant", content: "not a list" },
			{ role: "assistant", content: [], stopReason: 1 },
			{ role: "toolResult", toolCallId: "t1", content: "out" },
			{ role: "toolResult", toolCallId: "t1", toolName: "bash", content: "out", isError: "yes" },
			{ role: "bashExecution", command: "make" },
			{ role: "bashExecution", command: "make", output: "", exitCode: "1" },
			{ role: "bashExecution", command: "make", output: "", cancelled: 1 },
			null,
			"user",
		])
			expect(decodeMessage(u), JSON.stringify(u)).toBeUndefined();
	});

	it("reads messages only from message entries, and numbers the user's from u1 in branch order", () => {
		const first = entry("a", "message", { role: "user", content: "first" });
		const custom = entry("b", "custom", { role: "user", content: "not a message entry" });
		const entries = [
			first,
			custom,
			entry("c", "message", { role: "assistant", content: [] }),
			entry("d", "message", { role: "user", content: "second" }),
		];
		expect(messageOf(custom)).toBeUndefined();
		expect(messageOf(first)).toEqual({ role: "user", text: "first" });
		expect(userMessages(entries)).toEqual([
			{ ref: "u1", entryId: "a", text: "first" },
			{ ref: "u2", entryId: "d", text: "second" },
		]);
	});
});

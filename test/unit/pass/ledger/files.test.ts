import { describe, expect, it } from "vitest";
import { callsThatRan, fileEvents } from "../../../../src/pass/ledger/files.js";
import { files } from "../../../support/events.js";
import { assistant, call, result } from "../../../support/messages.js";

describe("files a span touched", () => {
	it("lists read files and modified files (edit and write)", () => {
		const events = fileEvents([
			assistant("", [
				call("1", "read", { path: "src/a.ts", offset: 1 }),
				call("2", "edit", { path: "src/b.ts", oldText: "x", newText: "y" }),
				call("3", "write", { path: "docs/c.md", content: "" }),
			]),
		]);
		expect(events).toEqual([files(["src/a.ts"], ["src/b.ts", "docs/c.md"])]);
	});

	it("de-duplicates each list in first-seen order", () => {
		const events = fileEvents([
			assistant("", [call("1", "read", { path: "b" }), call("2", "read", { path: "a" })]),
			assistant("", [
				call("3", "read", { path: "b" }),
				call("4", "write", { path: "z" }),
				call("5", "edit", { path: "z" }),
			]),
		]);
		expect(events).toEqual([files(["b", "a"], ["z"])]);
	});

	it("gives nothing when no file was touched", () => {
		expect(fileEvents([assistant("", [call("1", "bash", { command: "ls" })])])).toEqual([]);
		expect(fileEvents([])).toEqual([]);
	});

	it("skips a call whose path does not decode or is empty", () => {
		const events = fileEvents([
			assistant("", [
				call("1", "read", { file: "a" }),
				call("2", "edit", { path: 3 }),
				call("3", "write", { path: "" }),
			]),
		]);
		expect(events).toEqual([]);
	});

	it("skips a call whose result is an error, since it read or changed nothing", () => {
		const events = fileEvents([
			assistant("", [call("1", "edit", { path: "a.ts" }), call("2", "edit", { path: "b.ts" })]),
			result("1", "edit", "failed", true),
			result("2", "edit", "ok"),
		]);
		expect(events).toEqual([files([], ["b.ts"])]);
	});

	it("skips the calls of a message that stopped with an error or was aborted, since pi ran none", () => {
		const events = fileEvents([
			assistant("", [call("1", "write", { path: "a.ts" })], "aborted"),
			assistant("", [call("2", "write", { path: "b.ts" })], "error"),
		]);
		expect(events).toEqual([]);
	});
});

describe("calls that ran", () => {
	it("are an assistant message's tool calls unless it stopped with an error or was aborted", () => {
		const calls = [call("1", "read", { path: "a" })];
		expect(callsThatRan(assistant("", calls, "toolUse"))).toEqual(calls);
		expect(callsThatRan(assistant("", calls, "error"))).toEqual([]);
		expect(callsThatRan(assistant("", calls, "aborted"))).toEqual([]);
		expect(callsThatRan({ role: "user", text: "hi" })).toEqual([]);
	});
});

import { describe, expect, it } from "vitest";
import type { Message } from "../../../../src/events/index.js";
import { errorHead, HEAD_CHARS, ledgerEvents, ledgerOf, toolExitCode } from "../../../../src/pass/ledger/ledger.js";
import { initialState, type State } from "../../../../src/reducers/index.js";
import { applied } from "../../../support/applied.js";
import { dataOf, modelFailed } from "../../../support/events.js";
import { assistant, bash, bashRun, call, result, userRun } from "../../../support/messages.js";

/** Given messages, when the ledger reads them as span `span` after `prior`, then these events. */
const read = (messages: readonly Message[], span = 1, prior: State = initialState) =>
	ledgerOf(messages, span, prior).events;

describe("exit code of a bash tool call", () => {
	it("comes from the result's details when they carry one", () => {
		expect(toolExitCode(result("t", "bash", "boom", true, { exitCode: 3 }))).toBe(3);
		expect(toolExitCode(result("t", "bash", "ok", false, { exitCode: null }))).toBeNull();
	});

	it("ignores details that hold only what pi's bash tool puts there (truncation, full output path)", () => {
		const details = { truncation: { truncated: true }, fullOutputPath: "/tmp/pi-bash-1.log" };
		expect(toolExitCode(result("t", "bash", "lots of output", false, details))).toBe(0);
	});

	it("reads pi's 'Command exited with code N' line at the end of a failed run's text", () => {
		expect(toolExitCode(result("t", "bash", "npm ERR! test failed\n\nCommand exited with code 2", true))).toBe(2);
		expect(toolExitCode(result("t", "bash", "Command exited with code 127", true))).toBe(127);
	});

	it("reads the older form where the code line follows the output directly", () => {
		expect(toolExitCode(result("t", "bash", "partial outputCommand exited with code 1", true))).toBe(1);
	});

	it("does not read a code line in the middle of the output", () => {
		expect(toolExitCode(result("t", "bash", "Command exited with code 1\nmore\n\nCommand aborted", true))).toBeNull();
	});

	it("is unknown for an aborted run, a timeout, and a failure without a code", () => {
		expect(toolExitCode(result("t", "bash", "half done\n\nCommand aborted", true))).toBeNull();
		expect(toolExitCode(result("t", "bash", "Command timed out after 30 seconds", true))).toBeNull();
		expect(toolExitCode(result("t", "bash", "Working directory does not exist: /x", true))).toBeNull();
	});

	it("is 0 for a result pi did not mark failed, even when the output prints a code line", () => {
		expect(toolExitCode(result("t", "bash", "(no output)"))).toBe(0);
		expect(toolExitCode(result("t", "bash", "echo says: Command exited with code 1"))).toBe(0);
	});

	it("is unknown when the call has no result", () => {
		expect(toolExitCode(undefined)).toBeNull();
	});
});

describe("commands", () => {
	it("records each bash call with its command text, exit code, span and tool-call id", () => {
		const events = read(
			[
				assistant("", [bash("t1", "npm test"), bash("t2", "ls")]),
				result("t1", "bash", "x\n\nCommand exited with code 1", true),
				result("t2", "bash", "a.ts"),
			],
			3,
		);
		expect(dataOf(events, "command-recorded")).toEqual([
			{ id: "C1", command: "npm test", exitCode: 1, span: 3, toolCallId: "t1", by: "tool" },
			{ id: "C2", command: "ls", exitCode: 0, span: 3, toolCallId: "t2", by: "tool" },
		]);
	});

	it("records a bash call without a result with an unknown exit code and no error", () => {
		const events = read([assistant("", [bash("t1", "sleep 100")])]);
		expect(dataOf(events, "command-recorded")[0]?.exitCode).toBeNull();
		expect(dataOf(events, "error-recorded")).toEqual([]);
	});

	it("skips the tool calls of a message that stopped with an error or was aborted, since pi ran none", () => {
		const events = read([
			assistant("", [bash("t1", "ls")], "aborted"),
			assistant("", [bash("t2", "pwd")], "error", "overloaded"),
		]);
		expect(dataOf(events, "command-recorded")).toEqual([]);
	});

	it("records the user's own `!` run with its exit code, no tool-call id, by user", () => {
		const events = read([userRun("make", 0)]);
		expect(dataOf(events, "command-recorded")).toEqual([
			{ id: "C1", command: "make", exitCode: 0, span: 1, toolCallId: null, by: "user" },
		]);
	});

	it("gives a cancelled user run no exit code and no error", () => {
		const events = read([userRun("make", 130, true)]);
		expect(dataOf(events, "command-recorded")[0]?.exitCode).toBeNull();
		expect(dataOf(events, "error-recorded")).toEqual([]);
	});

	it("leaves out a bash call whose command does not decode, but keeps its failed result as an error", () => {
		const events = read([
			assistant("", [call("t1", "bash", { cmd: "ls" })]),
			result("t1", "bash", "Validation failed: command is required", true),
		]);
		expect(dataOf(events, "command-recorded")).toEqual([]);
		expect(dataOf(events, "error-recorded")).toEqual([
			{ id: "E1", tool: "bash", head: "Validation failed: command is required", span: 1, command: null },
		]);
	});
});

describe("errors", () => {
	it("records a failed bash call as an error of its command", () => {
		const events = read([...bashRun("t1", "npm test", "\n  FAIL a.test.ts\n\nCommand exited with code 1", true)]);
		expect(dataOf(events, "error-recorded")).toEqual([
			{ id: "E1", tool: "bash", head: "FAIL a.test.ts\n\nCommand exited with code 1", span: 1, command: "C1" },
		]);
	});

	it("records a bash call the user interrupted (pi marks it failed, 'Command aborted') with no exit code and no error", () => {
		const events = read([
			...bashRun("t1", "npm run dev", "Local: http://localhost:5173/\n\nCommand aborted", true),
			...bashRun("t2", "sleep 99", "Command aborted", true),
		]);
		expect(dataOf(events, "command-recorded").map((c) => [c.id, c.exitCode])).toEqual([
			["C1", null],
			["C2", null],
		]);
		expect(dataOf(events, "error-recorded")).toEqual([]);
	});

	it("still records a run that timed out, and one whose output only mentions an abort, as errors", () => {
		const events = read([
			...bashRun("t1", "npm test", "Command timed out after 30 seconds", true),
			...bashRun("t2", "node x.js", "Command aborted by the script\n\nCommand exited with code 1", true),
		]);
		expect(dataOf(events, "error-recorded").map((e) => e.command)).toEqual(["C1", "C2"]);
	});

	it("an interrupted run fixes nothing: the earlier failure of the same text stays open", () => {
		const events = read([
			...bashRun("t1", "npm test", "Command exited with code 1", true),
			...bashRun("t2", "npm test", "Command aborted", true),
		]);
		expect(dataOf(events, "error-fixed")).toEqual([]);
		expect(dataOf(events, "error-recorded").map((e) => e.id)).toEqual(["E1"]);
	});

	it("records a non-zero exit from details as an error even when the result is not marked failed", () => {
		const events = read([...bashRun("t1", "make", "", false, { exitCode: 1 })]);
		expect(dataOf(events, "error-recorded")).toEqual([
			{ id: "E1", tool: "bash", head: "exit code 1", span: 1, command: "C1" },
		]);
	});

	it("records a failed edit or write without a command, with the file its call names", () => {
		const events = read([
			assistant("", [call("t1", "edit", { path: "a.ts", oldText: "x", newText: "y" })]),
			result("t1", "edit", "Could not find the exact text in a.ts", true, {}),
			assistant("", [call("t2", "write", { path: "/ro/b.ts", content: "x" })]),
			result("t2", "write", "EACCES: permission denied", true, {}),
		]);
		expect(dataOf(events, "error-recorded")).toEqual([
			{ id: "E1", tool: "edit", head: "Could not find the exact text in a.ts", span: 1, command: null, path: "a.ts" },
			{ id: "E2", tool: "write", head: "EACCES: permission denied", span: 1, command: null, path: "/ro/b.ts" },
		]);
	});

	it("records a failed result of any other tool without a command and without a path", () => {
		const events = read([
			assistant("", [call("t1", "read", { path: "gone.ts" })]),
			result("t1", "read", "ENOENT: no such file or directory", true, {}),
		]);
		expect(dataOf(events, "error-recorded")).toEqual([
			{ id: "E1", tool: "read", head: "ENOENT: no such file or directory", span: 1, command: null },
		]);
	});

	it("records the session's own model stopping with an error as a model failure, not an error of the work", () => {
		const events = read([assistant("", [], "error", "529 overloaded_error"), assistant("", [], "error", "")]);
		expect(dataOf(events, "model-failed")).toEqual([
			{ span: 1, head: "529 overloaded_error" },
			{ span: 1, head: "(no message)" },
		]);
		expect(dataOf(events, "error-recorded")).toEqual([]);
		const state = applied(initialState, events);
		expect(state.errors).toEqual([]);
		expect(state.modelFailures).toEqual(dataOf(events, "model-failed"));
	});

	it("records a user run that exited non-zero as an error of its command", () => {
		const events = read([userRun("make", 2, false, "make: *** [all] Error 2")]);
		expect(dataOf(events, "error-recorded")).toEqual([
			{ id: "E1", tool: "bash", head: "make: *** [all] Error 2", span: 1, command: "C1" },
		]);
	});

	it("records no error for a grep that found nothing or a diff that found a difference (exit 1)", () => {
		const events = read([
			assistant("", [bash("t1", 'grep -n "invalidate" src/text.ts')]),
			result("t1", "bash", "Command exited with code 1", true),
			...bashRun("t2", "cd pkg && diff a.txt b.txt", "1c1\n< a\n---\n> b\n\nCommand exited with code 1", true),
			userRun("test -f dist/index.js", 1),
		]);
		expect(dataOf(events, "command-recorded").map((c) => c.exitCode)).toEqual([1, 1, 1]);
		expect(dataOf(events, "error-recorded")).toEqual([]);
	});

	it("still records grep's exit 2 (a missing file), and exit 1 where the chain ends in another command", () => {
		const events = read([
			...bashRun(
				"t1",
				"grep x missing.ts",
				"grep: missing.ts: No such file or directory\n\nCommand exited with code 2",
				true,
			),
			...bashRun("t2", "grep -q x f && npm test", "Command exited with code 1", true),
		]);
		expect(dataOf(events, "error-recorded").map((e) => e.command)).toEqual(["C1", "C2"]);
	});

	it("keeps the first HEAD_CHARS characters of the text as the head, trimmed, never half a surrogate pair", () => {
		expect(errorHead(`  ${"x".repeat(500)}`, "-")).toBe("x".repeat(HEAD_CHARS));
		const astral = `${"a".repeat(HEAD_CHARS - 1)}😀tail`;
		expect(errorHead(astral, "-")).toBe("a".repeat(HEAD_CHARS - 1));
		expect(errorHead(" \n ", "(no output)")).toBe("(no output)");
	});
});

describe("fixes", () => {
	const fail = (id: string, command: string): Message[] => [
		assistant("", [bash(id, command)]),
		result(id, "bash", "Command exited with code 1", true),
	];
	const pass = (id: string, command: string): Message[] => [
		assistant("", [bash(id, command)]),
		result(id, "bash", "ok"),
	];

	it("a later success of the same command text fixes the earlier open error", () => {
		const events = read([...fail("t1", "npm test"), ...pass("t2", "npm test")]);
		expect(dataOf(events, "error-fixed")).toEqual([{ error: "E1", by: "C2" }]);
		const state = applied(initialState, events);
		expect(state.errors.map((e) => e.fixedBy)).toEqual(["C2"]);
	});

	it("one success fixes every earlier failure of that command", () => {
		const events = read([...fail("t1", "npm test"), ...fail("t2", "npm test"), ...pass("t3", "npm test")]);
		expect(dataOf(events, "error-fixed")).toEqual([
			{ error: "E1", by: "C3" },
			{ error: "E2", by: "C3" },
		]);
	});

	it("a success of a different command fixes nothing", () => {
		const events = read([...fail("t1", "npm test"), ...pass("t2", "npm run build")]);
		expect(dataOf(events, "error-fixed")).toEqual([]);
	});

	it("a success before the failure fixes nothing", () => {
		const events = read([...pass("t1", "npm test"), ...fail("t2", "npm test")]);
		expect(dataOf(events, "error-fixed")).toEqual([]);
	});

	it("a user run fixes an open error of a tool call with the same command text", () => {
		const events = read([...fail("t1", "make"), userRun("make", 0)]);
		expect(dataOf(events, "error-fixed")).toEqual([{ error: "E1", by: "C2" }]);
	});

	it("fixes an open error that an earlier span carried", () => {
		const prior = applied(initialState, read(fail("t1", "npm test"), 1));
		const events = read(pass("t9", "npm test"), 2, prior);
		expect(dataOf(events, "error-fixed")).toEqual([{ error: "E1", by: "C2" }]);
	});

	it("does not fix again an error an earlier span already fixed", () => {
		const prior = applied(initialState, read([...fail("t1", "npm test"), ...pass("t2", "npm test")], 1));
		const events = read(pass("t3", "npm test"), 2, prior);
		expect(dataOf(events, "error-fixed")).toEqual([]);
	});

	it("a grep that found nothing fixes the error an earlier run of the same text raised (it ran)", () => {
		const events = read([
			...bashRun("t1", "grep x f.ts", "grep: f.ts: No such file or directory\n\nCommand exited with code 2", true),
			...fail("t2", "grep x f.ts"),
		]);
		expect(dataOf(events, "error-fixed")).toEqual([{ error: "E1", by: "C2" }]);
	});

	it("a command with an unknown exit code fixes nothing", () => {
		const events = read([...fail("t1", "npm test"), assistant("", [bash("t2", "npm test")])]);
		expect(dataOf(events, "error-fixed")).toEqual([]);
	});
});

describe("fixes of edits and writes", () => {
	const change = (id: string, name: string, path: string, failed: boolean): Message[] => [
		assistant("", [call(id, name, { path, oldText: "x", newText: "y" })]),
		result(
			id,
			name,
			failed ? `Could not find the exact text in ${path}.` : `Successfully replaced text in ${path}.`,
			failed,
			{},
		),
	];

	it("a later successful edit of the same file fixes every earlier failed edit of it, naming tool and path", () => {
		const events = read([
			...change("t1", "edit", "src/index.ts", true),
			...change("t2", "edit", "src/index.ts", true),
			...change("t3", "edit", "src/index.ts", false),
		]);
		expect(dataOf(events, "error-fixed")).toEqual([
			{ error: "E1", byTool: "edit", path: "src/index.ts" },
			{ error: "E2", byTool: "edit", path: "src/index.ts" },
		]);
		const state = applied(initialState, events);
		expect(state.errors.map((e) => e.fixedBy)).toEqual(["edit of src/index.ts", "edit of src/index.ts"]);
	});

	it("a write of the file fixes a failed edit of it, and an edit fixes a failed write", () => {
		const events = read([
			...change("t1", "edit", "a.ts", true),
			...change("t2", "write", "a.ts", false),
			...change("t3", "write", "b.ts", true),
			...change("t4", "edit", "b.ts", false),
		]);
		expect(dataOf(events, "error-fixed")).toEqual([
			{ error: "E1", byTool: "write", path: "a.ts" },
			{ error: "E2", byTool: "edit", path: "b.ts" },
		]);
	});

	it("fixes nothing with a success of another file, a success before the failure, or a read of the file", () => {
		const events = read([
			...change("t1", "edit", "a.ts", false),
			...change("t2", "edit", "a.ts", true),
			...change("t3", "edit", "b.ts", false),
			assistant("", [call("t4", "read", { path: "a.ts" })]),
			result("t4", "read", "text"),
		]);
		expect(dataOf(events, "error-fixed")).toEqual([]);
		expect(applied(initialState, events).errors.map((e) => e.fixedBy)).toEqual([null]);
	});

	it("fixes a failed edit an earlier span carried, once", () => {
		const prior = applied(initialState, read(change("t1", "edit", "a.ts", true), 1));
		const events = read([...change("t2", "edit", "a.ts", false), ...change("t3", "edit", "a.ts", false)], 2, prior);
		expect(dataOf(events, "error-fixed")).toEqual([{ error: "E1", byTool: "edit", path: "a.ts" }]);
		expect(read(change("t4", "edit", "a.ts", false), 3, applied(prior, events))).toEqual([]);
	});

	it("read again, a span whose success came before its failure does not fix the failure", () => {
		const messages = [...change("t1", "edit", "a.ts", false), ...change("t2", "edit", "a.ts", true)];
		const prior = applied(initialState, read(messages, 1));
		expect(read(messages, 1, prior)).toEqual([]);
	});
});

describe("ids and merging with the prior state", () => {
	it("continues from the highest C<n> and E<n> the prior state holds", () => {
		const prior: State = {
			...initialState,
			commands: [{ id: "C7", command: "ls", exitCode: 0, span: 1, toolCallId: "old", by: "tool" }],
			errors: [{ id: "E3", tool: "edit", head: "x", span: 1, command: null, fixedBy: null }],
		};
		const events = read([userRun("make", 1)], 2, prior);
		expect(dataOf(events, "command-recorded").map((c) => c.id)).toEqual(["C8"]);
		expect(dataOf(events, "error-recorded").map((e) => e.id)).toEqual(["E4"]);
	});

	it("gives a tool call the prior state already holds no new id", () => {
		const messages = [...bashRun("t1", "npm test", "Command exited with code 1", true)];
		const prior = applied(initialState, read(messages, 1));
		expect(read(messages, 1, prior)).toEqual([]);
	});

	it("knows a user run again by its span, text and place, so reading its span twice adds nothing", () => {
		const messages = [userRun("ls", 0), userRun("ls", 2), userRun("pwd", 0)];
		const prior = applied(initialState, read(messages, 4));
		expect(read(messages, 4, prior)).toEqual([]);
	});

	it("records a user run of the same text in another span as a new command", () => {
		const prior = applied(initialState, read([userRun("ls", 0)], 1));
		expect(dataOf(read([userRun("ls", 0)], 2, prior), "command-recorded").map((c) => c.id)).toEqual(["C2"]);
	});

	it("knows a command-less error again by its span, tool, head and place", () => {
		const failed = (id: string): Message[] => [
			assistant("", [call(id, "read", { path: "gone.ts" })]),
			result(id, "read", "ENOENT", true, {}),
		];
		const messages = [...failed("t1"), ...failed("t2")];
		const prior = applied(initialState, read(messages, 2));
		expect(prior.errors.map((e) => e.id)).toEqual(["E1", "E2"]);
		expect(read(messages, 2, prior)).toEqual([]);
	});

	it("knows a model failure again by its span, head and place, and records it again in another span", () => {
		const messages = [assistant("", [], "error", "overloaded"), assistant("", [], "error", "overloaded")];
		const prior = applied(initialState, read(messages, 2));
		expect(prior.modelFailures).toHaveLength(2);
		expect(read(messages, 2, prior)).toEqual([]);
		expect(read(messages.slice(0, 1), 3, prior)).toEqual([modelFailed(3, "overloaded")]);
	});

	it("gives no E<n> to a model failure: the next error's id follows the errors only", () => {
		const events = read([assistant("", [], "error", "overloaded"), userRun("make", 2)]);
		expect(dataOf(events, "error-recorded").map((e) => e.id)).toEqual(["E1"]);
	});

	it("is deterministic: the same input gives the same events", () => {
		const messages = [
			assistant("", [bash("t1", "npm test"), call("t2", "read", { path: "a.ts" })]),
			result("t1", "bash", "Tests 3 passed\nDuration 1.2s"),
			result("t2", "read", "text"),
			userRun("git log -1", 0, false, "commit 1a2b3c4d"),
		];
		expect(ledgerEvents(messages, 1, initialState)).toEqual(ledgerEvents(messages, 1, initialState));
	});
});

describe("ledgerEvents", () => {
	it("gives the ledger, then the values its commands printed, then the files", () => {
		const events = ledgerEvents(
			[
				assistant("", [
					bash("t1", "npm run dev"),
					call("t2", "edit", { path: "src/a.ts", oldText: "a", newText: "b" }),
				]),
				result("t1", "bash", "Local: http://localhost:5173/"),
				result("t2", "edit", "ok"),
			],
			1,
			initialState,
		);
		expect(events.map((e) => e.type)).toEqual(["command-recorded", "value-recorded", "files-touched"]);
		expect(dataOf(events, "value-recorded")).toEqual([{ name: "port", value: "5173", source: "C1" }]);
		expect(dataOf(events, "files-touched")).toEqual([{ read: [], modified: ["src/a.ts"] }]);
	});
});

describe("runs, errors and fixes as real sessions have them", () => {
	const edit = (id: string, path: string, failed: boolean): Message[] => [
		assistant("", [call(id, "edit", { path, oldText: "x", newText: "y" })]),
		result(
			id,
			"edit",
			failed ? `Could not find the exact text in ${path}.` : `Successfully replaced text in ${path}.`,
			failed,
			{},
		),
	];

	it("heads a failed run with no output and no exit code '(no output)', and a failed tool's empty text too", () => {
		const events = read([
			assistant("", [bash("t1", "sleep 100"), call("t2", "read", { path: "a.ts" })]),
			result("t1", "bash", "", true, { exitCode: null }),
			result("t2", "read", "", true, {}),
		]);
		expect(dataOf(events, "error-recorded").map((e) => e.head)).toEqual(["(no output)", "(no output)"]);
	});

	it("records a failed tool's error with no path key at all when its call names no file", () => {
		const events = read([
			assistant("", [call("t1", "read", { path: "a.ts" })]),
			result("t1", "read", "ENOENT", true, {}),
		]);
		expect(dataOf(events, "error-recorded")).toStrictEqual([
			{ id: "E1", tool: "read", head: "ENOENT", span: 1, command: null },
		]);
	});

	it("keeps 200 characters when the 200th is a replacement character or the last high surrogate's neighbour", () => {
		const text = `${"a".repeat(HEAD_CHARS - 1)}\ufffd tail`;
		expect(errorHead(text, "")).toBe(text.slice(0, HEAD_CHARS));
		const low = `${"a".repeat(HEAD_CHARS - 1)}\udc00 tail`;
		expect(errorHead(low, "")).toBe(low.slice(0, HEAD_CHARS));
	});

	it("drops a high surrogate at the cut, the lowest and the highest", () => {
		for (const high of ["\ud800", "\udbff"]) {
			const text = `${"a".repeat(HEAD_CHARS - 1)}${high}\udc00 tail`;
			expect(errorHead(text, "")).toBe("a".repeat(HEAD_CHARS - 1));
		}
	});

	it("reads a call named otherwise that carries a command argument as no command", () => {
		const events = read([
			assistant("", [call("t1", "task", { command: "npm test" })]),
			result("t1", "task", "done", false, {}),
		]);
		expect(dataOf(events, "command-recorded")).toEqual([]);
	});

	it("keeps an empty output for a bash call that has no result", () => {
		expect(ledgerOf([assistant("", [bash("t1", "sleep 100")])], 1, initialState).outputs).toEqual([
			{ id: "C1", output: "" },
		]);
	});

	it("reads the first result of a tool-call id that repeats", () => {
		const events = read([
			...bashRun("t1", "npm test", "FAIL\n\nCommand exited with code 1", true),
			result("t1", "bash", "ok"),
		]);
		expect(dataOf(events, "command-recorded").map((c) => c.exitCode)).toEqual([1]);
		expect(dataOf(events, "error-recorded").map((e) => e.command)).toEqual(["C1"]);
	});

	it("is one command and one error when a tool-call id repeats across messages", () => {
		const events = read([
			assistant("", [bash("t1", "cd pkg && npm test")]),
			...bashRun("t1", "cd pkg && npm test", "FAIL src/a.test.ts\n\nCommand exited with code 1", true),
		]);
		expect(dataOf(events, "command-recorded").map((c) => c.id)).toEqual(["C1"]);
		expect(dataOf(events, "error-recorded").map((e) => [e.id, e.command])).toEqual([["E1", "C1"]]);
	});

	it("names the file of the first edit call of a repeated tool-call id", () => {
		const events = read([
			assistant("", [call("t1", "edit", { path: "a.ts", oldText: "x", newText: "y" })]),
			assistant("", [call("t1", "edit", { path: "b.ts", oldText: "x", newText: "y" })]),
			result("t1", "edit", "Could not find the exact text in a.ts.", true, {}),
		]);
		expect(dataOf(events, "error-recorded").map((e) => e.path)).toEqual(["a.ts"]);
	});

	it("fixes an error once: a second success of the same command fixes nothing more", () => {
		const events = read([userRun("npm test", 1), userRun("npm test", 0), userRun("npm test", 0)]);
		expect(dataOf(events, "error-fixed")).toEqual([{ error: "E1", by: "C2" }]);
	});

	it("read again with a later success, a span whose success came before its failure fixes the failure with the later one", () => {
		const first = [
			...bashRun("t1", "npm test", "ok"),
			...bashRun("t2", "npm test", "FAIL\n\nCommand exited with code 1", true),
		];
		const prior = applied(initialState, read(first, 1));
		const later = [...first, ...bashRun("t3", "npm test", "ok")];
		expect(dataOf(read(later, 1, prior), "error-fixed")).toEqual([{ error: "E1", by: "C3" }]);
	});

	it("a run never fixes the error it raised, even read again with a result that changed", () => {
		const prior = applied(
			initialState,
			read([...bashRun("t1", "npm test", "x\n\nCommand exited with code 1", true)], 1),
		);
		expect(read([...bashRun("t1", "npm test", "ok")], 1, prior)).toEqual([]);
	});

	it("continues the C<n> after the commands an error names as raiser or fixer", () => {
		const prior: State = {
			...initialState,
			commands: [{ id: "C1", command: "ls", exitCode: 0, span: 1, toolCallId: "old", by: "tool" }],
			errors: [
				{ id: "E1", tool: "bash", head: "x", span: 1, command: "C4", fixedBy: "C9" },
				{ id: "E2", tool: "bash", head: "y", span: 1, command: "C6", fixedBy: null },
			],
		};
		expect(dataOf(read([userRun("make", 0)], 2, prior), "command-recorded").map((c) => c.id)).toEqual(["C10"]);
	});

	it("records a failure of another tool or head in a span read again, and the same failure in another span", () => {
		const failed = (id: string, name: string, text: string): Message[] => [
			assistant("", [call(id, name, { path: "gone.ts" })]),
			result(id, name, text, true, {}),
		];
		const prior = applied(initialState, read(failed("t1", "read", "ENOENT"), 2));
		const again = [
			...failed("t1", "read", "ENOENT"),
			...failed("t2", "ls", "ENOENT"),
			...failed("t3", "read", "EACCES"),
		];
		expect(dataOf(read(again, 2, prior), "error-recorded").map((e) => [e.id, e.tool, e.head])).toEqual([
			["E2", "ls", "ENOENT"],
			["E3", "read", "EACCES"],
		]);
		expect(dataOf(read(failed("t9", "read", "ENOENT"), 3, prior), "error-recorded").map((e) => e.id)).toEqual(["E2"]);
	});

	it("read again with the later successful edit, a span's failed edit is fixed by it", () => {
		const prior = applied(initialState, read(edit("t1", "a.ts", true), 1));
		const events = read([...edit("t1", "a.ts", true), ...edit("t2", "a.ts", false)], 1, prior);
		expect(dataOf(events, "error-fixed")).toEqual([{ error: "E1", byTool: "edit", path: "a.ts" }]);
	});

	it("read again, a span whose failed edit a later edit fixed adds nothing", () => {
		const messages = [...edit("t1", "a.ts", true), ...edit("t2", "a.ts", false)];
		const prior = applied(initialState, read(messages, 1));
		expect(read(messages, 1, prior)).toEqual([]);
	});

	it("records the second model failure of a head as new when the prior state knows only one of that span", () => {
		const prior = applied(initialState, read([assistant("", [], "error", "overloaded")], 2));
		const twice = [assistant("", [], "error", "overloaded"), assistant("", [], "error", "overloaded")];
		expect(read(twice, 2, prior)).toEqual([modelFailed(2, "overloaded")]);
	});
});

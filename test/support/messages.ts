import type { Message, ToolCall } from "../../src/events/index.js";

// The messages a pass reads, as src/events/messages.ts decodes them from pi's (`Message`), for the tests of what
// reads them: the ledger, the files, the prompt, the Digest, the span's redaction. The raw pi entries they are
// decoded from are entries.ts's.

type MessageOf<R extends Message["role"]> = Extract<Message, { role: R }>;

/** A call `id` of tool `name` with `args`. */
export function call(id: string, name: string, args: unknown): ToolCall {
	return { id, name, arguments: args };
}

/** A call `id` of pi's bash tool running `command`. */
export function bash(id: string, command: string): ToolCall {
	return call(id, "bash", { command });
}

/** The user saying `text`. */
export function user(text: string): MessageOf<"user"> {
	return { role: "user", text };
}

/** The assistant saying `text` and making `calls`: it stopped for the tools when it made any, unless told. */
export function assistant(
	text: string,
	calls: readonly ToolCall[] = [],
	stopReason = calls.length === 0 ? "stop" : "toolUse",
	errorMessage = "",
): MessageOf<"assistant"> {
	return { role: "assistant", text, toolCalls: calls, stopReason, errorMessage };
}

/** Tool `toolName`'s result of call `toolCallId`. */
export function result(
	toolCallId: string,
	toolName: string,
	text: string,
	isError = false,
	details: unknown = undefined,
): MessageOf<"toolResult"> {
	return { role: "toolResult", toolCallId, toolName, text, isError, details };
}

/** The agent running `command` with pi's bash tool (call `id`) and the tool's result: the two messages of one run. */
export function bashRun(
	id: string,
	command: string,
	output: string,
	isError = false,
	details: unknown = undefined,
): readonly [MessageOf<"assistant">, MessageOf<"toolResult">] {
	return [assistant("", [bash(id, command)]), result(id, "bash", output, isError, details)];
}

/** The user's own `!` run of `command`. */
export function userRun(
	command: string,
	exitCode: number | null,
	cancelled = false,
	output = "out",
): MessageOf<"bashExecution"> {
	return { role: "bashExecution", command, output, exitCode, cancelled };
}

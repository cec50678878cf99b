import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { Event, Message, ToolCall } from "../../events/index.js";

const PathArguments = t.type({ path: t.string });

const READS: ReadonlySet<string> = new Set(["read"]);
const MODIFIES: ReadonlySet<string> = new Set(["edit", "write"]);

/** The tool calls of a message that pi executed: none when it stopped with an error or was aborted. */
export function callsThatRan(message: Message): readonly ToolCall[] {
	// pi's agent loop returns before running any tool call of such a message, so none has a result.
	if (message.role !== "assistant" || message.stopReason === "error" || message.stopReason === "aborted") return [];
	return message.toolCalls;
}

function failedCalls(messages: readonly Message[]): Set<string> {
	const failed = new Set<string>();
	for (const message of messages) if (message.role === "toolResult" && message.isError) failed.add(message.toolCallId);
	return failed;
}

function pathOf(call: ToolCall): string | undefined {
	const decoded = PathArguments.decode(call.arguments);
	return E.isRight(decoded) && decoded.right.path !== "" ? decoded.right.path : undefined;
}

/** The file an `edit` or `write` call names; undefined for any other call. */
export function modifiedPath(call: ToolCall): string | undefined {
	return MODIFIES.has(call.name) ? pathOf(call) : undefined;
}

/**
 * The files a span's `read`, `edit` and `write` calls touched, each list de-duplicated in first-seen order; no
 * event when there are none. A call whose result is an error read or changed nothing, so it is left out.
 */
export function fileEvents(messages: readonly Message[]): Event[] {
	const failed = failedCalls(messages);
	const read = new Set<string>();
	const modified = new Set<string>();
	for (const message of messages) {
		for (const call of callsThatRan(message)) {
			const path = failed.has(call.id) ? undefined : pathOf(call);
			if (path === undefined) continue;
			if (READS.has(call.name)) read.add(path);
			else if (MODIFIES.has(call.name)) modified.add(path);
		}
	}
	if (read.size === 0 && modified.size === 0) return [];
	return [{ type: "files-touched", data: { read: [...read], modified: [...modified] } }];
}

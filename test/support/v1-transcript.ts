// A v1 transcript (pi's oldest format: no ids, compactions name their first kept line by index) built in a test.

const ts = "2025-12-08T22:41:05.306Z";

/** One line of the file, before the header is put in front. */
export type Line = Record<string, unknown>;

/** A user message. */
export function user(text: string): Line {
	return { type: "message", timestamp: ts, message: { role: "user", content: [{ type: "text", text }], timestamp: 1 } };
}

/** An assistant reply: text, then tool calls `[id, name, args]`. */
export function assistant(text: string, calls: readonly (readonly [string, string, object])[] = []): Line {
	const content = [
		...(text === "" ? [] : [{ type: "text", text }]),
		...calls.map(([id, name, args]) => ({ type: "toolCall", id, name, arguments: args })),
	];
	const stopReason = calls.length > 0 ? "toolUse" : "stop";
	return { type: "message", timestamp: ts, message: { role: "assistant", content, stopReason, timestamp: 1 } };
}

/** A reply that failed with a provider error. */
export function failedReply(errorMessage: string): Line {
	return {
		type: "message",
		timestamp: ts,
		message: { role: "assistant", content: [], stopReason: "error", errorMessage, timestamp: 1 },
	};
}

/** A tool call's result. */
export function result(toolCallId: string, toolName: string, text: string, isError = false): Line {
	return {
		type: "message",
		timestamp: ts,
		message: { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError, timestamp: 1 },
	};
}

/** A user's `!` run. */
export function userRun(command: string, output: string, exitCode: number): Line {
	return {
		type: "message",
		timestamp: ts,
		message: { role: "bashExecution", command, output, exitCode, cancelled: false, truncated: false, timestamp: 1 },
	};
}

/** pi's own compaction; `firstKeptEntryIndex` counts lines from 0 with the header. */
export function compaction(summary: string, firstKeptEntryIndex: number): Line {
	return { type: "compaction", timestamp: ts, summary, firstKeptEntryIndex, tokensBefore: 1000 };
}

/** The lines as a v1 file: a header without a version, then one JSON object per line. */
export function v1Text(lines: readonly Line[]): string {
	const header = { type: "session", id: "v1-test", timestamp: ts, cwd: "/nowhere" };
	return `${[header, ...lines].map((line) => JSON.stringify(line)).join("\n")}\n`;
}

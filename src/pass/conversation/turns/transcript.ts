import type { Event, Message, ToolCall } from "../../../events/index.js";
import { argsText, cut, headTail } from "../../prompt/index.js";

const ASSISTANT_CHARS = 160;
const ARGS_CHARS = 120;
const RESULT_HEAD = 120;
const RESULT_TAIL = 80;
/** A tool-call id longer than this is not shown: `show` could not be asked for it in a sane argument. */
const SHOWN_CALL_ID_CHARS = 64;

type ToolResult = Extract<Message, { role: "toolResult" }>;

/** A call with its result on one line: a bash call by its ledger id, another by its tool, arguments and id. */
function callLine(call: ToolCall, commandId: string | undefined, result: ToolResult | undefined): string {
	const named =
		commandId !== undefined
			? { role: "call", tool: call.name, id: commandId }
			: {
					role: "call",
					tool: call.name,
					args: cut(argsText(call.arguments), ARGS_CHARS),
					...(call.id.length <= SHOWN_CALL_ID_CHARS ? { call: call.id } : {}),
				};
	const outcome =
		result === undefined
			? { result: "(no result)" }
			: { ...(result.isError ? { error: true } : {}), result: headTail(result.text, RESULT_HEAD, RESULT_TAIL) };
	return JSON.stringify({ ...named, ...outcome });
}

/**
 * The condensed transcript of the Digest: one JSON line per tool call with its result cut to head and tail, the
 * user's messages by id, assistant text cut short. Roles are data, so text inside can never pose as another role.
 */
export function transcriptLines(
	messages: readonly Message[],
	userRefs: readonly string[],
	commandIds: ReadonlyMap<string, string>,
): string[] {
	const results = new Map<string, ToolResult>();
	for (const m of messages) if (m.role === "toolResult") results.set(m.toolCallId, m);
	const called = new Set<string>();
	const lines: string[] = [];
	let userIndex = 0;
	for (const m of messages) {
		if (m.role === "user") lines.push(JSON.stringify({ role: "user", msg: userRefs[userIndex++] ?? "?" }));
		else if (m.role === "assistant") {
			if (m.text.trim() !== "") lines.push(JSON.stringify({ role: "assistant", text: cut(m.text, ASSISTANT_CHARS) }));
			for (const call of m.toolCalls) {
				called.add(call.id);
				lines.push(callLine(call, commandIds.get(call.id), results.get(call.id)));
			}
			if (m.stopReason === "error")
				lines.push(JSON.stringify({ role: "assistant-error", text: cut(m.errorMessage, ASSISTANT_CHARS) }));
		} else if (m.role === "toolResult") {
			if (!called.has(m.toolCallId))
				lines.push(
					JSON.stringify({ role: "result", tool: m.toolName, result: headTail(m.text, RESULT_HEAD, RESULT_TAIL) }),
				);
		} else {
			const run = { role: "user-run", command: cut(m.command, ARGS_CHARS), exit: m.exitCode };
			lines.push(JSON.stringify({ ...run, output: headTail(m.output, RESULT_HEAD, RESULT_TAIL) }));
		}
	}
	return lines;
}

/** The ledger id of each bash call the ledger recorded, by tool-call id. */
export function commandIdsByCall(ledger: readonly Event[]): Map<string, string> {
	const ids = new Map<string, string>();
	for (const e of ledger)
		if (e.type === "command-recorded" && e.data.toolCallId !== null) ids.set(e.data.toolCallId, e.data.id);
	return ids;
}

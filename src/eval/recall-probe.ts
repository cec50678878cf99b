import {
	type AssistantMessage,
	type Context,
	type Message,
	type ToolCall,
	type ToolResultMessage,
	validateToolArguments,
} from "@mariozechner/pi-ai";
import { type AgentSession, wrapRegisteredTool } from "@mariozechner/pi-coding-agent";

// The probe on Longhaul's side as the agent could answer it: with the registered `longhaul_recall` tool, run by pi's
// own wrapper with the session's extension context, so it answers on the session as it stands when it is called.
// `score` calls it right after a compaction, before the replay goes on: on the branch as it stood at that point.

/** The tool the probe may call. */
export const RECALL_TOOL = "longhaul_recall";
/** Rounds of tool calls the probe may make before its answer. */
export const MAX_RECALL_ROUNDS = 3;
/** Said after the last round, so the next reply is the answer. Exported for tests. */
export const RECALL_SPENT = `No more ${RECALL_TOOL} calls: answer my question now, from what you have.`;

/** The registered tool as pi runs it for the agent (pi's wrapper, the session's extension context). */
export type RecallTool = ReturnType<typeof wrapRegisteredTool>;

/** The session's registered `longhaul_recall`, wrapped as pi wraps it; undefined when Longhaul registered none. */
export function recallToolOf(session: AgentSession): RecallTool | undefined {
	const runner = session.extensionRunner;
	const registered = runner.getAllRegisteredTools().find((tool) => tool.definition.name === RECALL_TOOL);
	return registered === undefined ? undefined : wrapRegisteredTool(registered, runner);
}

/** A model call of the probe, counted by the caller. */
export type Ask = (context: Context) => Promise<AssistantMessage>;

/** The probe's answer, and how many recall calls it made on the way. */
export interface RecallAnswer {
	readonly reply: AssistantMessage;
	readonly recalls: number;
}

function toolResult(call: ToolCall, text: string, isError: boolean): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: call.id,
		toolName: call.name,
		content: [{ type: "text", text }],
		isError,
		timestamp: Date.now(),
	};
}

/** Runs one call the model made: the recall tool with its arguments checked by pi-ai, anything else an error. */
async function run(tool: RecallTool, call: ToolCall): Promise<ToolResultMessage> {
	if (call.name !== tool.name) return toolResult(call, `No tool ${call.name} here; only ${tool.name}.`, true);
	try {
		const prepared: unknown =
			tool.prepareArguments === undefined ? call.arguments : tool.prepareArguments(call.arguments);
		if (typeof prepared !== "object" || prepared === null)
			return toolResult(call, "The arguments are no object.", true);
		const args: unknown = validateToolArguments(tool, { ...call, arguments: prepared });
		const result = await tool.execute(call.id, args);
		return { ...toolResult(call, "", false), content: [...result.content] };
	} catch (error) {
		return toolResult(call, error instanceof Error ? error.message : "the call failed", true);
	}
}

/**
 * Asks `context` with the recall tool offered, running the calls the model makes for at most MAX_RECALL_ROUNDS
 * rounds; the reply after them (or the first without calls) is the answer. After the last round the tool stays
 * offered (a conversation holding tool calls needs it for some providers) but its calls are not run.
 */
export async function answerWithRecall(ask: Ask, context: Context, tool: RecallTool): Promise<RecallAnswer> {
	const offered = { name: tool.name, description: tool.description, parameters: tool.parameters };
	const messages: Message[] = [...context.messages];
	let recalls = 0;
	for (let round = 0; ; round++) {
		const reply = await ask({ ...context, messages: [...messages], tools: [offered] });
		const calls = reply.content.flatMap((block) => (block.type === "toolCall" ? [block] : []));
		// A failed reply ends the probe; calls run whatever the stop reason (some local servers send "stop" with them).
		const failed = reply.stopReason === "error" || reply.stopReason === "aborted";
		if (calls.length === 0 || failed || round === MAX_RECALL_ROUNDS) return { reply, recalls };
		const results: ToolResultMessage[] = [];
		for (const call of calls) results.push(await run(tool, call));
		recalls += calls.filter((call) => call.name === tool.name).length;
		messages.push(reply, ...results);
		if (round === MAX_RECALL_ROUNDS - 1)
			messages.push({ role: "user", content: [{ type: "text", text: RECALL_SPENT }], timestamp: Date.now() });
	}
}

import type {
	Conversation,
	ConversationModel,
	ModelReply,
	ModelRequest,
	PassModel,
} from "../../src/adapters/pass/model.js";
import type { ConversationInput, ToolRequest, ToolSpec } from "../../src/pass/conversation/index.js";

/** A reply from a script: text and, when it matters, a stop reason; or a fault to throw. */
export type Scripted = string | { readonly text: string; readonly stopReason: string } | Error;

/** A model that answers from a script in order, and records every request it got. */
export function scriptedModel(
	script: readonly Scripted[],
	options: { maxTokens?: number; contextWindow?: number } = {},
): PassModel & { readonly requests: ModelRequest[] } {
	const requests: ModelRequest[] = [];
	let next = 0;
	return {
		name: "scripted/model",
		maxTokens: options.maxTokens ?? 32_000,
		contextWindow: options.contextWindow ?? 200_000,
		reasoning: null,
		routeNotUsed: null,
		requests,
		call: async (request: ModelRequest, signal: AbortSignal): Promise<ModelReply> => {
			requests.push(request);
			if (signal.aborted) throw new Error("aborted");
			const item = script[next++];
			if (item === undefined) throw new Error("script ran out");
			if (item instanceof Error) throw item;
			const { text, stopReason } = typeof item === "string" ? { text: item, stopReason: "stop" } : item;
			return {
				text,
				stopReason,
				errorMessage: "",
				inputTokens: request.prompt.length / 4,
				outputTokens: text.length / 4,
			};
		},
	};
}

/**
 * One step of a scripted conversation: a reply as in `Scripted`; tool calls (stop reason `toolUse`); a reply that
 * never comes (it ignores the signal too, like a stuck provider); or a function of what was sent, for a step that
 * must look at the request or move a fake clock.
 */
export type ScriptedStep =
	| ScriptedReply
	| Error
	| { readonly hang: true }
	| ((sent: readonly ConversationInput[]) => ScriptedStep);

/** A reply of a scripted conversation: text (with a stop reason when it matters), or tool calls. */
type ScriptedReply = Exclude<Scripted, Error> | { readonly toolCalls: readonly ToolRequest[]; readonly text?: string };

/** What one `send` received: the system prompt and every input of the conversation so far, the new one last. */
export interface Sent {
	readonly system: string;
	readonly tools: readonly ToolSpec[];
	readonly inputs: readonly ConversationInput[];
	readonly maxTokens: number;
}

function conversationReply(step: ScriptedReply) {
	if (typeof step === "string") return { text: step, stopReason: "stop", toolCalls: [] };
	if ("toolCalls" in step) return { text: step.text ?? "", stopReason: "toolUse", toolCalls: step.toolCalls };
	return { text: step.text, stopReason: step.stopReason, toolCalls: [] };
}

/** A model that holds conversations from one script, in order across all of them, and records every send. */
export function scriptedConversationModel(
	script: readonly ScriptedStep[],
	options: { maxTokens?: number; contextWindow?: number } = {},
): PassModel & ConversationModel & { readonly sent: Sent[] } {
	const sent: Sent[] = [];
	let next = 0;
	const start = (system: string, tools: readonly ToolSpec[], inputs: readonly ConversationInput[]): Conversation => ({
		send: async (input, maxTokens, signal) => {
			const all = [...inputs, input];
			sent.push({ system, tools, inputs: all, maxTokens });
			if (signal.aborted) throw new Error("aborted");
			let step = script[next++];
			while (typeof step === "function") step = step(all);
			if (step === undefined) throw new Error("script ran out");
			if (step instanceof Error) throw step;
			if (typeof step === "object" && "hang" in step) return new Promise<never>(() => {});
			const reply = conversationReply(step);
			return {
				reply: { ...reply, errorMessage: "", inputTokens: 0, outputTokens: reply.text.length / 4 },
				next: start(system, tools, all),
			};
		},
	});
	return {
		...scriptedModel([], options),
		sent,
		converse: (system, tools) => start(system, tools, []),
	};
}

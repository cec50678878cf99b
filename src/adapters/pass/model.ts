import type { ConversationInput, ToolRequest, ToolSpec } from "../../pass/conversation/index.js";

/** One request to the summarizer model. */
export interface ModelRequest {
	readonly system: string;
	readonly prompt: string;
	readonly maxTokens: number;
}

/** The model's reply, reduced to what the pass reads. */
export interface ModelReply {
	readonly text: string;
	/** pi-ai's stop reason: `stop`, `length`, `error`, `aborted`, `toolUse`. */
	readonly stopReason: string;
	readonly errorMessage: string;
	readonly inputTokens: number;
	readonly outputTokens: number;
}

/** The summarizer model as the pass sees it; `call` may reject, and must honour the signal. */
export interface PassModel {
	/** `provider/id` of the model used. */
	readonly name: string;
	/** The model's own output limit. */
	readonly maxTokens: number;
	readonly contextWindow: number;
	/** The reasoning level asked for when the model cannot turn reasoning off; null when it is off. */
	readonly reasoning: string | null;
	/** Why a configured route was not used, when it was not. */
	readonly routeNotUsed: string | null;
	readonly call: (request: ModelRequest, signal: AbortSignal) => Promise<ModelReply>;
	/** Starts a conversation (turns mode); absent for a model that can only answer single calls. */
	readonly converse?: ConversationModel["converse"];
}

/** A reply in a conversation: the model's reply and the tool calls it made (stop reason `toolUse`). */
export interface ConversationReply extends ModelReply {
	readonly toolCalls: readonly ToolRequest[];
}

/** One step of a conversation: the reply, and the conversation with the input and the reply added. */
export interface ConversationStep {
	readonly reply: ConversationReply;
	readonly next: Conversation;
}

/**
 * A conversation with the summarizer, as an immutable history: `send` never changes it but returns a longer one, so
 * a turn abandoned half way (a timeout, a failed call) leaves the conversation as it was before the turn.
 * `send` may reject, and must honour the signal.
 */
export interface Conversation {
	readonly send: (input: ConversationInput, maxTokens: number, signal: AbortSignal) => Promise<ConversationStep>;
}

/** A summarizer that can hold a conversation (turns mode): one system prompt and the tools it may call. */
export interface ConversationModel {
	readonly maxTokens: number;
	readonly converse: (system: string, tools: readonly ToolSpec[]) => Conversation;
}

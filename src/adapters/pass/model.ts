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

/** The one read-only tool a conversation offers: its name, what it does, and its single string parameter. */
export interface ToolSpec {
	readonly name: string;
	readonly description: string;
	readonly parameter: string;
	readonly parameterDescription: string;
}

/** A tool call the model made; its arguments are as the model gave them, for the caller to decode. */
export interface ToolRequest {
	readonly id: string;
	readonly name: string;
	readonly arguments: unknown;
}

/** The answer to one tool call; `refused` marks a refusal (an unknown id, a cap reached). */
export interface ToolAnswer {
	readonly id: string;
	readonly name: string;
	readonly text: string;
	readonly refused: boolean;
}

/** What the next step of a conversation sends: the user's text, or the answers to the model's tool calls. */
export type ConversationInput =
	| { readonly kind: "text"; readonly text: string }
	| { readonly kind: "tool-answers"; readonly answers: readonly ToolAnswer[] };

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

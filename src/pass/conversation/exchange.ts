// What the conversation decider and its driver say to each other: the asks it makes, what the driver heard, the
// traces kept for the log. Plain data: the decider is pure, the driver (src/adapters/pass/converse.ts) does the I/O.

/** A tool call the model made; its arguments are as the model gave them, for the decider to decode. */
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

/** The one read-only tool a conversation offers: its name, what it does, and its single string parameter. */
export interface ToolSpec {
	readonly name: string;
	readonly description: string;
	readonly parameter: string;
	readonly parameterDescription: string;
}

/** What the next step of a conversation sends: the user's text, or the answers to the model's tool calls. */
export type ConversationInput =
	| { readonly kind: "text"; readonly text: string }
	| { readonly kind: "tool-answers"; readonly answers: readonly ToolAnswer[] };

/** The model's reply as the decider reads it; a single call makes no tool calls. */
export interface Reply {
	readonly text: string;
	/** pi-ai's stop reason: `stop`, `length`, `error`, `aborted`, `toolUse`. */
	readonly stopReason: string;
	readonly inputTokens: number;
	readonly outputTokens: number;
	readonly toolCalls: readonly ToolRequest[];
}

/** Why a call was made: the first ask, the same ask with a raised budget, a repair, or a question. */
export type Purpose = "diff" | "raised" | "retry" | "questions";

/** What one call did, for the log: no message text. */
export interface CallTrace {
	readonly purpose: Purpose;
	readonly maxTokens: number;
	readonly stopReason: string;
	readonly inputTokens: number;
	readonly outputTokens: number;
	readonly ms: number;
	readonly outcome: "answer" | "defects" | "unreadable" | "threw";
	readonly defects: readonly string[];
}

/**
 * What the decider asks the driver to do: a `call` on its own (single mode: every call carries the whole prompt),
 * or a `send` in a continuing conversation (turns mode) before an absolute `deadline` on the pass's clock. A `fresh`
 * send starts a turn from the conversation as its last text reply left it, so a turn abandoned half way is forgotten.
 */
export type Ask =
	| {
			readonly kind: "call";
			readonly purpose: Purpose;
			readonly system: string;
			readonly prompt: string;
			readonly maxTokens: number;
	  }
	| {
			readonly kind: "send";
			readonly purpose: Purpose;
			readonly system: string;
			readonly tools: readonly ToolSpec[];
			readonly input: ConversationInput;
			readonly maxTokens: number;
			readonly fresh: boolean;
			readonly deadline: number;
			/** For pi's footer, when a turn starts. */
			readonly status: string | undefined;
	  };

/** What the driver heard back, at `at` on the pass's clock, after `ms`: a reply, a thrown call, or the deadline. */
export type Heard =
	| { readonly kind: "reply"; readonly reply: Reply; readonly at: number; readonly ms: number }
	| { readonly kind: "threw"; readonly errorClass: string; readonly at: number; readonly ms: number }
	| { readonly kind: "timeout"; readonly at: number; readonly ms: number };

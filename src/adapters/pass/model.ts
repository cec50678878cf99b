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
}

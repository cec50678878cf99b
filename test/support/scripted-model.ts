import type { ModelReply, ModelRequest, PassModel } from "../../src/adapters/pass/model.js";

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

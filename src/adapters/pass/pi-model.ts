import {
	type Api,
	type AssistantMessage,
	completeSimple,
	getSupportedThinkingLevels,
	type Model,
	type ThinkingLevel,
} from "@mariozechner/pi-ai";
import type { ModelReply, ModelRequest, PassModel } from "./model.js";

/** The part of pi's model registry the pass uses. */
export interface Registry {
	find(provider: string, modelId: string): Model<Api> | undefined;
	getApiKeyAndHeaders(
		model: Model<Api>,
	): Promise<{ ok: true; apiKey?: string; headers?: Record<string, string> } | { ok: false; error: string }>;
}

/** A parsed `summarizer` route: `provider/model` or `provider/model:thinking`. */
export interface Route {
	readonly provider: string;
	readonly model: string;
	readonly thinking?: string;
}

const LEVELS: readonly ThinkingLevel[] = ["minimal", "low", "medium", "high", "xhigh"];

function isLevel(u: string | undefined): u is ThinkingLevel {
	return LEVELS.some((level) => level === u);
}

/** Reasoning off where the model allows it, else the lowest level it supports (recorded in the log). */
export function reasoningFor(model: Model<Api>, routeThinking?: string): ThinkingLevel | undefined {
	if (isLevel(routeThinking)) return routeThinking;
	const levels = getSupportedThinkingLevels(model);
	if (levels.includes("off")) return undefined;
	return LEVELS.find((level) => levels.includes(level));
}

function textOf(message: AssistantMessage): string {
	return message.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
}

function passModel(
	model: Model<Api>,
	registry: Registry,
	reasoning: ThinkingLevel | undefined,
	notUsed: string | null,
): PassModel {
	return {
		name: `${model.provider}/${model.id}`,
		maxTokens: model.maxTokens,
		contextWindow: model.contextWindow,
		reasoning: reasoning ?? null,
		routeNotUsed: notUsed,
		call: async (request: ModelRequest, signal: AbortSignal): Promise<ModelReply> => {
			const auth = await registry.getApiKeyAndHeaders(model);
			if (!auth.ok) throw new Error(`no credentials for ${model.provider}`);
			const reply = await completeSimple(
				model,
				{
					systemPrompt: request.system,
					messages: [{ role: "user", content: [{ type: "text", text: request.prompt }], timestamp: 0 }],
				},
				{
					maxTokens: request.maxTokens,
					signal,
					...(auth.apiKey === undefined ? {} : { apiKey: auth.apiKey }),
					...(auth.headers === undefined ? {} : { headers: auth.headers }),
					...(reasoning === undefined ? {} : { reasoning }),
				},
			);
			return {
				text: textOf(reply),
				stopReason: reply.stopReason,
				errorMessage: reply.errorMessage ?? "",
				inputTokens: reply.usage.input,
				outputTokens: reply.usage.output,
			};
		},
	};
}

/**
 * The summarizer: the configured route when its model is known and has credentials, else the session's model,
 * with the reason the route was not used. Undefined when there is no model at all.
 */
export async function summarizerModel(
	session: Model<Api> | undefined,
	registry: Registry,
	route: Route | undefined,
): Promise<PassModel | undefined> {
	let notUsed: string | null = null;
	if (route !== undefined) {
		const routed = registry.find(route.provider, route.model);
		const auth = routed === undefined ? undefined : await registry.getApiKeyAndHeaders(routed);
		if (routed !== undefined && auth?.ok === true)
			return passModel(routed, registry, reasoningFor(routed, route.thinking), null);
		notUsed = routed === undefined ? "route-model-unknown" : "route-no-credentials";
	}
	if (session === undefined) return undefined;
	return passModel(session, registry, reasoningFor(session), notUsed);
}

import {
	type Api,
	type AssistantMessage,
	type Context,
	completeSimple,
	getSupportedThinkingLevels,
	type Message,
	type Model,
	type ThinkingLevel,
	type Tool,
	Type,
} from "@mariozechner/pi-ai";
import type {
	Conversation,
	ConversationInput,
	ModelReply,
	ModelRequest,
	PassModel,
	ToolRequest,
	ToolSpec,
} from "./model.js";

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

function toolCallsOf(message: AssistantMessage): ToolRequest[] {
	return message.content.flatMap((c) =>
		c.type === "toolCall" ? [{ id: c.id, name: c.name, arguments: c.arguments }] : [],
	);
}

function replyOf(reply: AssistantMessage): ModelReply {
	return {
		text: textOf(reply),
		stopReason: reply.stopReason,
		errorMessage: reply.errorMessage ?? "",
		inputTokens: reply.usage.input,
		outputTokens: reply.usage.output,
	};
}

/** How one call is made: the model, its credentials from the registry, and the reasoning level. */
interface Caller {
	readonly model: Model<Api>;
	readonly registry: Registry;
	readonly reasoning: ThinkingLevel | undefined;
}

async function complete(
	caller: Caller,
	context: Context,
	maxTokens: number,
	signal: AbortSignal,
): Promise<AssistantMessage> {
	const { model, registry, reasoning } = caller;
	const auth = await registry.getApiKeyAndHeaders(model);
	if (!auth.ok) throw new Error(`no credentials for ${model.provider}`);
	return completeSimple(model, context, {
		maxTokens,
		signal,
		...(auth.apiKey === undefined ? {} : { apiKey: auth.apiKey }),
		...(auth.headers === undefined ? {} : { headers: auth.headers }),
		...(reasoning === undefined ? {} : { reasoning }),
	});
}

function toolOf(spec: ToolSpec): Tool {
	return {
		name: spec.name,
		description: spec.description,
		parameters: Type.Object({ [spec.parameter]: Type.String({ description: spec.parameterDescription }) }),
	};
}

function inputMessages(input: ConversationInput): Message[] {
	if (input.kind === "text") return [{ role: "user", content: [{ type: "text", text: input.text }], timestamp: 0 }];
	return input.answers.map((answer) => ({
		role: "toolResult",
		toolCallId: answer.id,
		toolName: answer.name,
		content: [{ type: "text", text: answer.text }],
		isError: answer.refused,
		timestamp: 0,
	}));
}

/** A conversation over pi-ai's messages; the model's own replies are kept as they came, for a faithful replay. */
function conversation(
	caller: Caller,
	system: string,
	tools: readonly Tool[],
	history: readonly Message[],
): Conversation {
	return {
		send: async (input, maxTokens, signal) => {
			const messages = [...history, ...inputMessages(input)];
			const reply = await complete(caller, { systemPrompt: system, messages, tools: [...tools] }, maxTokens, signal);
			return {
				reply: { ...replyOf(reply), toolCalls: toolCallsOf(reply) },
				next: conversation(caller, system, tools, [...messages, reply]),
			};
		},
	};
}

function passModel(
	model: Model<Api>,
	registry: Registry,
	reasoning: ThinkingLevel | undefined,
	notUsed: string | null,
): PassModel {
	const caller: Caller = { model, registry, reasoning };
	return {
		name: `${model.provider}/${model.id}`,
		maxTokens: model.maxTokens,
		contextWindow: model.contextWindow,
		reasoning: reasoning ?? null,
		routeNotUsed: notUsed,
		call: async (request: ModelRequest, signal: AbortSignal): Promise<ModelReply> => {
			const messages: Message[] = [{ role: "user", content: [{ type: "text", text: request.prompt }], timestamp: 0 }];
			return replyOf(await complete(caller, { systemPrompt: request.system, messages }, request.maxTokens, signal));
		},
		converse: (system, tools) => conversation(caller, system, tools.map(toolOf), []),
	};
}

/**
 * The routed model until one of its calls fails (throws, or stops with an error) without an abort: from then on the
 * session's model answers, and the log names `route-call-failed` as the reason the route was not used.
 */
export function withFallback(routed: PassModel, session: PassModel): PassModel {
	let current = routed;
	const fallBack = async (request: ModelRequest, signal: AbortSignal): Promise<ModelReply> => {
		current = session;
		return session.call(request, signal);
	};
	return {
		get name() {
			return current.name;
		},
		get maxTokens() {
			return current.maxTokens;
		},
		get contextWindow() {
			return current.contextWindow;
		},
		get reasoning() {
			return current.reasoning;
		},
		get routeNotUsed() {
			return current.routeNotUsed;
		},
		call: async (request, signal) => {
			if (current === session) return session.call(request, signal);
			try {
				const reply = await routed.call(request, signal);
				return reply.stopReason === "error" && !signal.aborted ? fallBack(request, signal) : reply;
			} catch (error) {
				if (signal.aborted) throw error;
				return fallBack(request, signal);
			}
		},
		...(routed.converse === undefined ? {} : { converse: routed.converse }),
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
		if (routed !== undefined && auth?.ok === true) {
			const primary = passModel(routed, registry, reasoningFor(routed, route.thinking), null);
			return session === undefined
				? primary
				: withFallback(primary, passModel(session, registry, reasoningFor(session), "route-call-failed"));
		}
		notUsed = routed === undefined ? "route-model-unknown" : "route-no-credentials";
	}
	if (session === undefined) return undefined;
	return passModel(session, registry, reasoningFor(session), notUsed);
}

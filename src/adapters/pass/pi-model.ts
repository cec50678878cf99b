import {
	type Api,
	type AssistantMessage,
	type AssistantMessageEventStream,
	type Context,
	completeSimple,
	getApiProvider,
	getSupportedThinkingLevels,
	type Message,
	type Model,
	type SimpleStreamOptions,
	type ThinkingLevel,
	type Tool,
	Type,
} from "@mariozechner/pi-ai";
import type { ConversationInput, ToolRequest, ToolSpec } from "../../pass/conversation/index.js";
import type { Conversation, ModelReply, ModelRequest, PassModel } from "./model.js";

/**
 * What pi resolves for a request (`getApiKeyAndHeaders`). pi >= 0.84 adds `baseUrl` and `env`, and a header may be
 * `null` there ("send no such header"); 0.73 gives only the key and string headers.
 */
export type RequestAuth =
	| {
			readonly ok: true;
			readonly apiKey?: string;
			readonly headers?: Readonly<Record<string, string | null>>;
			readonly baseUrl?: string;
			readonly env?: Readonly<Record<string, string>>;
	  }
	| { readonly ok: false; readonly error: string };

/** The part of pi's model registry the pass uses, in every pi version from 0.73.1 on. */
export interface Registry {
	find(provider: string, modelId: string): Model<Api> | undefined;
	getApiKeyAndHeaders(model: Model<Api>): Promise<RequestAuth>;
}

/**
 * pi's own model call on its registry (pi >= 0.86): pi resolves credentials, headers, `baseUrl` and `env` itself at
 * request time, and it reaches every provider, those an extension registers with its own stream included.
 * Exported for tests.
 */
export interface RegistryCalls {
	streamSimple(model: Model<Api>, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream;
}

/**
 * True where pi's registry makes model calls itself (pi >= 0.86); a capability check, not a version check.
 * Exported for tests.
 */
export function offersModelCalls(registry: Registry): registry is Registry & RegistryCalls {
	return "streamSimple" in registry && typeof registry.streamSimple === "function";
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

/**
 * Reasoning off where the model allows it, else the lowest level it supports (recorded in the log).
 * Exported for tests.
 */
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

/** How one call is made: the model, the registry that serves it, and the reasoning level. */
interface Caller {
	readonly model: Model<Api>;
	readonly registry: Registry;
	readonly reasoning: ThinkingLevel | undefined;
}

/** The string headers of what pi resolved; see {@link legacyCall} for the `null` ones. */
function stringHeaders(headers: Readonly<Record<string, string | null>>): Record<string, string> {
	const kept: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) if (value !== null) kept[name] = value;
	return kept;
}

/**
 * The 0.73 path: pi-ai's global `completeSimple` with what pi resolved: the key, the headers, the `env` (read by
 * pi-ai from 0.84 on) and the `baseUrl`, which goes on the model as pi's own registry does it. pi-ai 0.73's types
 * have no `null` header, so a header pi resolves to `null` (pi 0.84-0.85) is left out here; from 0.86 on pi's
 * registry makes the call and applies it itself.
 */
async function legacyCall(caller: Caller, context: Context, options: SimpleStreamOptions): Promise<AssistantMessage> {
	const { model, registry } = caller;
	const auth = await registry.getApiKeyAndHeaders(model);
	if (!auth.ok) throw new Error(`no credentials for ${model.provider}`);
	const resolved: SimpleStreamOptions & { env?: Readonly<Record<string, string>> } = {
		...options,
		...(auth.apiKey === undefined ? {} : { apiKey: auth.apiKey }),
		...(auth.headers === undefined ? {} : { headers: stringHeaders(auth.headers) }),
		...(auth.env === undefined ? {} : { env: auth.env }),
	};
	return completeSimple(auth.baseUrl === undefined ? model : { ...model, baseUrl: auth.baseUrl }, context, resolved);
}

async function complete(
	caller: Caller,
	context: Context,
	maxTokens: number,
	signal: AbortSignal,
): Promise<AssistantMessage> {
	const { model, registry, reasoning } = caller;
	const options: SimpleStreamOptions = { maxTokens, signal, ...(reasoning === undefined ? {} : { reasoning }) };
	if (offersModelCalls(registry)) return registry.streamSimple(model, context, options).result();
	return legacyCall(caller, context, options);
}

/**
 * Whether a call to `model` can reach its provider. pi's registry reaches every provider; without it the call goes
 * through pi-ai's global registry, which from pi 0.80 to 0.85 does not hold the providers an extension registers
 * with its own stream (the call would throw `No API provider registered for api …`).
 */
export function reachable(model: Model<Api>, registry: Registry): boolean {
	return offersModelCalls(registry) || getApiProvider(model.api) !== undefined;
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
 * Exported for tests.
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

/** The summarizer, or why there is none: no model at all, or a provider no call path of this pi reaches. */
export type Summarizer =
	| { readonly kind: "model"; readonly model: PassModel }
	| { readonly kind: "none"; readonly reason: "no-model" }
	| { readonly kind: "none"; readonly reason: "provider-unreachable"; readonly provider: string };

/**
 * The summarizer: the configured route when its model is known, has credentials and can be reached, else the
 * session's model, with the reason the route was not used.
 */
export async function summarizerModel(
	session: Model<Api> | undefined,
	registry: Registry,
	route: Route | undefined,
): Promise<Summarizer> {
	let notUsed: string | null = null;
	const usableSession = session !== undefined && reachable(session, registry) ? session : undefined;
	if (route !== undefined) {
		const routed = registry.find(route.provider, route.model);
		const auth = routed === undefined ? undefined : await registry.getApiKeyAndHeaders(routed);
		if (routed !== undefined && auth?.ok === true && reachable(routed, registry)) {
			const primary = passModel(routed, registry, reasoningFor(routed, route.thinking), null);
			const model =
				usableSession === undefined
					? primary
					: withFallback(primary, passModel(usableSession, registry, reasoningFor(usableSession), "route-call-failed"));
			return { kind: "model", model };
		}
		notUsed =
			routed === undefined ? "route-model-unknown" : auth?.ok !== true ? "route-no-credentials" : "route-unreachable";
	}
	if (session === undefined) return { kind: "none", reason: "no-model" };
	if (usableSession === undefined) return { kind: "none", reason: "provider-unreachable", provider: session.provider };
	return { kind: "model", model: passModel(usableSession, registry, reasoningFor(usableSession), notUsed) };
}

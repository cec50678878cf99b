import {
	type Api,
	type AssistantMessage,
	type AssistantMessageEventStream,
	type Context,
	getApiProvider,
	type Model,
	registerApiProvider,
	registerFauxProvider,
	type SimpleStreamOptions,
	unregisterApiProviders,
} from "@mariozechner/pi-ai";
import type { ModelRegistry } from "@mariozechner/pi-coding-agent";

/** The provider the faked model is registered under. */
export const FAUX_PROVIDER = "faux";
/** The faked model's id: the session runs on `faux/replay`. */
export const FAUX_MODEL = "replay";

/** One request the faked model received: an agent turn (tools offered) or a side call (a summarizer). */
export interface FauxCall {
	readonly kind: "agent" | "side";
	readonly context: Context;
	/** What the caller passed to pi-ai (output budget, signal, reasoning). */
	readonly options: SimpleStreamOptions | undefined;
}

/** What the faked model answers: computed from the request when pi asks. */
export type Answer = (call: FauxCall) => AssistantMessage | Promise<AssistantMessage>;

/** pi-ai's faux provider behind a dispatch that asks `answer` at the moment of each request. */
export interface FauxRoute {
	readonly api: string;
	/** Registers the dispatch in pi-ai's provider registry (again after pi's reload cleared it). */
	install(): void;
	uninstall(): void;
}

/** The text of a request's last user message (where pi's summarizer and Longhaul's diff put their prompt). */
export function lastUserText(context: Context): string {
	const user = context.messages.filter((message) => message.role === "user").at(-1);
	if (user === undefined) return "";
	if (typeof user.content === "string") return user.content;
	return user.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

// The faux provider streams a message the way a provider does; one reply is queued per request, when pi makes it,
// so a reply can depend on the request. A whole block goes out as one delta: replay streams long recorded replies.
/** Registers pi-ai's faux provider and routes each request to `answer`. */
export function fauxRoute(answer: Answer): FauxRoute {
	const whole = 1_000_000;
	const faux = registerFauxProvider({ provider: FAUX_PROVIDER, tokenSize: { min: whole, max: whole } });
	const inner = getApiProvider(faux.api);
	faux.unregister();
	if (inner === undefined) throw new Error("replay: pi-ai did not register the faux provider");
	const sourceId = `longhaul-eval:${faux.api}`;
	const dispatch = (
		model: Model<Api>,
		context: Context,
		options?: SimpleStreamOptions,
	): AssistantMessageEventStream => {
		const call: FauxCall = { kind: (context.tools?.length ?? 0) > 0 ? "agent" : "side", context, options };
		faux.setResponses([async () => ({ ...(await answer(call)), timestamp: Date.now() })]);
		return inner.streamSimple(model, context, options);
	};
	return {
		api: faux.api,
		install: () => registerApiProvider({ api: faux.api, stream: dispatch, streamSimple: dispatch }, sourceId),
		uninstall: () => unregisterApiProviders(sourceId),
	};
}

/** The faked model's limits: a summarizer sizes its calls by them. */
export interface FauxLimits {
	readonly contextWindow: number;
	readonly maxTokens: number;
}

/** The limits of the faked model when no real one is behind it. */
export const DEFAULT_LIMITS: FauxLimits = { contextWindow: 200_000, maxTokens: 32_000 };

/** Registers the one faked model in pi's registry under {@link FAUX_PROVIDER}. */
export function registerFauxModel(registry: ModelRegistry, api: string, limits: FauxLimits = DEFAULT_LIMITS): void {
	registry.registerProvider(FAUX_PROVIDER, {
		api,
		baseUrl: "http://localhost:0",
		apiKey: "faux-key",
		models: [
			{
				id: FAUX_MODEL,
				name: FAUX_MODEL,
				reasoning: false,
				input: ["text", "image"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: limits.contextWindow,
				maxTokens: limits.maxTokens,
			},
		],
	});
}

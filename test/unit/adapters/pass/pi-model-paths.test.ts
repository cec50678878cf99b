import {
	type Api,
	type AssistantMessage,
	type AssistantMessageEventStream,
	type Context,
	createAssistantMessageEventStream,
	fauxAssistantMessage,
	type Model,
	registerApiProvider,
	type SimpleStreamOptions,
	unregisterApiProviders,
} from "@mariozechner/pi-ai";
import { afterEach, describe, expect, it } from "vitest";
import {
	offersModelCalls,
	type Registry,
	type RegistryCalls,
	type RequestAuth,
	type Summarizer,
	summarizerModel,
} from "../../../../src/adapters/pass/pi-model.js";

// Which path a model call takes, and what reaches the provider on it. pi's registry is faked in the shape each pi
// version has (0.73: find and getApiKeyAndHeaders; >= 0.86: streamSimple as well); pi-ai's global API registry is
// the real one, with a recording provider registered for the test's API.

const GLOBAL_API = "longhaul-test-global";
const EXTENSION_API = "longhaul-test-extension-only";
const SOURCE = "longhaul-test-paths";

afterEach(() => unregisterApiProviders(SOURCE));

function model(id: string, api: string): Model<Api> {
	return {
		id,
		name: id,
		api,
		provider: "test",
		baseUrl: "http://model.example",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 100_000,
		maxTokens: 8000,
	};
}

interface Seen {
	readonly model: Model<Api>;
	readonly context: Context;
	readonly options: (SimpleStreamOptions & { env?: unknown }) | undefined;
}

function answering(text: string): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const message: AssistantMessage = fauxAssistantMessage(text);
	queueMicrotask(() => stream.push({ type: "done", reason: "stop", message }));
	return stream;
}

/** Registers a provider for {@link GLOBAL_API} in pi-ai's global registry that records each request. */
function globalProvider(): Seen[] {
	const seen: Seen[] = [];
	const stream = (m: Model<Api>, context: Context, options?: SimpleStreamOptions) => {
		seen.push({ model: m, context, options });
		return answering("from pi-ai's registry");
	};
	registerApiProvider({ api: GLOBAL_API, stream, streamSimple: stream }, SOURCE);
	return seen;
}

function registry073(models: readonly Model<Api>[], auth: RequestAuth = { ok: true, apiKey: "k" }): Registry {
	return {
		find: (provider, id) => models.find((m) => m.provider === provider && m.id === id),
		getApiKeyAndHeaders: async () => auth,
	};
}

/** A pi >= 0.86 registry: it calls the model itself, for any API, and records each request. */
function registry086(models: readonly Model<Api>[], seen: Seen[]): Registry & RegistryCalls {
	return {
		...registry073(models),
		streamSimple: (m: Model<Api>, context: Context, options?: SimpleStreamOptions) => {
			seen.push({ model: m, context, options });
			return answering("from pi's registry");
		},
	};
}

function chosen(summarizer: Summarizer) {
	if (summarizer.kind !== "model") throw new Error(`no model: ${summarizer.reason}`);
	return summarizer.model;
}

const request = { system: "the system", prompt: "the prompt", maxTokens: 100 };

describe("the model call's path", () => {
	it("goes through pi's registry where it makes calls, reaching an API pi-ai's global registry lacks", async () => {
		const session = model("session", EXTENSION_API);
		const seen: Seen[] = [];
		const registry = registry086([session], seen);
		expect(offersModelCalls(registry)).toBe(true);
		const reply = await chosen(await summarizerModel(session, registry, undefined)).call(
			request,
			new AbortController().signal,
		);
		expect(reply.text).toBe("from pi's registry");
		expect(seen).toHaveLength(1);
		expect(seen[0]?.model).toBe(session);
		expect(seen[0]?.context.systemPrompt).toBe("the system");
		// pi resolves credentials itself on this path: Longhaul passes none.
		expect(seen[0]?.options).toEqual({ maxTokens: 100, signal: expect.any(AbortSignal) });
	});

	it("goes through pi-ai's completeSimple where the registry makes no calls (pi 0.73 to 0.85)", async () => {
		const seen = globalProvider();
		const session = model("session", GLOBAL_API);
		const registry = registry073([session]);
		expect(offersModelCalls(registry)).toBe(false);
		const reply = await chosen(await summarizerModel(session, registry, undefined)).call(
			request,
			new AbortController().signal,
		);
		expect(reply.text).toBe("from pi-ai's registry");
		expect(seen.map((s) => [s.model.id, s.options?.apiKey, s.options?.maxTokens])).toEqual([["session", "k", 100]]);
	});

	it("passes the baseUrl and env pi resolves on the completeSimple path, and its string headers", async () => {
		const seen = globalProvider();
		const session = model("session", GLOBAL_API);
		const auth: RequestAuth = {
			ok: true,
			apiKey: "key-1",
			headers: { "x-team": "longhaul", "x-default": null },
			baseUrl: "http://proxy.example/v1",
			env: { AWS_REGION: "eu-west-1" },
		};
		await chosen(await summarizerModel(session, registry073([session], auth), undefined)).call(
			request,
			new AbortController().signal,
		);
		const [call] = seen;
		expect(call?.model.baseUrl).toBe("http://proxy.example/v1");
		expect(call?.options?.env).toEqual({ AWS_REGION: "eu-west-1" });
		expect(call?.options?.headers).toEqual({ "x-team": "longhaul" });
		expect(call?.options?.apiKey).toBe("key-1");
	});

	it("keeps the model's own baseUrl when pi resolves none", async () => {
		const seen = globalProvider();
		const session = model("session", GLOBAL_API);
		await chosen(await summarizerModel(session, registry073([session]), undefined)).call(
			request,
			new AbortController().signal,
		);
		expect(seen[0]?.model.baseUrl).toBe("http://model.example");
		expect(seen[0]?.options?.env).toBeUndefined();
	});
});

describe("a provider no path reaches (pi 0.80 to 0.85, an extension's own stream)", () => {
	it("gives no summarizer, naming the provider, when the session's model is on it", async () => {
		const session = model("session", EXTENSION_API);
		expect(await summarizerModel(session, registry073([session]), undefined)).toEqual({
			kind: "none",
			reason: "provider-unreachable",
			provider: "test",
		});
	});

	it("uses the session's model when only the route's provider is unreachable, and says why", async () => {
		globalProvider();
		const session = model("session", GLOBAL_API);
		const routed = model("routed", EXTENSION_API);
		const summarizer = chosen(
			await summarizerModel(session, registry073([session, routed]), { provider: "test", model: "routed" }),
		);
		expect([summarizer.name, summarizer.routeNotUsed]).toEqual(["test/session", "route-unreachable"]);
	});

	it("is reached by pi's registry on pi >= 0.86, so the route is used there", async () => {
		const session = model("session", GLOBAL_API);
		const routed = model("routed", EXTENSION_API);
		const summarizer = chosen(
			await summarizerModel(session, registry086([session, routed], []), { provider: "test", model: "routed" }),
		);
		expect([summarizer.name, summarizer.routeNotUsed]).toEqual(["test/routed", null]);
	});
});

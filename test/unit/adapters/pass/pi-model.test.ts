import type { Api, Model } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { type Registry, reasoningFor, summarizerModel } from "../../../../src/adapters/pass/pi-model.js";

function model(id: string, extra: Partial<Model<Api>> = {}): Model<Api> {
	return {
		id,
		name: id,
		api: "openai-completions",
		provider: "test",
		baseUrl: "http://127.0.0.1:9",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 100_000,
		maxTokens: 8000,
		...extra,
	};
}

function registry(models: readonly Model<Api>[], withKey: ReadonlySet<string>): Registry {
	return {
		find: (provider, id) => models.find((m) => m.provider === provider && m.id === id),
		getApiKeyAndHeaders: async (m) => (withKey.has(m.id) ? { ok: true, apiKey: "k" } : { ok: false, error: "no key" }),
	};
}

describe("the summarizer model", () => {
	it("turns reasoning off where the model allows it", () => {
		expect(reasoningFor(model("plain"))).toBeUndefined();
		expect(reasoningFor(model("thinker", { reasoning: true }))).toBeUndefined();
	});

	it("asks for the lowest level when the model cannot turn reasoning off", () => {
		const always = model("always-thinks", { reasoning: true, thinkingLevelMap: { off: null, minimal: null } });
		expect(reasoningFor(always)).toBe("low");
	});

	it("uses a route's own thinking level when it names one", () => {
		expect(reasoningFor(model("thinker", { reasoning: true }), "high")).toBe("high");
	});

	it("uses the configured route when its model is known and has credentials", async () => {
		const session = model("session");
		const routed = model("cheap");
		const chosen = await summarizerModel(session, registry([session, routed], new Set(["cheap"])), {
			provider: "test",
			model: "cheap",
		});
		expect(chosen?.name).toBe("test/cheap");
		expect(chosen?.routeNotUsed).toBeNull();
	});

	it("falls back to the session's model when the route is unknown or has no credentials, and says why", async () => {
		const session = model("session");
		const routed = model("cheap");
		const unknown = await summarizerModel(session, registry([session], new Set()), { provider: "test", model: "gone" });
		const noKey = await summarizerModel(session, registry([session, routed], new Set()), {
			provider: "test",
			model: "cheap",
		});
		expect([unknown?.name, unknown?.routeNotUsed]).toEqual(["test/session", "route-model-unknown"]);
		expect([noKey?.name, noKey?.routeNotUsed]).toEqual(["test/session", "route-no-credentials"]);
	});

	it("has no model at all when the session has none and no route is usable", async () => {
		expect(await summarizerModel(undefined, registry([], new Set()), undefined)).toBeUndefined();
	});
});

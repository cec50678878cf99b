import type { Api, Model } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import type { PassModel } from "../../../../src/adapters/pass/model.js";
import {
	type Registry,
	reasoningFor,
	type Summarizer,
	summarizerModel,
	withFallback,
} from "../../../../src/adapters/pass/pi-model.js";

const modelOf = (summarizer: Summarizer) => (summarizer.kind === "model" ? summarizer.model : undefined);

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
		const chosen = modelOf(
			await summarizerModel(session, registry([session, routed], new Set(["cheap"])), {
				provider: "test",
				model: "cheap",
			}),
		);
		expect(chosen?.name).toBe("test/cheap");
		expect(chosen?.routeNotUsed).toBeNull();
	});

	it("falls back to the session's model when the route is unknown or has no credentials, and says why", async () => {
		const session = model("session");
		const routed = model("cheap");
		const unknown = modelOf(
			await summarizerModel(session, registry([session], new Set()), { provider: "test", model: "gone" }),
		);
		const noKey = modelOf(
			await summarizerModel(session, registry([session, routed], new Set()), { provider: "test", model: "cheap" }),
		);
		expect([unknown?.name, unknown?.routeNotUsed]).toEqual(["test/session", "route-model-unknown"]);
		expect([noKey?.name, noKey?.routeNotUsed]).toEqual(["test/session", "route-no-credentials"]);
	});

	it("has no model at all when the session has none and no route is usable", async () => {
		expect(await summarizerModel(undefined, registry([], new Set()), undefined)).toEqual({
			kind: "none",
			reason: "no-model",
		});
	});
});

describe("a routed summarizer whose call fails", () => {
	const reply = (text: string, stopReason = "stop") => ({
		text,
		stopReason,
		errorMessage: "",
		inputTokens: 1,
		outputTokens: 1,
	});
	const fake = (name: string, answer: () => Promise<ReturnType<typeof reply>>): PassModel => ({
		name,
		maxTokens: 1000,
		contextWindow: 10_000,
		reasoning: null,
		routeNotUsed: name === "session" ? "route-call-failed" : null,
		call: answer,
	});

	it("falls back to the session's model for that call and the rest, and says why", async () => {
		let routedCalls = 0;
		const routed = fake("routed", async () => {
			routedCalls++;
			throw new Error("503");
		});
		const model = withFallback(
			routed,
			fake("session", async () => reply("from the session")),
		);
		const signal = new AbortController().signal;
		expect((await model.call({ system: "", prompt: "p", maxTokens: 10 }, signal)).text).toBe("from the session");
		expect((await model.call({ system: "", prompt: "p", maxTokens: 10 }, signal)).text).toBe("from the session");
		expect(routedCalls).toBe(1);
		expect([model.name, model.routeNotUsed]).toEqual(["session", "route-call-failed"]);
	});

	it("falls back on an error stop too, but not on an abort", async () => {
		const errored = withFallback(
			fake("routed", async () => reply("", "error")),
			fake("session", async () => reply("ok")),
		);
		expect((await errored.call({ system: "", prompt: "p", maxTokens: 10 }, new AbortController().signal)).text).toBe(
			"ok",
		);
		const controller = new AbortController();
		const aborting = withFallback(
			fake("routed", async () => {
				controller.abort();
				throw new Error("aborted");
			}),
			fake("session", async () => reply("should not be asked")),
		);
		await expect(aborting.call({ system: "", prompt: "p", maxTokens: 10 }, controller.signal)).rejects.toThrow(
			"aborted",
		);
		expect(aborting.name).toBe("routed");
	});
});

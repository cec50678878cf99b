import { describe, expect, it } from "vitest";
import type { ModelRequest, PassModel } from "../../../../src/adapters/pass/model.js";
import { redactingModel } from "../../../../src/adapters/pass/redacting-model.js";
import { createRedactor } from "../../../../src/adapters/redact/index.js";
import { renderSummary } from "../../../../src/projections/summary.js";
import { initialState } from "../../../../src/reducers/state.js";

const redactor = createRedactor(true);
const token = "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6";

describe("a rendered summary, redacted", () => {
	it("redacts every section, the rules' words too (a secret in a rule is still a secret)", async () => {
		const state = {
			...initialState,
			spans: 1,
			rules: [{ id: "R1", text: `push with ${token} only`, source: "u1" }],
			errors: [{ id: "E1", tool: "bash", head: `GITHUB_TOKEN=${token}`, span: 1, command: "cat .env", fixedBy: null }],
			values: [{ name: "port", value: "5173", source: "C1" }],
		};
		const out = await redactor.redact(renderSummary(state).text);
		expect(out).toContain("> push with [redacted: github token] only");
		expect(out).toContain("GITHUB_TOKEN=[redacted: github token]");
		expect(out).toContain("- port 5173 (C1)");
		expect(out).not.toContain(token);
	});

	it("redacts the whole text when it has no rules section", async () => {
		expect(await redactor.redact(`## Open errors\n- E1: ${token}\n`)).toBe(
			"## Open errors\n- E1: [redacted: github token]\n",
		);
	});
});

describe("redactingModel", () => {
	it("sends the summarizer the prompt with its secrets replaced, and its answer back as it came", async () => {
		const sent: ModelRequest[] = [];
		const model: PassModel = {
			name: "test/model",
			maxTokens: 1000,
			contextWindow: 10_000,
			reasoning: null,
			routeNotUsed: null,
			call: async (request) => {
				sent.push(request);
				return { text: "{}", stopReason: "stop", errorMessage: "", inputTokens: 1, outputTokens: 1 };
			},
		};
		const reply = await redactingModel(model, redactor)?.call(
			{ system: "system", prompt: `E1 (bash cat .env): GITHUB_TOKEN=${token} PORT=5173`, maxTokens: 100 },
			new AbortController().signal,
		);
		expect(sent).toEqual([
			{
				system: "system",
				prompt: "E1 (bash cat .env): GITHUB_TOKEN=[redacted: github token] PORT=5173",
				maxTokens: 100,
			},
		]);
		expect(reply?.text).toBe("{}");
	});

	it("is no model where there is none", () => {
		expect(redactingModel(undefined, redactor)).toBeUndefined();
	});
});

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
	type AssistantMessage,
	type Context,
	completeSimple,
	fauxAssistantMessage,
	registerFauxProvider,
} from "@mariozechner/pi-ai";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { afterEach, describe, expect, it } from "vitest";
import { type ProbeModel, resolveRoute } from "../../../src/eval/probe-model.js";
import { runScoreCli } from "../../../src/eval/score-cli.js";
import { scoreSession } from "../../support/score-session.js";
import { repoRoot } from "../../support/shared.js";
import { assistant, user } from "../../support/v1-transcript.js";

const RULE = "never deploy on a Friday";
const JudgePrompt = t.type({ answers: t.type({ X: t.string, Y: t.string, Z: t.string }) });

function text(context: Context): string {
	return context.messages
		.map((m) =>
			typeof m.content === "string"
				? m.content
				: m.content.map((block) => (block.type === "text" ? block.text : "")).join(""),
		)
		.join("\n");
}

/**
 * A faux model that plays every part: a careful Longhaul summarizer (labels the rule), a pi summarizer that
 * forgets rules and values, a probed assistant that answers from what its context holds, and a judge.
 */
function play(context: Context): AssistantMessage {
	const all = text(context);
	const last = context.messages.at(-1);
	const prompt = last === undefined ? "" : text({ messages: [last] });
	if (prompt.startsWith("# Span ")) {
		const labels = [...prompt.matchAll(/^\{"msg":"(u\d+)","text":"(.*)"\}$/gm)].map(([, msg, said]) => ({
			msg,
			label: said?.includes("never") ? "rule" : "not a rule",
		}));
		return fauxAssistantMessage(JSON.stringify({ labels, narrative: "ran the dev server", now: "deploy" }));
	}
	if (prompt.includes("<conversation>")) return fauxAssistantMessage("## Goal\nShip the shop.");
	if (context.systemPrompt?.startsWith("You grade")) {
		const judged = JudgePrompt.decode(JSON.parse(prompt));
		if (E.isLeft(judged)) return fauxAssistantMessage("(the judge prompt did not decode)");
		const { answers } = judged.right;
		const graded = (answer: string) => ({
			rulesKept: answer.includes(RULE) ? ["u1"] : [],
			requirementsKept: [],
			errorsNamed: [],
			next: answer.includes("deploy") ? "yes" : "no",
		});
		return fauxAssistantMessage(
			JSON.stringify({
				rulesInForce: ["u1"],
				requirements: [],
				X: graded(answers.X),
				Y: graded(answers.Y),
				Z: graded(answers.Z),
			}),
		);
	}
	if (prompt.startsWith("Before we go on")) {
		const knows = (s: string) => all.includes(s);
		const rules = knows(RULE) ? `RULES: "${RULE}"` : "RULES: none that I know of";
		const values = knows("8787") ? "VALUES: port 8787" : "VALUES: none";
		return fauxAssistantMessage(`${rules}\n${values}\nOPEN ERRORS: none\nNEXT: deploy`);
	}
	return fauxAssistantMessage("(unexpected request)");
}

let unregister: (() => void) | undefined;
afterEach(() => {
	unregister?.();
	unregister = undefined;
});

function fauxProbeModel(): ProbeModel {
	const faux = registerFauxProvider({
		provider: "faux-score",
		models: [{ id: "judge", contextWindow: 200_000, maxTokens: 16_000 }],
	});
	unregister = () => faux.unregister();
	faux.setResponses(Array.from({ length: 100 }, () => (context: Context) => play(context)));
	const model = faux.getModel();
	return {
		name: "faux-score/judge",
		contextWindow: model.contextWindow,
		maxTokens: model.maxTokens,
		complete: (context, options) => completeSimple(model, context, options),
	};
}

function session(): string {
	return scoreSession({
		rule: RULE,
		devOutput: "listening on localhost:8787",
		talk: [user("good"), assistant("ok")],
		firstKeptEntryIndex: 5,
		healthOutput: "ok",
	});
}

describe("npm run score", () => {
	it("compares Longhaul with pi's compaction at the same point, grades the probes and counts the calls", async () => {
		const model = fauxProbeModel();
		const run = await runScoreCli(["--model", "faux-score/judge", session(), "--keep-recent-tokens", "10"], {
			root: repoRoot,
			resolve: async () => E.right(model),
		});
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		expect(run.stdout).toMatch(/^longhaul with recall +1 +1\/1 100% +- +1\/1 100% +- +1\/0\/0\/0$/m);
		expect(run.stdout).toMatch(/^longhaul no recall +1 +1\/1 100% +- +1\/1 100% +- +1\/0\/0\/0$/m);
		expect(run.stdout).toMatch(/^pi +1 +0\/1 0% +- +0\/1 0% +- +1\/0\/0\/0$/m);
		expect(run.stdout).toMatch(/^longhaul summarizer +1 +0 /m);
		expect(run.stdout).toMatch(/^pi summarizer +1 +0 /m);
		expect(run.stdout).toMatch(/^longhaul probe +1 +0 /m);
		expect(run.stdout).toMatch(/^longhaul probe no recall +1 +0 /m);
		expect(run.stdout).toMatch(/^pi probe +1 +0 /m);
		expect(run.stdout).toMatch(/^judge +1 +0 /m);
	});

	it("says so and exits 1 when model calls fail, since the comparison is then incomplete", async () => {
		const faux = registerFauxProvider({ provider: "faux-down", models: [{ id: "down" }] });
		unregister = () => faux.unregister();
		faux.setResponses(
			Array.from({ length: 20 }, () => fauxAssistantMessage([], { stopReason: "error", errorMessage: "offline" })),
		);
		const model = faux.getModel();
		const down: ProbeModel = {
			name: "faux-down/down",
			contextWindow: model.contextWindow,
			maxTokens: model.maxTokens,
			complete: (context, options) => completeSimple(model, context, options),
		};
		const run = await runScoreCli(["--model", "faux-down/down", session(), "--keep-recent-tokens", "10"], {
			root: repoRoot,
			resolve: async () => E.right(down),
		});
		expect(run.code).toBe(1);
		expect(run.stdout).toMatch(/^longhaul summarizer +1 +1 /m);
		expect(run.stderr).toMatch(/model calls failed; the comparison is incomplete/);
	});

	it("without a model route it says what it needs and exits 2", async () => {
		const run = await runScoreCli([], { root: repoRoot, resolve: async () => E.left("unused") });
		expect(run.code).toBe(2);
		expect(run.stdout).toBe("");
		expect(run.stderr).toContain("--model provider/id");
	});

	it("a route pi does not know, or has no key for, exits 2 before any call", async () => {
		const env = { PI_CODING_AGENT_DIR: mkdtempSync(join(tmpdir(), "longhaul-score-agent-")) };
		const run = await runScoreCli(["--model", "nowhere/no-model"], {
			root: repoRoot,
			resolve: (route) => resolveRoute(route, env),
		});
		expect(run.code).toBe(2);
		expect(run.stderr).toContain("pi knows no model nowhere/no-model");
	});
});

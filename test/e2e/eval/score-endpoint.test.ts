import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { longhaul } from "../../../src/adapters/cli/main.js";
import { RECALL_TOOL } from "../../../src/eval/recall-probe.js";
import { RULE_DEFINITION } from "../../../src/pass/prompt/index.js";
import { scoreSession } from "../../support/score-session.js";
import { assistant, user } from "../../support/v1-transcript.js";

// `longhaul score` as a user runs it against a local model: an OpenAI-compatible endpoint on 127.0.0.1 (here a
// node:http stub speaking the chat completions API with streaming, as Ollama or vLLM do) declared as a custom
// provider in the agent dir's models.json. The stub plays every part and records every request it was sent.

const RULE = "never deploy on a Friday";
const REQUIREMENT = "the health endpoint must answer with JSON";
const PORT_LINE = "listening on localhost:8787";

const Body = t.type({
	messages: t.array(t.type({ role: t.string, content: t.unknown })),
	tools: t.union([t.array(t.type({ function: t.type({ name: t.string }) })), t.undefined]),
});
type Body = t.TypeOf<typeof Body>;
type Sent = Body["messages"][number];
const Part = t.type({ text: t.string });
const JudgeInput = t.type({ answers: t.record(t.string, t.string) });
const Id = t.type({ tool_call_id: t.string });

function textOf(message: Sent | undefined): string {
	const content = message?.content;
	if (typeof content === "string") return content;
	return Array.isArray(content) ? content.flatMap((part) => (Part.is(part) ? [part.text] : [])).join("") : "";
}

/** What the stub answers: text, or one call of a tool. */
type Reply = { readonly text: string } | { readonly call: { readonly name: string; readonly args: string } };

/** The careful Longhaul summarizer: every listed message labeled, the rule as a rule, a narrative that names the requirement. */
function diffAnswer(prompt: string): Reply {
	const labels = [...prompt.matchAll(/^\{"msg":"(u\d+)","text":"(.*)"\}$/gm)].map(([, msg, said]) => ({
		msg,
		label: said?.includes("never") ? "rule" : "not a rule",
	}));
	return {
		text: JSON.stringify({
			labels,
			narrative: "started the dev server; the health endpoint must answer with JSON",
			now: "deploy",
		}),
	};
}

/** The judge: the rule and the requirement are in force; each answer keeps what it states. */
function verdict(input: string): Reply {
	const judged = JudgeInput.decode(JSON.parse(input));
	if (E.isLeft(judged)) return { text: "(the judge prompt did not decode)" };
	const graded = (answer: string) => ({
		rulesKept: answer.includes(RULE) ? ["u1"] : [],
		requirementsKept: answer.includes("answer with JSON") ? ["u2"] : [],
		errorsNamed: [],
		next: answer.includes("deploy") ? "yes" : "no",
	});
	const answers = Object.fromEntries(Object.entries(judged.right.answers).map(([label, a]) => [label, graded(a)]));
	return { text: `Here is my verdict:\n${JSON.stringify({ rulesInForce: ["u1"], requirements: ["u2"], ...answers })}` };
}

/** The probed assistant: answers from what its context holds; offered recall, it first searches for the port. */
function probeAnswer(body: Body): Reply {
	const all = body.messages.map(textOf).join("\n");
	const last = body.messages.at(-1);
	const offered = body.tools?.some((tool) => tool.function.name === RECALL_TOOL) ?? false;
	if (offered && last?.role === "user") return { call: { name: RECALL_TOOL, args: '{"query":"listening"}' } };
	const port = /localhost:(\d+)/.exec(all)?.[1];
	return {
		text: [
			`RULES: ${all.includes(RULE) ? `"${RULE}"` : "none that I know of"}`,
			`REQUIREMENTS: ${all.includes("answer with JSON") ? "health must answer with JSON" : "none"}`,
			`VALUES: ${port === undefined ? "none" : `port ${port}`}`,
			"OPEN ERRORS: none",
			"NEXT: deploy",
		].join("\n"),
	};
}

function answer(body: Body): Reply {
	const system = body.messages.find((m) => m.role === "system" || m.role === "developer");
	const lastUser = textOf(body.messages.findLast((m) => m.role === "user"));
	if (textOf(system).startsWith("You grade")) return verdict(lastUser);
	if (lastUser.startsWith("# Span ")) return diffAnswer(lastUser);
	if (lastUser.includes("<conversation>")) return { text: "## Goal\nShip the shop." };
	if (lastUser.startsWith("Before we go on")) return probeAnswer(body);
	return { text: "(unexpected request)" };
}

/** The reply as chat completion chunks over server-sent events, with usage last, as OpenAI streams it. */
function stream(res: ServerResponse, reply: Reply, promptChars: number): void {
	const chunk = (choices: unknown[], extra: object = {}) =>
		`data: ${JSON.stringify({ id: "chatcmpl-stub", object: "chat.completion.chunk", created: 0, model: "judge", choices, ...extra })}\n\n`;
	res.writeHead(200, { "content-type": "text/event-stream" });
	res.write(chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]));
	if ("text" in reply) {
		// In two pieces, as a streaming server sends it.
		const half = Math.floor(reply.text.length / 2);
		for (const piece of [reply.text.slice(0, half), reply.text.slice(half)])
			res.write(chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]));
	} else {
		const { name, args } = reply.call;
		res.write(
			chunk([
				{
					index: 0,
					delta: { tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name, arguments: "" } }] },
					finish_reason: null,
				},
			]),
		);
		res.write(
			chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: args } }] }, finish_reason: null }]),
		);
	}
	res.write(chunk([{ index: 0, delta: {}, finish_reason: "text" in reply ? "stop" : "tool_calls" }]));
	const output = "text" in reply ? reply.text.length : reply.call.args.length;
	res.write(
		chunk([], { usage: { prompt_tokens: Math.ceil(promptChars / 4), completion_tokens: Math.ceil(output / 4) } }),
	);
	res.end("data: [DONE]\n\n");
}

const requests: { path: string; auth: string; body: Body }[] = [];
let server: Server;
let port = 0;

function handle(req: IncomingMessage, res: ServerResponse): void {
	let raw = "";
	req.on("data", (part: Buffer) => {
		raw += part.toString("utf8");
	});
	req.on("end", () => {
		const body = Body.decode(JSON.parse(raw));
		if (req.url !== "/v1/chat/completions" || E.isLeft(body)) {
			res.writeHead(404).end();
			return;
		}
		requests.push({ path: req.url, auth: req.headers.authorization ?? "", body: body.right });
		stream(res, answer(body.right), raw.length);
	});
}

beforeAll(async () => {
	server = createServer(handle);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	port = typeof address === "object" && address !== null ? address.port : 0;
});
afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** An agent dir whose models.json declares the endpoint, as a user adds Ollama. */
function agentDir(): string {
	const dir = mkdtempSync(join(tmpdir(), "longhaul-score-agent-"));
	const models = {
		providers: {
			local: {
				baseUrl: `http://127.0.0.1:${port}/v1`,
				api: "openai-completions",
				apiKey: "local-key",
				compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
				models: [{ id: "judge", contextWindow: 200_000, maxTokens: 16_000 }],
			},
		},
	};
	writeFileSync(join(dir, "models.json"), JSON.stringify(models, null, 2));
	return dir;
}

function transcript(): string {
	return scoreSession({
		rule: RULE,
		devOutput: PORT_LINE,
		talk: [
			user(REQUIREMENT),
			assistant("Noted."),
			user("good"),
			assistant("ok"),
			user("thanks; next we look at the health check together, in a moment"),
			assistant("sure"),
		],
		firstKeptEntryIndex: 9,
		healthOutput: '{"ok":true}',
	});
}

const toolMessages = (body: Body) => body.messages.filter((m) => m.role === "tool");

describe("longhaul score against a local OpenAI-compatible endpoint declared in models.json", () => {
	it("probes Longhaul's context with recall and without, pi's without, judges rules and requirements apart, and prints each point", async () => {
		const before = process.env.PI_CODING_AGENT_DIR;
		process.env.PI_CODING_AGENT_DIR = agentDir();
		const run = await longhaul(["score", "--model", "local/judge", transcript(), "--keep-recent-tokens", "10"]).finally(
			() => {
				if (before === undefined) delete process.env.PI_CODING_AGENT_DIR;
				else process.env.PI_CODING_AGENT_DIR = before;
			},
		);
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		expect(requests.every((r) => r.auth === "Bearer local-key")).toBe(true);

		// The probe called longhaul_recall; the tool's answer, from the session at the compaction, reached the stub.
		const called = requests.findIndex(
			(r) =>
				r.body.tools !== undefined &&
				toolMessages(r.body).length === 0 &&
				textOf(r.body.messages.at(-1)).startsWith("Before we go on"),
		);
		expect(called).toBeGreaterThanOrEqual(0);
		const next = requests[called + 1]?.body;
		const recalled = next === undefined ? [] : toolMessages(next);
		expect(recalled).toHaveLength(1);
		expect(Id.is(recalled[0]) && recalled[0].tool_call_id).toBe("call_1");
		expect(textOf(recalled[0])).toContain(PORT_LINE);
		// Neither pi's probe nor Longhaul's without recall is offered a tool.
		const probes = requests.filter((r) =>
			textOf(r.body.messages.findLast((m) => m.role === "user")).startsWith("Before we go on"),
		);
		expect(probes.map((r) => r.body.tools?.map((tool) => tool.function.name) ?? [])).toEqual([
			[RECALL_TOOL],
			[RECALL_TOOL],
			[],
			[],
		]);

		// The judge is given the summarizer's definition of a rule, one text.
		const judge = requests.find((r) => textOf(r.body.messages[0]).startsWith("You grade"));
		expect(textOf(judge?.body.messages[0])).toContain(RULE_DEFINITION);

		// Rules, requirements (a column of their own) and values per side.
		expect(run.stdout).toMatch(/^longhaul with recall +1 +1\/1 100% +1\/1 100% +1\/1 100% +- +1\/0\/0\/0$/m);
		expect(run.stdout).toMatch(/^longhaul no recall +1 +1\/1 100% +1\/1 100% +0\/1 0% +- +1\/0\/0\/0$/m);
		expect(run.stdout).toMatch(/^pi +1 +0\/1 0% +0\/1 0% +0\/1 0% +- +1\/0\/0\/0$/m);
		// The point: after u4, u1 in force, kept by both of Longhaul's answers and not pi's, one recall call.
		expect(run.stdout).toMatch(
			/^point +after +rules in force +longhaul with recall kept +longhaul no recall kept +pi kept +recall calls$/m,
		);
		expect(run.stdout).toMatch(/^[0-9a-f]{8} 1 +u4 +u1 +u1 +u1 +- +1$/m);
		// Calls and tokens per role, as the endpoint reported them.
		expect(run.stdout).toMatch(/^longhaul summarizer +1 +0 +[1-9]/m);
		expect(run.stdout).toMatch(/^pi summarizer +1 +0 +[1-9]/m);
		expect(run.stdout).toMatch(/^longhaul probe +2 +0 +[1-9]/m);
		expect(run.stdout).toMatch(/^longhaul probe no recall +1 +0 +[1-9]/m);
		expect(run.stdout).toMatch(/^pi probe +1 +0 +[1-9]/m);
		expect(run.stdout).toMatch(/^judge +1 +0 +[1-9]/m);
	});
});

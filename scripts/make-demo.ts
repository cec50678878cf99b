import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { type AssistantMessage, fauxAssistantMessage, fauxToolCall } from "@mariozechner/pi-ai";
import * as E from "fp-ts/lib/Either.js";
import { DEMO_KEEP_RECENT_TOKENS, demoTranscript } from "../src/eval/demo.js";
import { type EvalSession, startEvalSession } from "../src/eval/eval-session.js";
import { type FauxCall, lastUserText } from "../src/eval/faux-route.js";
import type { RecordedResult } from "../src/eval/recording.js";
import { repoRoot } from "../src/eval/repo-root.js";
import { isDiffPrompt, renderedRuleIds, shownRefs } from "../src/eval/stand-in.js";
import { QUESTIONS_HEADER } from "../src/pass/accept/index.js";

// Records the demo transcript (`npm run make-demo`): a working session on a small shop API, played through a real
// pi session with Longhaul loaded, where the model and the tools are scripted here. The first compaction is pi's
// own (PI_COMPACTOR=pi), the later ones Longhaul's, answered by a careful scripted summarizer. Nothing runs.

/** A tool call the agent makes, and what the tool answered. */
interface Call {
	readonly tool: string;
	readonly args: Record<string, unknown>;
	readonly output: string;
	readonly failed?: boolean;
	readonly say?: string;
}

/** A user message, the agent's tool calls in order, and its closing reply. */
interface Turn {
	readonly user: string;
	readonly calls: readonly Call[];
	readonly reply: string;
}

type Item = Turn | { readonly compact: "pi" | "longhaul" };

const exited = (output: string, code: number) => `${output}\n\nCommand exited with code ${code}`;

const CART_BEFORE = `export function total(cart: Cart): number {
	const subtotal = cart.items.reduce((sum, item) => sum + item.price * item.quantity, 0);
	const taxed = subtotal * (1 + cart.taxRate);
	return Math.round(taxed - discountOf(cart, taxed));
}`;

const SCRIPT: readonly Item[] = [
	{
		user: "We're adding per-key rate limiting to the shop API today. Run the test suite first so we know where we stand. Never add a new dependency without asking me first.",
		calls: [
			{
				tool: "bash",
				args: { command: "npm test" },
				failed: true,
				output: exited(
					"> shop-api@1.4.0 test\n> vitest run\n\n FAIL  test/cart.test.ts > total > applies the discount code\nAssertionError: expected 1790 to be 1611\n\n Test Files  1 failed | 11 passed (12)\n      Tests  1 failed | 41 passed (42)\n   Duration  2.31s",
					1,
				),
			},
		],
		reply:
			"One test fails: `applies the discount code` in test/cart.test.ts expects 1611 and gets 1790. The other 41 pass.",
	},
	{
		user: "Look at the discount one before anything else. And always keep the public exports in src/index.ts backwards compatible, other teams import them.",
		calls: [
			{ tool: "read", args: { path: "src/cart.ts" }, output: CART_BEFORE },
			{
				tool: "edit",
				args: { path: "src/cart.ts", oldText: "discountOf(cart, taxed)", newText: "discountOf(cart, subtotal)" },
				output: "Successfully replaced text in src/cart.ts.",
				say: "The discount is taken from the taxed total; it belongs on the subtotal.",
			},
			{
				tool: "bash",
				args: { command: "npm test" },
				output: " Test Files  12 passed (12)\n      Tests  42 passed (42)\n   Duration  2.18s",
			},
		],
		reply: "Fixed: the discount now comes off the subtotal, before tax. All 42 tests pass.",
	},
	{
		user: "Good. Which port does the dev server listen on? I want to try it with curl later.",
		calls: [
			{
				tool: "bash",
				args: { command: "grep -n PORT .env src/server.ts" },
				output: ".env:1:PORT=8787\nsrc/server.ts:7:const PORT = Number(process.env.PORT ?? 8787);",
			},
			{
				tool: "bash",
				args: { command: "npm run dev >/tmp/dev.log 2>&1 & sleep 1; curl -s localhost:8787/health" },
				output: 'Server listening on http://localhost:8787\n{"ok":true,"version":"1.4.0"}',
			},
		],
		reply: "It listens on port 8787 (set in .env; the PORT variable overrides it), and /health answers ok.",
	},
	{ compact: "pi" },
	{
		user: "Now the limiter itself: a token bucket per API key, 100 requests per minute. From now on, commit after every green test run.",
		calls: [
			{
				tool: "write",
				args: { path: "src/limiter.ts", content: "export class TokenBucket { /* 100 per minute per key */ }" },
				output: "Successfully wrote 1375 bytes to src/limiter.ts",
			},
			{
				tool: "bash",
				args: { command: "npm test" },
				failed: true,
				output: exited(
					" FAIL  test/limiter.test.ts > refills after a minute\nTypeError: bucket.take is not a function\n    at rateLimit (src/limiter.ts:31:18)\n\n      Tests  1 failed | 44 passed (45)",
					1,
				),
			},
			{
				tool: "edit",
				args: { path: "src/limiter.ts", oldText: "bucket.take()", newText: "bucket.tryRemove(1)" },
				output: "Successfully replaced text in src/limiter.ts.",
				say: "The bucket's method is tryRemove, not take.",
			},
			{
				tool: "bash",
				args: { command: "npm test" },
				output: " Test Files  13 passed (13)\n      Tests  45 passed (45)\n   Duration  2.40s",
			},
			{
				tool: "bash",
				args: { command: 'git add -A && git commit -m "Add token-bucket rate limiter"' },
				output: "[feature/rate-limit 3f9c2ab] Add token-bucket rate limiter\n 2 files changed, 88 insertions(+)",
			},
		],
		reply:
			"The limiter is in src/limiter.ts: one token bucket per API key, 100 requests per minute. 45 tests pass; committed as 3f9c2ab.",
	},
	{
		user: "Don't log request bodies anywhere, they can hold card numbers.",
		calls: [
			{
				tool: "bash",
				args: { command: 'grep -rn "req.body" src/' },
				output: "src/middleware/log.ts:14:  logger.info({ path: req.path, body: req.body });",
			},
			{
				tool: "edit",
				args: {
					path: "src/middleware/log.ts",
					oldText: "{ path: req.path, body: req.body }",
					newText: "{ path: req.path }",
				},
				output: "Successfully replaced text in src/middleware/log.ts.",
			},
			{ tool: "bash", args: { command: "npm test" }, output: "      Tests  45 passed (45)\n   Duration  2.36s" },
			{
				tool: "bash",
				args: { command: 'git commit -am "Stop logging request bodies"' },
				output:
					"[feature/rate-limit 8d41e07] Stop logging request bodies\n 1 file changed, 1 insertion(+), 1 deletion(-)",
			},
		],
		reply: "Request bodies are no longer logged (src/middleware/log.ts); tests pass; committed as 8d41e07.",
	},
	{
		user: "Wire the limiter into the router and answer 429 with a Retry-After header when a key is over its limit.",
		calls: [
			{
				tool: "edit",
				args: { path: "src/router.ts", oldText: "router.use(auth);", newText: "router.use(auth, rateLimit);" },
				output: "Successfully replaced text in src/router.ts.",
			},
			{
				tool: "bash",
				args: { command: "npm test" },
				failed: true,
				output: exited(
					" FAIL  test/router.test.ts > rejects the 101st request\nAssertionError: expected 200 to be 429\n\n      Tests  1 failed | 46 passed (47)",
					1,
				),
			},
			{
				tool: "edit",
				args: {
					path: "src/limiter.ts",
					oldText: "return next();",
					newText: "if (!ok) return res.status(429).set('Retry-After', wait).end();\n\treturn next();",
				},
				output: "Successfully replaced text in src/limiter.ts.",
			},
			{
				tool: "bash",
				args: { command: "npm test" },
				output: " Test Files  14 passed (14)\n      Tests  47 passed (47)\n   Duration  2.52s",
			},
			{
				tool: "bash",
				args: { command: 'git commit -am "Answer 429 with Retry-After over the limit"' },
				output:
					"[feature/rate-limit 1c2d3e4] Answer 429 with Retry-After over the limit\n 2 files changed, 9 insertions(+)",
			},
		],
		reply:
			"The router now runs the limiter after auth; over the limit a key gets 429 with Retry-After. 47 tests pass; committed as 1c2d3e4.",
	},
	{ compact: "longhaul" },
	{
		user: "The rule to commit after every green test run is lifted, I'll commit myself from here on.",
		calls: [],
		reply: "Understood: I'll leave commits to you.",
	},
	{
		user: "Try the deploy dry run: ./scripts/deploy.sh --dry-run",
		calls: [
			{
				tool: "bash",
				args: { command: "./scripts/deploy.sh --dry-run" },
				failed: true,
				output: exited(
					"deploy: building shop-api 1.4.0\n./scripts/deploy.sh: line 12: AWS_REGION: unbound variable",
					1,
				),
			},
		],
		reply: "The dry run stops at line 12 of scripts/deploy.sh: AWS_REGION is not set.",
	},
	{
		user: "Leave the deploy for now. Add a short section on the rate limit to README.md.",
		calls: [
			{ tool: "read", args: { path: "README.md" }, output: "# shop-api\n\n## Running\n\n    npm run dev\n" },
			{
				tool: "edit",
				args: {
					path: "README.md",
					oldText: "## Running",
					newText:
						"## Rate limits\n\nEach API key may make 100 requests per minute; over that the API answers 429 with Retry-After.\n\n## Running",
				},
				output: "Successfully replaced text in README.md.",
			},
		],
		reply: "README.md has a 'Rate limits' section now: 100 requests per minute per key, then 429 with Retry-After.",
	},
	{
		user: "Run the whole suite once more before we stop.",
		calls: [
			{
				tool: "bash",
				args: { command: "npm test" },
				output: " Test Files  14 passed (14)\n      Tests  47 passed (47)\n   Duration  2.49s",
			},
		],
		reply: "All 47 tests pass.",
	},
	{ compact: "longhaul" },
	{
		user: "Let's stop here for today. What's still open, and how do I try the limit myself?",
		calls: [],
		reply:
			"Still open: the deploy dry run stops at line 12 of scripts/deploy.sh because AWS_REGION is unset. To try the limit, start the dev server and run `for i in $(seq 101); do curl -s -o /dev/null -w '%{http_code}\\n' -H 'x-api-key: demo' localhost:8787/cart; done`: the 101st answers 429. The last commit is 1c2d3e4.",
	},
];

/** pi's own summary of the first span, as pi's summarizer might write it: it paraphrases and drops the rules. */
const PI_SUMMARY = `## Goal
Add per-key rate limiting to the shop API.

## Progress
- Ran the tests: the discount test in test/cart.test.ts failed; fixed src/cart.ts so the discount comes off the subtotal. All 42 tests pass.
- The dev server listens on port 8787 (PORT overrides it); /health answers ok.

## Next Steps
- Implement the rate limiter.`;

/** pi's summary of the turn its cut split (u2's): the prefix the kept window continues. */
const PI_TURN_PREFIX = `## Original Request
Fix the failing discount test first; keep the public exports in src/index.ts backwards compatible.

## Early Progress
- src/cart.ts now takes the discount off the subtotal; all 42 tests pass.`;

/** What the careful summarizer answers for one Longhaul span. */
interface SpanAnswer {
	readonly labels: Readonly<Record<string, "rule" | { readonly lifts: string }>>;
	readonly objective?: string;
	readonly decisions: readonly { readonly text: string; readonly cite: readonly Cite[] }[];
	readonly deadEnds: readonly { readonly text: string; readonly cite: readonly Cite[] }[];
	readonly values: readonly { readonly name: string; readonly value: string; readonly turn: string }[];
	readonly narrative: string;
	readonly now: string;
}

/** A ledger id the answer cites: the newest command (or error) whose line in the prompt holds `text`. */
interface Cite {
	readonly kind: "C" | "E";
	readonly text: string;
}

const SPANS: Readonly<Record<number, SpanAnswer>> = {
	1: {
		labels: { u1: "rule", u2: "rule", u4: "rule", u5: "rule" },
		objective: "Per-key rate limiting for the shop API",
		decisions: [
			{
				text: "One token bucket per API key, 100 requests per minute, in src/limiter.ts",
				cite: [{ kind: "C", text: "[exit 0] npm test" }],
			},
			{ text: "Over the limit the API answers 429 with Retry-After", cite: [{ kind: "C", text: "[exit 0] npm test" }] },
		],
		deadEnds: [
			{
				text: "bucket.take() does not exist; the bucket's method is tryRemove",
				cite: [{ kind: "E", text: "bucket.take" }],
			},
		],
		values: [{ name: "last commit", value: "1c2d3e4", turn: "u6" }],
		narrative:
			"Built the token-bucket limiter, stopped logging request bodies, wired 429 into the router; tests green.",
		now: "Next: document the limit and try it against the dev server.",
	},
	2: {
		labels: { u7: { lifts: "u4" } },
		decisions: [{ text: "The deploy waits until AWS_REGION is configured", cite: [{ kind: "E", text: "AWS_REGION" }] }],
		deadEnds: [],
		values: [],
		narrative: "Commit rule lifted; the deploy dry run fails on AWS_REGION; README documents the rate limit.",
		now: "Deploy on hold until AWS_REGION is set; the limiter is done and documented.",
	},
};

function cite(prompt: string, c: Cite): string | undefined {
	const ids = prompt
		.split("\n")
		.filter((line) => line.startsWith(c.kind) && line.includes(c.text))
		.map((line) => /^([CE][1-9][0-9]*)\b/.exec(line)?.[1]);
	return ids.filter((id) => id !== undefined).at(-1);
}

/** The careful summarizer: labels from the table (a lift names the rule by the message that gave it), the rest. */
function diffAnswer(prompt: string): string {
	if (prompt.includes(QUESTIONS_HEADER)) return JSON.stringify({ labels: [] });
	const span = Number(/^# Span (\d+)/.exec(prompt)?.[1] ?? "0");
	const answer = SPANS[span];
	if (answer === undefined) throw new Error(`make-demo: no scripted answer for span ${span}`);
	const rules = renderedRuleIds(prompt);
	const shown = shownRefs(prompt);
	const labels = shown.map((msg) => {
		const label = answer.labels[msg];
		if (label === undefined) return { msg, label: "not a rule" };
		return { msg, label: typeof label === "string" ? label : `lifts ${rules.get(label.lifts) ?? label.lifts}` };
	});
	const findings = (list: SpanAnswer["decisions"]) =>
		list.map((f) => ({ text: f.text, evidence: f.cite.flatMap((c) => cite(prompt, c) ?? []) }));
	return JSON.stringify({
		labels,
		...(answer.objective === undefined ? {} : { objective: answer.objective }),
		decisions: findings(answer.decisions),
		deadEnds: findings(answer.deadEnds),
		narrative: answer.narrative,
		now: answer.now,
		values: answer.values.filter((v) => shown.includes(v.turn)),
	});
}

/** The scripted model and tools: replies queued per turn, results by call id. */
class Script {
	queue: AssistantMessage[] = [];
	readonly results = new Map<string, RecordedResult>();
	private calls = 0;

	load(turn: Turn): void {
		this.queue = turn.calls.map((call) => {
			const id = `demo-call-${++this.calls}`;
			this.results.set(id, {
				content: [{ type: "text", text: call.output }],
				isError: call.failed === true,
				details: {},
			});
			const toolCall = fauxToolCall(call.tool, call.args, { id });
			const content = call.say === undefined ? [toolCall] : [{ type: "text" as const, text: call.say }, toolCall];
			return fauxAssistantMessage(content, { stopReason: "toolUse" });
		});
		this.queue.push(fauxAssistantMessage(turn.reply));
	}

	answer(call: FauxCall): AssistantMessage {
		if (call.kind === "agent") {
			const next = this.queue.shift();
			if (next === undefined) throw new Error("make-demo: the agent asked for more replies than the script has");
			return next;
		}
		const prompt = lastUserText(call.context);
		if (isDiffPrompt(prompt)) return fauxAssistantMessage(diffAnswer(prompt));
		return fauxAssistantMessage(prompt.includes("This is the PREFIX of a turn") ? PI_TURN_PREFIX : PI_SUMMARY);
	}
}

async function play(session: EvalSession, script: Script): Promise<void> {
	for (const item of SCRIPT) {
		if ("compact" in item) {
			const foreign = item.compact === "pi";
			if (foreign) await session.reload({ PI_COMPACTOR: "pi" });
			const done = await session.compact();
			if (E.isLeft(done)) throw new Error(`make-demo: the compaction failed: ${done.left}`);
			if (foreign) await session.reload({ PI_COMPACTOR: "" });
			continue;
		}
		script.load(item);
		await session.prompt(item.user);
		if (script.queue.length > 0) throw new Error("make-demo: a turn ended before its script did");
	}
}

async function main(): Promise<void> {
	const root = repoRoot();
	const script = new Script();
	const tools = [...new Set(SCRIPT.flatMap((item) => ("calls" in item ? item.calls.map((c) => c.tool) : [])))];
	const session = await startEvalSession({
		extensionPath: root,
		answer: (call) => script.answer(call),
		tools,
		toolResult: (id) => script.results.get(id),
		env: { PI_COMPACTOR: "", PI_COMPACT_STATE_DEBUG: "off" },
		keepRecentTokens: DEMO_KEEP_RECENT_TOKENS,
	});
	try {
		await play(session, script);
		if (session.handlerErrors.length > 0)
			throw new Error(`make-demo: extension handlers threw: ${session.handlerErrors.map((e) => e.event).join(", ")}`);
		const path = demoTranscript(root);
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, session.jsonl());
		process.stdout.write(`wrote ${path}\n`);
	} finally {
		await session.dispose();
	}
}

await main();

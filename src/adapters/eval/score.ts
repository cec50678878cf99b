import type { AssistantMessage, Context, Message } from "@mariozechner/pi-ai";
import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import { convertToLlm } from "@mariozechner/pi-coding-agent";
import { branchOf } from "../../events/branch.js";
import { readTranscript } from "../../events/transcript.js";
import type { EvalSession } from "./eval-session.js";
import { transcriptFacts } from "./facts.js";
import type { FauxCall } from "./faux-route.js";
import type { ProbeModel } from "./probe-model.js";
import { type Grade, judgePrompt, PROBE, readVerdict, referenceAt } from "./probes.js";
import { replayTranscript } from "./replay.js";

// Score: the same transcript replayed twice, once compacted by Longhaul and once by pi's own compactor, at the same
// points (pi cuts both the same way), with a real model as both summarizers. After each compaction the compacted
// context is asked the probes; one judge call per point grades both answers against the transcript's own reference.

/** The two compactors compared. */
export type Contender = "longhaul" | "pi";
const CONTENDERS: readonly Contender[] = ["longhaul", "pi"];

/** Calls and tokens one role spent, and how many calls failed (a provider error, no network, no answer). */
export interface CallUsage {
	calls: number;
	failed: number;
	input: number;
	output: number;
}

/** Who spent the calls: each compactor's summarizer, the probes, the judge. */
export type Role = "longhaul summarizer" | "pi summarizer" | "probes" | "judge";
/** The roles in the order the cost table lists them. */
export const ROLES: readonly Role[] = ["longhaul summarizer", "pi summarizer", "probes", "judge"];

/** One transcript's score: the grades per compaction point for each compactor, and what it cost. */
export interface TranscriptScore {
	readonly points: number;
	readonly grades: Readonly<Record<Contender, readonly Grade[]>>;
	/** Compactions pi refused or that failed, per compactor (those points are not compared). */
	readonly failed: Readonly<Record<Contender, number>>;
	readonly usage: Readonly<Record<Role, CallUsage>>;
}

/** How to score. */
export interface ScoreOptions {
	readonly extensionPath: string;
	readonly model: ProbeModel;
	/** With no compaction in the recording, one after every this many user turns. */
	readonly every: number;
	readonly keepRecentTokens?: number;
}

/** The context right after a compaction, as the model would get it, and where the compaction entry is. */
interface Captured {
	readonly context: Context;
	readonly compactionId: string;
}

const PROBE_TOKENS = 2048;
const JUDGE_TOKENS = 2048;

function textOf(message: AssistantMessage): string {
	return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

async function ask(
	model: ProbeModel,
	context: Context,
	maxTokens: number,
	usage: CallUsage,
): Promise<AssistantMessage> {
	usage.calls++;
	const reply = await model
		.complete(context, { maxTokens })
		.catch((error: unknown) =>
			fauxAssistantMessage([], { stopReason: "error", errorMessage: error instanceof Error ? error.message : "" }),
		);
	if (reply.stopReason === "error" || reply.stopReason === "aborted") usage.failed++;
	usage.input += reply.usage.input + reply.usage.cacheRead + reply.usage.cacheWrite;
	usage.output += reply.usage.output;
	return reply;
}

/** A side call of the replay (Longhaul's diff, pi's summary) sent to the real model, its cost counted. */
function forwarder(model: ProbeModel, usage: CallUsage): (call: FauxCall) => Promise<AssistantMessage> {
	return (call) => ask(model, call.context, call.options?.maxTokens ?? model.maxTokens, usage);
}

async function capture(s: EvalSession): Promise<Captured> {
	const branch = s.branch();
	const compaction = branch.findLast((entry) => entry.type === "compaction");
	const messages = await s.session.extensionRunner.emitContext(s.session.agent.state.messages);
	return {
		context: { systemPrompt: s.session.systemPrompt, messages: convertToLlm(messages) },
		compactionId: compaction?.id ?? "",
	};
}

interface Run {
	readonly captured: readonly Captured[];
	readonly jsonl: string;
	readonly failed: number;
}

async function run(text: string, contender: Contender, options: ScoreOptions, usage: CallUsage): Promise<Run> {
	const captured: Captured[] = [];
	const replayed = await replayTranscript(text, {
		extensionPath: options.extensionPath,
		compactors: contender,
		every: options.every,
		diff: "stand-in",
		...(options.keepRecentTokens === undefined ? {} : { keepRecentTokens: options.keepRecentTokens }),
		summarizer: {
			contextWindow: options.model.contextWindow,
			maxTokens: options.model.maxTokens,
			answer: forwarder(options.model, usage),
		},
		afterCompaction: async (s) => {
			captured.push(await capture(s));
		},
	});
	return { captured, jsonl: replayed.jsonl, failed: replayed.counts.compactionsFailed };
}

function probeContext(captured: Captured): Context {
	const question: Message = { role: "user", content: [{ type: "text", text: PROBE }], timestamp: Date.now() };
	return { ...captured.context, messages: [...captured.context.messages, question] };
}

/** Scores one transcript: two replays with the real model summarizing, the probes, and one judge call per point. */
export async function scoreTranscript(text: string, options: ScoreOptions): Promise<TranscriptScore> {
	const usage: Record<Role, CallUsage> = {
		"longhaul summarizer": { calls: 0, failed: 0, input: 0, output: 0 },
		"pi summarizer": { calls: 0, failed: 0, input: 0, output: 0 },
		probes: { calls: 0, failed: 0, input: 0, output: 0 },
		judge: { calls: 0, failed: 0, input: 0, output: 0 },
	};
	const runs = {
		longhaul: await run(text, "longhaul", options, usage["longhaul summarizer"]),
		pi: await run(text, "pi", options, usage["pi summarizer"]),
	};
	const branch = branchOf(readTranscript(runs.longhaul.jsonl).entries).entries;
	const facts = transcriptFacts(runs.longhaul.jsonl);
	const points = Math.min(runs.longhaul.captured.length, runs.pi.captured.length);
	const grades: Record<Contender, Grade[]> = { longhaul: [], pi: [] };
	for (let i = 0; i < points; i++) {
		const at = branch.findIndex((entry) => entry.id === runs.longhaul.captured[i]?.compactionId);
		const reference = referenceAt(branch, at, facts[i]?.reused ?? []);
		const answers: Record<Contender, string> = { longhaul: "", pi: "" };
		for (const contender of CONTENDERS) {
			const captured = runs[contender].captured[i];
			if (captured === undefined) continue;
			answers[contender] = textOf(await ask(options.model, probeContext(captured), PROBE_TOKENS, usage.probes));
		}
		// The answers swap places every other point, so a judge that favours X or Y favours neither compactor.
		const [x, y]: readonly [Contender, Contender] = i % 2 === 0 ? ["longhaul", "pi"] : ["pi", "longhaul"];
		const prompt = judgePrompt(reference, answers[x], answers[y]);
		const verdict = await ask(
			options.model,
			{ systemPrompt: prompt.system, messages: [{ role: "user", content: prompt.user, timestamp: Date.now() }] },
			JUDGE_TOKENS,
			usage.judge,
		);
		const [gx, gy] = readVerdict(reference, textOf(verdict), answers[x], answers[y]);
		grades[x].push(gx);
		grades[y].push(gy);
	}
	return { points, grades, failed: { longhaul: runs.longhaul.failed, pi: runs.pi.failed }, usage };
}

import type { AssistantMessage, Context, Message } from "@mariozechner/pi-ai";
import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import { type AgentSession, convertToLlm } from "@mariozechner/pi-coding-agent";
import { branchOf, readTranscript, userMessages } from "../events/index.js";
import type { EvalSession } from "./eval-session.js";
import { transcriptFacts } from "./facts.js";
import type { FauxCall } from "./faux-route.js";
import { ANSWER_LABELS, type Grade, judgePrompt, readVerdict, ungraded } from "./judge.js";
import type { ProbeModel } from "./probe-model.js";
import { PROBE, referenceAt } from "./probes.js";
import { answerWithRecall, RECALL_TOOL, recallToolOf } from "./recall-probe.js";
import { replayTranscript } from "./replay.js";

// Score: the same transcript replayed twice, once compacted by Longhaul and once by pi's own compactor, at the same
// points (pi cuts both the same way), with a real model as both summarizers. Right after each compaction, before the
// replay goes on, the compacted context is asked the probes: on Longhaul's side once with its registered
// `longhaul_recall` (answering on the branch as it stands then) and once without, on pi's side with what pi alone
// offers. One judge call per point grades the three answers against the transcript's own reference.

/** The two compactors compared. */
export type Contender = "longhaul" | "pi";

/** The answers graded at each point: Longhaul's context with recall and without, and pi's. */
export type Side = "longhaul with recall" | "longhaul no recall" | "pi";
/** The sides in the order the tables list them. */
export const SIDES: readonly Side[] = ["longhaul with recall", "longhaul no recall", "pi"];

/** Calls and tokens one role spent, and how many calls failed (a provider error, no network, no answer). */
export interface CallUsage {
	calls: number;
	failed: number;
	input: number;
	output: number;
}

/** Who spent the calls: each compactor's summarizer, each side's probe, the judge. */
export type Role =
	| "longhaul summarizer"
	| "pi summarizer"
	| "longhaul probe"
	| "longhaul probe no recall"
	| "pi probe"
	| "judge";
/** The roles in the order the cost table lists them. */
export const ROLES: readonly Role[] = [
	"longhaul summarizer",
	"pi summarizer",
	"longhaul probe",
	"longhaul probe no recall",
	"pi probe",
	"judge",
];

/** One compaction point: where it was made, each side's grade, and the recall calls Longhaul's probe made. */
export interface PointScore {
	/** User messages before the compaction: it was made after `u<turn>`. */
	readonly turn: number;
	readonly grades: Readonly<Record<Side, Grade>>;
	readonly recalls: number;
}

/** One transcript's score: the grades per compaction point, and what it cost. */
export interface TranscriptScore {
	readonly points: readonly PointScore[];
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

/** What one side answered right after one compaction, and the compaction entry. */
interface Probed {
	readonly compactionId: string;
	readonly answers: Partial<Record<Side, string>>;
	readonly recalls: number;
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

/**
 * pi's system prompt as it is built for exactly the tools `names` (their snippets and guidelines): no tool the
 * probe is not offered is shown to it. The session's own tool set is put back.
 */
function systemPromptFor(session: AgentSession, names: readonly string[]): string {
	const active = session.getActiveToolNames();
	session.setActiveToolsByName([...names]);
	const prompt = session.systemPrompt;
	session.setActiveToolsByName(active);
	return prompt;
}

/** The compacted context as the model would get it next (pi's messages after Longhaul's `context` hook), then the probe. */
async function probeMessages(s: EvalSession): Promise<Message[]> {
	const messages = await s.session.extensionRunner.emitContext(s.session.agent.state.messages);
	const question: Message = { role: "user", content: [{ type: "text", text: PROBE }], timestamp: Date.now() };
	return [...convertToLlm(messages), question];
}

/** The probes right after one compaction, on the live session: the branch as it stands at that point. */
async function probe(
	s: EvalSession,
	contender: Contender,
	model: ProbeModel,
	usage: Record<Role, CallUsage>,
): Promise<Probed> {
	const compactionId = s.branch().findLast((entry) => entry.type === "compaction")?.id ?? "";
	const messages = await probeMessages(s);
	const plain = (role: Role) =>
		ask(model, { systemPrompt: systemPromptFor(s.session, []), messages }, PROBE_TOKENS, usage[role]);
	if (contender === "pi") return { compactionId, answers: { pi: textOf(await plain("pi probe")) }, recalls: 0 };
	const tool = recallToolOf(s.session);
	const withRecall =
		tool === undefined
			? { reply: await plain("longhaul probe"), recalls: 0 }
			: await answerWithRecall(
					(context) => ask(model, context, PROBE_TOKENS, usage["longhaul probe"]),
					{ systemPrompt: systemPromptFor(s.session, [RECALL_TOOL]), messages },
					tool,
				);
	const without = await plain("longhaul probe no recall");
	return {
		compactionId,
		answers: { "longhaul with recall": textOf(withRecall.reply), "longhaul no recall": textOf(without) },
		recalls: withRecall.recalls,
	};
}

interface Run {
	readonly probed: readonly Probed[];
	readonly jsonl: string;
	readonly failed: number;
}

async function run(
	text: string,
	contender: Contender,
	options: ScoreOptions,
	usage: Record<Role, CallUsage>,
): Promise<Run> {
	const probed: Probed[] = [];
	const replayed = await replayTranscript(text, {
		extensionPath: options.extensionPath,
		compactors: contender,
		every: options.every,
		diff: "stand-in",
		...(options.keepRecentTokens === undefined ? {} : { keepRecentTokens: options.keepRecentTokens }),
		summarizer: {
			contextWindow: options.model.contextWindow,
			maxTokens: options.model.maxTokens,
			answer: forwarder(options.model, usage[`${contender} summarizer`]),
		},
		afterCompaction: async (s) => {
			probed.push(await probe(s, contender, options.model, usage));
		},
	});
	return { probed, jsonl: replayed.jsonl, failed: replayed.counts.compactionsFailed };
}

/** The sides in the order the judge sees them at point `i`: they rotate, so a judge that favours a label favours no side. */
function judgeOrder(i: number): readonly Side[] {
	const shift = i % ANSWER_LABELS.length;
	return [...SIDES.slice(shift), ...SIDES.slice(0, shift)];
}

const noUsage = (): CallUsage => ({ calls: 0, failed: 0, input: 0, output: 0 });

/** Scores one transcript: two replays with the real model summarizing, the probes, and one judge call per point. */
export async function scoreTranscript(text: string, options: ScoreOptions): Promise<TranscriptScore> {
	const usage: Record<Role, CallUsage> = {
		"longhaul summarizer": noUsage(),
		"pi summarizer": noUsage(),
		"longhaul probe": noUsage(),
		"longhaul probe no recall": noUsage(),
		"pi probe": noUsage(),
		judge: noUsage(),
	};
	const runs = { longhaul: await run(text, "longhaul", options, usage), pi: await run(text, "pi", options, usage) };
	const branch = branchOf(readTranscript(runs.longhaul.jsonl).entries).entries;
	const facts = transcriptFacts(runs.longhaul.jsonl);
	const count = Math.min(runs.longhaul.probed.length, runs.pi.probed.length);
	const points: PointScore[] = [];
	for (let i = 0; i < count; i++) {
		const longhaul = runs.longhaul.probed[i];
		const at = branch.findIndex((entry) => entry.id === longhaul?.compactionId);
		const reference = referenceAt(branch, at, facts[i]?.reused ?? []);
		const answers: Record<Side, string> = {
			"longhaul with recall": longhaul?.answers["longhaul with recall"] ?? "",
			"longhaul no recall": longhaul?.answers["longhaul no recall"] ?? "",
			pi: runs.pi.probed[i]?.answers.pi ?? "",
		};
		const order = judgeOrder(i);
		const prompt = judgePrompt(
			reference,
			order.map((side) => answers[side]),
		);
		const verdict = await ask(
			options.model,
			{ systemPrompt: prompt.system, messages: [{ role: "user", content: prompt.user, timestamp: Date.now() }] },
			JUDGE_TOKENS,
			usage.judge,
		);
		const read = readVerdict(
			reference,
			textOf(verdict),
			order.map((side) => answers[side]),
		);
		const gradeOf = (side: Side): Grade => read[order.indexOf(side)] ?? ungraded(reference, answers[side]);
		points.push({
			turn: userMessages(branch.slice(0, Math.max(at, 0))).length,
			grades: {
				"longhaul with recall": gradeOf("longhaul with recall"),
				"longhaul no recall": gradeOf("longhaul no recall"),
				pi: gradeOf("pi"),
			},
			recalls: longhaul?.recalls ?? 0,
		});
	}
	return { points, failed: { longhaul: runs.longhaul.failed, pi: runs.pi.failed }, usage };
}

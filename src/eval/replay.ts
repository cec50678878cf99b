import { type AssistantMessage, fauxAssistantMessage } from "@mariozechner/pi-ai";
import { estimateTokens, type SessionEntry } from "@mariozechner/pi-coding-agent";
import * as E from "fp-ts/lib/Either.js";
import {
	branchOf,
	entriesFromObjects,
	LINE_ENTRY_TYPE,
	LineCodec,
	readTranscript,
	type Transcript,
} from "../events/index.js";
import { PI_KEEP_RECENT_TOKENS } from "../pass/span/index.js";
import type { State } from "../reducers/index.js";
import { foldBranch, foldEntries } from "../reducers/index.js";
import { type EvalSession, LONGHAUL_TOOLS, startEvalSession } from "./eval-session.js";
import { type FauxCall, type FauxLimits, lastUserText } from "./faux-route.js";
import { indexAt, type Place } from "./places.js";
import { type Compactor, compactorOf, type RecordedResult, type RecordedStep, recordingOf } from "./recording.js";
import { isDiffPrompt, type RecordedAnswers, recordedAnswers, standInAnswer, standInSummary } from "./stand-in.js";

/** How to replay a transcript. */
export interface ReplayOptions {
	/** Longhaul's package root, loaded by path. */
	readonly extensionPath: string;
	/**
	 * `longhaul`: Longhaul makes every compaction; `pi`: pi's own makes every one (PI_COMPACTOR=pi); `recorded`:
	 * each is made by the compactor the recording had (a foreign one by pi's own).
	 */
	readonly compactors: "longhaul" | "pi" | "recorded";
	/** With no compaction in the recording, one after every this many user turns (0: none). */
	readonly every: number;
	/** `stand-in`: Longhaul's diff gets the stand-in's answer; `fail`: every diff call fails (narrative-less). */
	readonly diff: "stand-in" | "fail";
	/**
	 * pi's `compaction.keepRecentTokens`. Not given, each recorded compaction keeps from where the recording's did
	 * (its kept entry's place), and one the recording lacks keeps pi's default.
	 */
	readonly keepRecentTokens?: number;
	/** A real model behind the summarizers: side calls go to it instead of the stand-in. */
	readonly summarizer?: Summarizer;
	/** Called after each compaction that pi wrote, with the live session. */
	readonly afterCompaction?: (session: EvalSession) => Promise<void>;
}

/** A model that answers the side calls (Longhaul's diff, pi's summary), and the limits it has. */
export interface Summarizer extends FauxLimits {
	readonly answer: (call: FauxCall) => Promise<AssistantMessage>;
}

/** What a replay did, in counts only. */
export interface ReplayCounts {
	readonly turns: number;
	readonly replies: number;
	/** Requests the recording had no reply for (answered with an empty reply). */
	readonly synthetic: number;
	/** Recorded replies the agent never asked for (a turn that ended early). */
	readonly unused: number;
	/** Recorded error replies a retry followed, left out (pi here does not retry). */
	readonly dropped: number;
	readonly toolResults: number;
	/** Tool calls with no recorded result (answered with an error). */
	readonly unanswered: number;
	readonly userRuns: number;
	/** Compactions asked for, and those pi refused (e.g. nothing to compact). */
	readonly compactionsAsked: number;
	readonly compactionsFailed: number;
	readonly compactions: Readonly<Record<Compactor, number>>;
	readonly narrativeLess: number;
	readonly partial: number;
	/** Passes that threw, so pi's own compaction took over, by error class. */
	readonly fallbacks: Readonly<Record<string, number>>;
	/** Why passes closed narrative-less or partial, by reason code. */
	readonly closeReasons: Readonly<Record<string, number>>;
	/** Errors extension handlers threw, by the event they handled. */
	readonly handlerErrors: Readonly<Record<string, number>>;
	readonly unreadable: number;
}

/** A replay's counts, the session it wrote (JSONL) and the state Longhaul folds from it. */
export interface Replayed {
	readonly counts: ReplayCounts;
	readonly jsonl: string;
	readonly state: State;
}

/** Compactions every `every` user turns, for a recording that has none. */
function withCompactions(steps: readonly RecordedStep[], every: number): RecordedStep[] {
	if (every <= 0 || steps.some((s) => s.kind === "compact")) return [...steps];
	const out: RecordedStep[] = [];
	let turns = 0;
	steps.forEach((step, i) => {
		out.push(step);
		if (step.kind === "turn" && ++turns % every === 0 && i < steps.length - 1)
			out.push({ kind: "compact", compactor: "longhaul", summary: "" });
	});
	return out;
}

function bump(counts: Record<string, number>, key: string): void {
	counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * The `keepRecentTokens` that makes pi cut the live branch where the recording was cut: the tokens (pi's
 * `estimateTokens`) of every message from the entry at the recorded kept place on, so pi's walk back from the newest
 * message reaches the budget there. Undefined (pi's setting) without a recorded place or where the live branch lacks it.
 */
function keepFor(branch: readonly SessionEntry[], kept: Place | undefined): number | undefined {
	if (kept === undefined) return undefined;
	const at = indexAt(entriesFromObjects(branch).entries, kept);
	if (at < 0) return undefined;
	const tokens = branch.slice(at).reduce((n, e) => n + (e.type === "message" ? estimateTokens(e.message) : 0), 0);
	return tokens > 0 ? tokens : undefined;
}

/** The model's side of a replay: recorded replies in order for agent turns, the stand-in for side calls. */
class FakedModel {
	queue: AssistantMessage[] = [];
	summary: string | undefined;
	replies = 0;
	synthetic = 0;

	constructor(
		private readonly recorded: RecordedAnswers,
		private readonly diff: ReplayOptions["diff"],
		private readonly summarizer: Summarizer | undefined,
	) {}

	answer(call: FauxCall): AssistantMessage | Promise<AssistantMessage> {
		if (call.kind === "agent") {
			const next = this.queue.shift();
			if (next !== undefined) {
				this.replies++;
				return next;
			}
			this.synthetic++;
			return fauxAssistantMessage("");
		}
		if (this.summarizer !== undefined) return this.summarizer.answer(call);
		const prompt = lastUserText(call.context);
		if (!isDiffPrompt(prompt)) return fauxAssistantMessage(standInSummary(prompt, this.summary));
		if (this.diff === "fail")
			return fauxAssistantMessage([], { stopReason: "error", errorMessage: "replay stand-in: the diff call fails" });
		return fauxAssistantMessage(standInAnswer(prompt, this.recorded));
	}
}

/** Tool answers from the recording: each call id's results in order. */
class RecordedTools {
	answered = 0;
	unanswered = 0;
	private readonly used = new Map<string, number>();

	constructor(private readonly results: ReadonlyMap<string, readonly RecordedResult[]>) {}

	result(toolCallId: string): RecordedResult | undefined {
		const index = this.used.get(toolCallId) ?? 0;
		this.used.set(toolCallId, index + 1);
		const found = this.results.get(toolCallId)?.[index];
		if (found === undefined) this.unanswered++;
		else this.answered++;
		return found;
	}
}

function afterCounts(branch: readonly unknown[]): Pick<
	ReplayCounts,
	"compactions" | "narrativeLess" | "partial" | "fallbacks" | "closeReasons"
> & {
	state: State;
} {
	const entries = entriesFromObjects(branch).entries;
	const compactions: Record<Compactor, number> = { longhaul: 0, pi: 0, other: 0 };
	const fallbacks: Record<string, number> = {};
	for (const entry of entries) {
		if (entry.type === "compaction") compactions[compactorOf(entry)]++;
		if (entry.type === "custom" && entry.raw.customType === LINE_ENTRY_TYPE) {
			const line = LineCodec.decode(entry.raw.data);
			if (E.isRight(line) && "fallback" in line.right) bump(fallbacks, line.right.fallback);
		}
	}
	const { state } = foldEntries(branch);
	const closeReasons: Record<string, number> = {};
	for (const close of state.closes) if (close.kind !== "whole") bump(closeReasons, close.reason ?? "none");
	const kinds = state.closes.map((c) => c.kind);
	return {
		compactions,
		narrativeLess: kinds.filter((k) => k === "narrative-less").length,
		partial: kinds.filter((k) => k === "partial").length,
		fallbacks,
		closeReasons,
		state,
	};
}

/**
 * Replays a recorded transcript through a real pi session with Longhaul loaded: the recorded user messages and
 * replies in order, tools answering with their recorded results, compactions where the recording had them.
 * The transcript is text or a file read already; nothing is written anywhere but the session's temp dirs.
 */
export async function replayTranscript(source: string | Transcript, options: ReplayOptions): Promise<Replayed> {
	const transcript = typeof source === "string" ? readTranscript(source) : source;
	const branch = branchOf(transcript.entries).entries;
	const recording = recordingOf(branch);
	const model = new FakedModel(recordedAnswers(foldBranch(branch)), options.diff, options.summarizer);
	const tools = new RecordedTools(recording.results);
	const s = await startEvalSession({
		extensionPath: options.extensionPath,
		answer: (call) => model.answer(call),
		tools: recording.toolNames.filter((name) => !LONGHAUL_TOOLS.includes(name)),
		toolResult: (id) => tools.result(id),
		env: { PI_COMPACTOR: options.compactors === "pi" ? "pi" : "", PI_COMPACT_STATE_DEBUG: "off" },
		...(options.keepRecentTokens === undefined ? {} : { keepRecentTokens: options.keepRecentTokens }),
		...(options.summarizer === undefined ? {} : { limits: options.summarizer }),
	});
	let turns = 0;
	let unused = 0;
	let userRuns = 0;
	let asked = 0;
	let failed = 0;
	try {
		for (const step of withCompactions(recording.steps, options.every)) {
			if (step.kind === "turn") {
				turns++;
				model.queue = [...step.replies];
				await s.prompt(step.text, step.images);
				unused += model.queue.length;
				model.queue = [];
			} else if (step.kind === "bash") {
				userRuns++;
				s.recordBash(step);
			} else {
				asked++;
				model.summary = step.summary === "" ? undefined : step.summary;
				const foreign = options.compactors === "recorded" && step.compactor !== "longhaul";
				if (foreign) await s.reload({ PI_COMPACTOR: "pi" });
				const done = await s.compact(
					options.keepRecentTokens ?? keepFor(s.branch(), step.kept) ?? PI_KEEP_RECENT_TOKENS,
				);
				if (E.isLeft(done)) failed++;
				if (foreign) await s.reload({ PI_COMPACTOR: "" });
				if (E.isRight(done)) await options.afterCompaction?.(s);
			}
		}
		const branchAfter = s.branch();
		const after = afterCounts(branchAfter);
		const handlerErrors: Record<string, number> = {};
		for (const error of s.handlerErrors) bump(handlerErrors, error.event);
		return {
			counts: {
				turns,
				replies: model.replies,
				synthetic: model.synthetic,
				unused,
				dropped: recording.droppedReplies,
				toolResults: tools.answered,
				unanswered: tools.unanswered,
				userRuns,
				compactionsAsked: asked,
				compactionsFailed: failed,
				compactions: after.compactions,
				narrativeLess: after.narrativeLess,
				partial: after.partial,
				fallbacks: after.fallbacks,
				closeReasons: after.closeReasons,
				handlerErrors,
				unreadable: recording.unreadable,
			},
			jsonl: s.jsonl(),
			state: after.state,
		};
	} finally {
		await s.dispose();
	}
}

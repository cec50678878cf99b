import { existsSync, readFileSync } from "node:fs";
import { type ContextEvent, estimateTokens } from "@mariozechner/pi-coding-agent";
import { DEFAULT_CONFIG } from "../src/adapters/config.js";
import { takeWorld } from "../src/adapters/git/world.js";
import type { ModelReply, PassModel } from "../src/adapters/pass/model.js";
import { runPass } from "../src/adapters/pass/run-pass.js";
import { createRedactor } from "../src/adapters/redact/index.js";
import { branchOf, type Entry, readTranscript } from "../src/events/index.js";
import { ledgerEvents } from "../src/pass/ledger/index.js";
import { derivedSpan, sliceSpan } from "../src/pass/span/index.js";
import { initialState } from "../src/reducers/index.js";
import { median, report, timeRuns } from "./measure.js";

/** The span ending at each recorded compaction, and the rest of the branch as one more span. */
function spans(branch: readonly Entry[]): { end: string; entries: number }[] {
	const out: { end: string; entries: number }[] = [];
	for (const entry of branch) {
		const kept = entry.raw.firstKeptEntryId;
		if (entry.type === "compaction" && typeof kept === "string") out.push({ end: kept, entries: 0 });
	}
	const last = branch.at(-1);
	if (last !== undefined) out.push({ end: last.id, entries: 0 });
	return out;
}

/** The refs of the messages a diff prompt asks to label. */
function shownRefs(prompt: string): string[] {
	return [...prompt.matchAll(/^\{"msg":"(u[0-9]+)"/gm)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
}

type AgentMessage = ContextEvent["messages"][number];

/** pi's message shape, checked as far as `estimateTokens` reads it. */
function isAgentMessage(u: unknown): u is AgentMessage {
	return typeof u === "object" && u !== null && "role" in u && typeof u.role === "string";
}

/** A model that answers at once, labeling every message it is shown: the pass's cost without the model. */
function instantModel(sent: string[]): PassModel {
	return {
		name: "bench/instant",
		maxTokens: 32_000,
		contextWindow: 1_000_000,
		reasoning: null,
		routeNotUsed: null,
		call: async (request): Promise<ModelReply> => {
			sent.push(request.system, request.prompt);
			const labels = shownRefs(request.prompt).map((msg) => ({ msg, label: "not a rule" }));
			const text = JSON.stringify({ labels, narrative: "benchmark", now: "next" });
			return { text, stopReason: "stop", errorMessage: "", inputTokens: 0, outputTokens: 0 };
		},
	};
}

/** The pass's median time without its model calls, and the texts that leave it: what it sent and the summary. */
export interface PassFigures {
	readonly passMs: number;
	readonly leaving: readonly string[];
}

/** The pass without its model calls on the largest real span, the ledger alone, and the prompt's size. */
export async function passBench(transcripts: readonly string[]): Promise<PassFigures | undefined> {
	const present = transcripts.filter((path) => existsSync(path));
	if (present.length === 0) {
		process.stdout.write("skip pass benchmarks: the real transcripts in ../shared are absent\n");
		return undefined;
	}
	let largest: { branch: readonly Entry[]; end: string; messages: number } | undefined;
	for (const path of present) {
		const branch = branchOf(readTranscript(readFileSync(path, "utf8")).entries).entries;
		for (const { end } of spans(branch)) {
			const messages = sliceSpan({ branch, events: [] }, derivedSpan(branch, end), initialState).messages.length;
			if (largest === undefined || messages > largest.messages) largest = { branch, end, messages };
		}
	}
	if (largest === undefined) return undefined;
	const { branch, end } = largest;
	const slice = sliceSpan({ branch, events: [] }, derivedSpan(branch, end), initialState);
	const ledgerMs = median(timeRuns(21, () => ledgerEvents(slice.messages, 1, initialState)));
	report(
		`ledger over the largest real span (${slice.messages.length} msgs)`,
		`${ledgerMs.toFixed(2)} ms median`,
		"(no target)",
		true,
	);
	const raw = branch.map((e) => ({ ...e.raw, id: e.id, parentId: e.parentId }));
	const settings = { ...DEFAULT_CONFIG, narrativeMode: "single" as const };
	// The World taken once before: the same pass with a World given at once forks nothing, and a fork of a process that
	// holds a couple of hundred MB costs its thread tens of ms in the work after it (docs/evaluation.md).
	const taken = await takeWorld(process.cwd());
	const worlds = { real: takeWorld, before: async () => taken };
	const times: Record<keyof typeof worlds, number[]> = { real: [], before: [] };
	let promptChars = 0;
	let leaving: string[] = [];
	for (let i = 0; i < 15; i++) {
		// In turn, each first every other time. A real run's forks may still slow the run after it, so the figure
		// without forks is, if anything, high.
		for (const which of i % 2 === 0 ? (["real", "before"] as const) : (["before", "real"] as const)) {
			const sent: string[] = [];
			const start = performance.now();
			const outcome = await runPass(
				{ branch: raw, firstKeptEntryId: end, cwd: process.cwd(), signal: new AbortController().signal, settings },
				{
					model: instantModel(sent),
					noModelReason: "",
					takeWorld: worlds[which],
					status: () => {},
					now: () => performance.now(),
					redact: createRedactor(true).redactAll,
				},
			);
			times[which].push(performance.now() - start);
			if (which === "real") {
				promptChars = outcome.promptChars;
				leaving = [...sent, outcome.summary];
			}
		}
	}
	const passMs = median(times.real.slice(1));
	report(
		"pass without model calls (real World), largest span",
		`${passMs.toFixed(1)} ms median`,
		"<= 100 ms",
		passMs <= 100,
	);
	report(
		"the same, its World taken before (no fork)",
		`${median(times.before.slice(1)).toFixed(1)} ms median`,
		"(no target)",
		true,
	);
	let spanTokens = 0;
	for (const entry of branch) {
		const message = entry.raw.message;
		if (slice.entryIds.has(entry.id) && isAgentMessage(message)) spanTokens += estimateTokens(message);
	}
	const share = Math.ceil(promptChars / 4) / spanTokens;
	report(
		"diff prompt size / span tokens",
		`${(share * 100).toFixed(1)}% (${Math.ceil(promptChars / 4)} of ${spanTokens})`,
		"<= 25%",
		share <= 0.25,
	);
	return { passMs, leaving };
}

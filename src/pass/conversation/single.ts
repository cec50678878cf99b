import type { Accepted } from "../accept.js";
import type { Plan, Talk } from "./conversation.js";
import type { DiffContext } from "./diff-section.js";
import type { CallTrace } from "./exchange.js";

/** A chunk's diff: the settled acceptance, or the reason there is none, and the trace of its calls. */
export interface ChunkDiff {
	readonly accepted: Accepted | undefined;
	readonly reason: string | null;
	readonly calls: readonly CallTrace[];
	/** Rule words the model gave that no recorded rule holds: pieces of the user's text, for the opt-in excerpts. */
	readonly rejectedQuotes: readonly string[];
}

/** Single mode's conversation for one chunk: one section, asked in single calls that each carry the whole prompt. */
export function chunkPlan(context: DiffContext): Plan {
	return {
		transport: { kind: "calls" },
		system: context.prompt.system,
		maxTokens: context.maxTokens,
		sections: [{ kind: "diff", context }],
	};
}

/** What a chunk's conversation came to. */
export function chunkDiffOf(talk: Talk): ChunkDiff {
	const first = talk.results[0];
	const result =
		first?.kind === "diff" ? first.result : { accepted: undefined, reason: "no-answer", rejectedQuotes: [] };
	return { ...result, calls: talk.calls };
}

import type { Accepted } from "../accept/index.js";
import type { ConversationState, Plan } from "./conversation.js";
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

/**
 * Single mode's conversation for one chunk: one section, asked in single calls that each carry the whole prompt.
 * A short rule message whose given words stand nowhere is recorded whole here (`unwrittenWhole`), a deliberate
 * exception turns mode does not make (docs/contracts.md, The diff answer).
 */
export function chunkPlan(context: DiffContext): Plan {
	const ctx = { ...context.ctx, unwrittenWhole: true };
	return {
		transport: { kind: "calls" },
		system: context.prompt.system,
		maxTokens: context.maxTokens,
		sections: [{ kind: "diff", context: { ...context, ctx } }],
	};
}

/** What a chunk's conversation came to. */
export function chunkDiffOf(conversation: ConversationState): ChunkDiff {
	const first = conversation.results[0];
	const result =
		first?.kind === "diff" ? first.result : { accepted: undefined, reason: "no-answer", rejectedQuotes: [] };
	return { ...result, calls: conversation.calls };
}

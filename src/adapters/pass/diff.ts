import type { AcceptContext } from "../../pass/accept/index.js";
import { type ChunkDiff, chunkDiffOf, chunkPlan } from "../../pass/conversation/index.js";
import type { Prompt } from "../../pass/prompt/index.js";
import { type ConverseOptions, converse } from "./converse.js";
import type { PassModel } from "./model.js";

/** The diff of one chunk in single mode: its one-section conversation, held by the driver. Rejects only on abort. */
export async function diffChunk(
	model: PassModel,
	prompt: Prompt,
	ctx: AcceptContext,
	options: ConverseOptions & { readonly retryNoteChars: number },
): Promise<ChunkDiff> {
	const plan = chunkPlan({ prompt, ctx, retryNoteChars: options.retryNoteChars, maxTokens: model.maxTokens });
	return chunkDiffOf(await converse(plan, model, options));
}

import type { Event, Message, UserMessage } from "../../events/index.js";
import type { State } from "../../reducers/index.js";
import type { SpanSlice } from "./span.js";

/** Characters per token, the same rough measure pi's `estimateTokens` uses. */
const CHARS_PER_TOKEN = 4;

/** One run of a span's messages, with the user messages it holds. */
export interface Chunk {
	readonly messages: readonly Message[];
	readonly users: readonly UserMessage[];
}

/** How many chunks a prompt of `promptChars` is cut into for a model's context window, at most `maxChunks`. */
export function chunkCount(promptChars: number, contextWindow: number, maxChunks: number): number {
	const budget = Math.max(1, contextWindow - 8192) * CHARS_PER_TOKEN;
	return Math.min(maxChunks, Math.max(1, Math.ceil(promptChars / budget)));
}

/** Splits a span into `count` runs of messages, each user message with the run that holds it. */
export function chunksOf(slice: SpanSlice, count: number): Chunk[] {
	const size = Math.ceil(slice.messages.length / count);
	const chunks: Chunk[] = [];
	let userIndex = 0;
	for (let start = 0; start < slice.messages.length || chunks.length === 0; start += size) {
		const messages = slice.messages.slice(start, start + size);
		const userCount = messages.filter((m) => m.role === "user").length;
		chunks.push({ messages, users: slice.users.slice(userIndex, userIndex + userCount) });
		userIndex += userCount;
	}
	return chunks;
}

/** The ledger ids (`C<n>`, `E<n>`) an answer may cite: the state's and the span's ledger's. */
export function ledgerIds(state: State, ledger: readonly Event[]): Set<string> {
	const ids = new Set<string>([...state.commands.map((c) => c.id), ...state.errors.map((e) => e.id)]);
	for (const e of ledger) if (e.type === "command-recorded" || e.type === "error-recorded") ids.add(e.data.id);
	return ids;
}

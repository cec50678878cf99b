import type { AssistantMessage, ImageContent, TextContent, ThinkingContent, ToolCall } from "@mariozechner/pi-ai";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { Entry } from "../events/index.js";
import { CompactionDetailsCodec, contentText } from "../events/index.js";
import { type Place, placeOf } from "./places.js";

// A recorded transcript read as the steps that made it: what the user sent, what the model answered, what each
// tool call returned, where a compaction landed. Replay feeds these to a real pi session in the same order.

const TextBlock = t.intersection([
	t.type({ type: t.literal("text"), text: t.string }),
	t.partial({ textSignature: t.string }),
]);
const ThinkingBlock = t.intersection([
	t.type({ type: t.literal("thinking"), thinking: t.string }),
	t.partial({ thinkingSignature: t.string, redacted: t.boolean }),
]);
const ToolCallBlock = t.type({ type: t.literal("toolCall"), id: t.string, name: t.string, arguments: t.unknown });
const ImageBlock = t.type({ type: t.literal("image"), data: t.string, mimeType: t.string });
const StopReason = t.keyof({ stop: null, length: null, toolUse: null, error: null, aborted: null });

const AssistantCodec = t.intersection([
	t.type({ role: t.literal("assistant"), content: t.array(t.unknown) }),
	t.partial({ stopReason: StopReason, errorMessage: t.string }),
]);
const UserCodec = t.type({ role: t.literal("user"), content: t.union([t.string, t.array(t.unknown)]) });
const ToolResultCodec = t.intersection([
	t.type({ role: t.literal("toolResult"), toolCallId: t.string, toolName: t.string, content: t.array(t.unknown) }),
	t.partial({ isError: t.boolean, details: t.unknown }),
]);
const BashCodec = t.intersection([
	t.type({ role: t.literal("bashExecution"), command: t.string, output: t.string }),
	t.partial({
		exitCode: t.union([t.number, t.null]),
		cancelled: t.boolean,
		truncated: t.boolean,
		excludeFromContext: t.boolean,
	}),
]);
const CompactionCodec = t.intersection([
	t.type({ summary: t.string }),
	t.partial({ fromHook: t.boolean, details: t.unknown }),
]);

/** Which compactor wrote a compaction entry: Longhaul, pi's own, or another extension. */
export type Compactor = "longhaul" | "pi" | "other";

/** What a tool call returned in the recording. */
export interface RecordedResult {
	readonly content: readonly (TextContent | ImageContent)[];
	readonly isError: boolean;
	readonly details: unknown;
}

/** One user message and the model's replies up to the next step. */
export interface RecordedTurn {
	readonly kind: "turn";
	readonly text: string;
	readonly images: readonly ImageContent[];
	readonly replies: readonly AssistantMessage[];
}

/** A command the user ran with `!` (or `!!`, left out of the context). */
export interface RecordedBash {
	readonly kind: "bash";
	readonly command: string;
	readonly output: string;
	readonly exitCode: number | undefined;
	readonly cancelled: boolean;
	readonly truncated: boolean;
	readonly excludeFromContext: boolean;
}

/** A compaction where the recording had one. */
export interface RecordedCompaction {
	readonly kind: "compact";
	readonly compactor: Compactor;
	readonly summary: string;
	/** Where the recorded compaction's kept window starts, when its kept entry is on the branch. */
	readonly kept?: Place;
}

/** One step of a recording, in order. */
export type RecordedStep = RecordedTurn | RecordedBash | RecordedCompaction;

/** A recording as replay steps, the tool results by call id, and what could not be replayed. */
export interface Recording {
	readonly steps: readonly RecordedStep[];
	/** Each call id's recorded results, oldest first (an id a provider reused answers in order). */
	readonly results: ReadonlyMap<string, readonly RecordedResult[]>;
	/** Every tool name the recorded replies call. */
	readonly toolNames: readonly string[];
	/** Error or aborted replies followed by another reply of the same turn (a retry, not an end). */
	readonly droppedReplies: number;
	/** Replies before the first user message, or entries that failed their codec. */
	readonly unreadable: number;
}

function toolCallOf(block: t.TypeOf<typeof ToolCallBlock>): ToolCall {
	const args = t.UnknownRecord.decode(block.arguments);
	return { type: "toolCall", id: block.id, name: block.name, arguments: E.isRight(args) ? args.right : {} };
}

function assistantContent(content: readonly unknown[]): (TextContent | ThinkingContent | ToolCall)[] {
	const out: (TextContent | ThinkingContent | ToolCall)[] = [];
	for (const block of content) {
		if (TextBlock.is(block)) out.push(block);
		else if (ThinkingBlock.is(block)) out.push(block);
		else if (ToolCallBlock.is(block)) out.push(toolCallOf(block));
	}
	return out;
}

/** The recorded reply as pi-ai's message; usage and the model name are the faux provider's own when served. */
function assistantOf(a: t.TypeOf<typeof AssistantCodec>): AssistantMessage {
	return {
		role: "assistant",
		content: assistantContent(a.content),
		api: "replay",
		provider: "replay",
		model: "replay",
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: a.stopReason ?? "stop",
		...(a.errorMessage === undefined ? {} : { errorMessage: a.errorMessage }),
		timestamp: 0,
	};
}

function resultContent(content: readonly unknown[]): (TextContent | ImageContent)[] {
	const out: (TextContent | ImageContent)[] = [];
	for (const block of content) {
		if (TextBlock.is(block)) out.push({ type: "text", text: block.text });
		else if (ImageBlock.is(block)) out.push({ type: "image", data: block.data, mimeType: block.mimeType });
	}
	return out;
}

function images(content: string | readonly unknown[]): ImageContent[] {
	if (typeof content === "string") return [];
	return content.flatMap((block) => (ImageBlock.is(block) ? [block] : []));
}

/** Which compactor wrote a compaction entry (Longhaul's details decode; an extension's set `fromHook`). */
export function compactorOf(entry: Entry): Compactor {
	if (E.isRight(CompactionDetailsCodec.decode(entry.raw.details))) return "longhaul";
	return entry.raw.fromHook === true ? "other" : "pi";
}

/** An error or aborted reply that another reply of its turn follows was retried; pi without retries would stop. */
function settledReplies(replies: readonly AssistantMessage[]): { kept: AssistantMessage[]; dropped: number } {
	const kept = replies.filter(
		(reply, i) => i === replies.length - 1 || (reply.stopReason !== "error" && reply.stopReason !== "aborted"),
	);
	return { kept, dropped: replies.length - kept.length };
}

class Builder {
	readonly steps: RecordedStep[] = [];
	readonly results = new Map<string, RecordedResult[]>();
	readonly toolNames = new Set<string>();
	droppedReplies = 0;
	unreadable = 0;
	private turn: { text: string; images: ImageContent[]; replies: AssistantMessage[] } | undefined;

	closeTurn(): void {
		if (this.turn === undefined) return;
		const { kept, dropped } = settledReplies(this.turn.replies);
		this.droppedReplies += dropped;
		this.steps.push({ kind: "turn", text: this.turn.text, images: this.turn.images, replies: kept });
		this.turn = undefined;
	}

	message(raw: unknown): void {
		const user = UserCodec.decode(raw);
		if (E.isRight(user)) {
			this.closeTurn();
			const { content } = user.right;
			this.turn = { text: contentText(content), images: images(content), replies: [] };
			return;
		}
		const assistant = AssistantCodec.decode(raw);
		if (E.isRight(assistant)) {
			const reply = assistantOf(assistant.right);
			for (const block of reply.content) if (block.type === "toolCall") this.toolNames.add(block.name);
			if (this.turn === undefined) this.unreadable++;
			else this.turn.replies.push(reply);
			return;
		}
		const result = ToolResultCodec.decode(raw);
		if (E.isRight(result)) {
			const r = result.right;
			const list = this.results.get(r.toolCallId) ?? [];
			list.push({ content: resultContent(r.content), isError: r.isError === true, details: r.details });
			this.results.set(r.toolCallId, list);
			return;
		}
		const bash = BashCodec.decode(raw);
		if (E.isRight(bash)) {
			this.closeTurn();
			const b = bash.right;
			this.steps.push({
				kind: "bash",
				command: b.command,
				output: b.output,
				exitCode: typeof b.exitCode === "number" ? b.exitCode : undefined,
				cancelled: b.cancelled === true,
				truncated: b.truncated === true,
				excludeFromContext: b.excludeFromContext === true,
			});
			return;
		}
		this.unreadable++;
	}

	compaction(entry: Entry, kept: Place | undefined): void {
		const decoded = CompactionCodec.decode(entry.raw);
		this.closeTurn();
		const summary = E.isRight(decoded) ? decoded.right.summary : "";
		this.steps.push({
			kind: "compact",
			compactor: compactorOf(entry),
			summary,
			...(kept === undefined ? {} : { kept }),
		});
	}
}

/** Reads a branch (root to leaf) as replay steps; never throws on data, counts what it could not read. */
export function recordingOf(branch: readonly Entry[]): Recording {
	const builder = new Builder();
	for (const entry of branch) {
		if (entry.type === "message") builder.message(entry.raw.message);
		else if (entry.type === "compaction") {
			const kept = entry.raw.firstKeptEntryId;
			builder.compaction(entry, typeof kept === "string" ? placeOf(branch, kept) : undefined);
		}
	}
	builder.closeTurn();
	return {
		steps: builder.steps,
		results: builder.results,
		toolNames: [...builder.toolNames].sort(),
		droppedReplies: builder.droppedReplies,
		unreadable: builder.unreadable,
	};
}

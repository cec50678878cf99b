import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { isRecord } from "./is-record.js";
import type { Entry } from "./transcript.js";

const TextBlock = t.type({ type: t.literal("text"), text: t.string });
const ToolCallBlock = t.type({ type: t.literal("toolCall"), id: t.string, name: t.string, arguments: t.unknown });
const Content = t.union([t.string, t.array(t.unknown)]);

const UserCodec = t.type({ role: t.literal("user"), content: Content });
const AssistantCodec = t.intersection([
	t.type({ role: t.literal("assistant"), content: t.array(t.unknown) }),
	t.partial({ stopReason: t.string, errorMessage: t.string }),
]);
const ToolResultCodec = t.intersection([
	t.type({ role: t.literal("toolResult"), toolCallId: t.string, toolName: t.string, content: Content }),
	t.partial({ isError: t.boolean, details: t.unknown }),
]);
const BashExecutionCodec = t.intersection([
	t.type({ role: t.literal("bashExecution"), command: t.string, output: t.string }),
	t.partial({ exitCode: t.union([t.number, t.null, t.undefined]), cancelled: t.boolean }),
]);

/** A tool call an assistant message made. */
export interface ToolCall {
	readonly id: string;
	readonly name: string;
	readonly arguments: unknown;
}

/** A transcript message, reduced to what Longhaul reads from it. */
export type Message =
	| { readonly role: "user"; readonly text: string }
	| {
			readonly role: "assistant";
			readonly text: string;
			readonly toolCalls: readonly ToolCall[];
			readonly stopReason: string;
			readonly errorMessage: string;
	  }
	| {
			readonly role: "toolResult";
			readonly toolCallId: string;
			readonly toolName: string;
			readonly text: string;
			readonly isError: boolean;
			readonly details: unknown;
	  }
	| {
			readonly role: "bashExecution";
			readonly command: string;
			readonly output: string;
			readonly exitCode: number | null;
			readonly cancelled: boolean;
	  };

/** The text of a message's content: a string, or its text blocks joined by newlines. */
export function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	const parts: string[] = [];
	for (const block of content) if (TextBlock.is(block)) parts.push(block.text);
	return parts.join("\n");
}

function toolCalls(content: readonly unknown[]): ToolCall[] {
	const calls: ToolCall[] = [];
	for (const block of content) if (ToolCallBlock.is(block)) calls.push(block);
	return calls;
}

/**
 * Decodes a pi message; roles Longhaul does not read, or shapes that fail, give undefined. Only the codec of the role
 * the message is written with is tried: each codec asks for its own role, so no other could decode it, and a failed
 * decoding costs io-ts its list of errors. Exported for tests.
 */
export function decodeMessage(u: unknown): Message | undefined {
	switch (isRecord(u) ? u.role : undefined) {
		case "user":
			return userOf(u);
		case "assistant":
			return assistantOf(u);
		case "toolResult":
			return toolResultOf(u);
		case "bashExecution":
			return bashExecutionOf(u);
		default:
			return undefined;
	}
}

function userOf(u: unknown): Message | undefined {
	const user = UserCodec.decode(u);
	return E.isRight(user) ? { role: "user", text: contentText(user.right.content) } : undefined;
}

function assistantOf(u: unknown): Message | undefined {
	const assistant = AssistantCodec.decode(u);
	if (E.isLeft(assistant)) return undefined;
	const a = assistant.right;
	return {
		role: "assistant",
		text: contentText(a.content),
		toolCalls: toolCalls(a.content),
		stopReason: a.stopReason ?? "",
		errorMessage: a.errorMessage ?? "",
	};
}

function toolResultOf(u: unknown): Message | undefined {
	const result = ToolResultCodec.decode(u);
	if (E.isLeft(result)) return undefined;
	const r = result.right;
	return {
		role: "toolResult",
		toolCallId: r.toolCallId,
		toolName: r.toolName,
		text: contentText(r.content),
		isError: r.isError === true,
		details: r.details,
	};
}

function bashExecutionOf(u: unknown): Message | undefined {
	const bash = BashExecutionCodec.decode(u);
	if (E.isLeft(bash)) return undefined;
	const b = bash.right;
	const exitCode = typeof b.exitCode === "number" ? b.exitCode : null;
	return { role: "bashExecution", command: b.command, output: b.output, exitCode, cancelled: b.cancelled === true };
}

/** The message an entry holds, if it is a message entry Longhaul reads. */
export function messageOf(entry: Entry): Message | undefined {
	return entry.type === "message" ? decodeMessage(entry.raw.message) : undefined;
}

/**
 * The message an entry holds as written, when it says its role is `role`: a look that decodes nothing, so a reader
 * decodes only the entries that can be what it wants. Only a message written with a role decodes as one of that
 * role, and only `messageOf` says whether it does.
 */
export function writtenAs(entry: Entry, role: Message["role"]): Readonly<Record<string, unknown>> | undefined {
	const message = entry.raw.message;
	return isRecord(message) && message.role === role ? message : undefined;
}

/** A user message on the branch with its stable ref `u<n>`. */
export interface UserMessage {
	readonly ref: string;
	readonly entryId: string;
	readonly text: string;
}

/**
 * The user messages of a branch, each with its entry's place in `entries`, numbered `u1`, `u2`, … from the start of
 * the session, each read when it is asked for: a reader that stops at the one it wants reads no further. Only an entry
 * whose message says it is a user's is decoded (`writtenAs`).
 */
export function* eachUserMessageAt(entries: readonly Entry[]): Generator<readonly [number, UserMessage]> {
	let count = 0;
	for (const [at, entry] of entries.entries()) {
		if (writtenAs(entry, "user") === undefined) continue;
		const message = messageOf(entry);
		if (message?.role === "user") yield [at, { ref: `u${++count}`, entryId: entry.id, text: message.text }];
	}
}

/** The user messages of a branch, numbered as `eachUserMessageAt` numbers them, each read when it is asked for. */
export function* eachUserMessage(entries: readonly Entry[]): Generator<UserMessage> {
	for (const [, message] of eachUserMessageAt(entries)) yield message;
}

/** The user messages of a branch, numbered `u1`, `u2`, … from the start of the session. */
export function userMessages(entries: readonly Entry[]): UserMessage[] {
	return Array.from(eachUserMessage(entries));
}

import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { Entry } from "../../events/index.js";
import { keptStart } from "./span.js";

// Where pi 0.73.1 cuts a branch when it compacts (`prepareCompaction` → `findCutPoint` in its compaction.ts), so a
// preview keeps what pi would keep without importing pi (its compaction module costs seconds to load). pi's own
// functions are the oracle in the tests.

/** pi's default `compaction.keepRecentTokens`. */
export const PI_KEEP_RECENT_TOKENS = 20_000;

const TextBlock = t.type({ type: t.literal("text"), text: t.string });
const ThinkingBlock = t.type({ type: t.literal("thinking"), thinking: t.string });
const ToolCallBlock = t.type({ type: t.literal("toolCall"), name: t.string, arguments: t.unknown });
const ImageBlock = t.type({ type: t.literal("image") });
const Role = t.type({ role: t.string });
const Content = t.type({ content: t.union([t.string, t.array(t.unknown)]) });
const Bash = t.type({ command: t.string, output: t.string });
const Summary = t.type({ summary: t.string });

/** The characters of text blocks (and 4,800 for each image where `images`), as pi counts a content list. */
function contentChars(message: unknown, images: boolean): number {
	const decoded = Content.decode(message);
	if (E.isLeft(decoded)) return 0;
	const content = decoded.right.content;
	if (typeof content === "string") return content.length;
	let chars = 0;
	for (const block of content) {
		if (TextBlock.is(block)) chars += block.text.length;
		else if (images && ImageBlock.is(block)) chars += 4800;
	}
	return chars;
}

function assistantChars(message: unknown): number {
	const decoded = Content.decode(message);
	if (E.isLeft(decoded) || typeof decoded.right.content === "string") return 0;
	let chars = 0;
	for (const block of decoded.right.content) {
		if (TextBlock.is(block)) chars += block.text.length;
		else if (ThinkingBlock.is(block)) chars += block.thinking.length;
		else if (ToolCallBlock.is(block)) chars += block.name.length + (JSON.stringify(block.arguments) ?? "").length;
	}
	return chars;
}

function roleOf(message: unknown): string | undefined {
	const decoded = Role.decode(message);
	return E.isRight(decoded) ? decoded.right.role : undefined;
}

/**
 * pi's `estimateTokens` of a message entry's message: its characters over 4, rounded up; 0 for a shape it lacks.
 * Exported for tests.
 */
export function estimateTokens(message: unknown): number {
	const chars = (): number => {
		switch (roleOf(message)) {
			case "user":
				return contentChars(message, false);
			case "assistant":
				return assistantChars(message);
			case "custom":
			case "toolResult":
				return contentChars(message, true);
			case "bashExecution": {
				const bash = Bash.decode(message);
				return E.isRight(bash) ? bash.right.command.length + bash.right.output.length : 0;
			}
			case "branchSummary":
			case "compactionSummary": {
				const summary = Summary.decode(message);
				return E.isRight(summary) ? summary.right.summary.length : 0;
			}
			default:
				return 0;
		}
	};
	return Math.ceil(chars() / 4);
}

const CUT_ROLES: ReadonlySet<string> = new Set([
	"bashExecution",
	"custom",
	"branchSummary",
	"compactionSummary",
	"user",
	"assistant",
]);

/** pi never cuts at a tool result (it must follow its call); any other message may start the kept window. */
function isCutPoint(entry: Entry): boolean {
	if (entry.type === "branch_summary" || entry.type === "custom_message") return true;
	const role = entry.type === "message" ? roleOf(entry.raw.message) : undefined;
	return role !== undefined && CUT_ROLES.has(role);
}

/**
 * The id of the entry pi 0.73.1 keeps from when it compacts `branch` keeping about `keepRecentTokens`: walking
 * back from the newest message to where the tokens reach the budget, at the next place it may cut, then back over
 * entries that are no messages. Undefined where pi would not compact (the branch ends in a compaction, or there is
 * nothing after the newest compaction's kept entry).
 */
export function piCut(branch: readonly Entry[], keepRecentTokens: number): string | undefined {
	if (branch.length === 0 || branch.at(-1)?.type === "compaction") return undefined;
	const start = keptStart(branch);
	const cutPoints: number[] = [];
	for (let i = start; i < branch.length; i++) {
		const entry = branch[i];
		if (entry !== undefined && isCutPoint(entry)) cutPoints.push(i);
	}
	let cut = cutPoints[0] ?? start;
	let tokens = 0;
	for (let i = branch.length - 1; i >= start; i--) {
		const entry = branch[i];
		if (entry?.type !== "message") continue;
		tokens += estimateTokens(entry.raw.message);
		if (tokens >= keepRecentTokens) {
			cut = cutPoints.find((c) => c >= i) ?? cut;
			break;
		}
	}
	while (cut > start) {
		const previous = branch[cut - 1]?.type;
		if (previous === "compaction" || previous === "message") break;
		cut--;
	}
	return branch[cut]?.id;
}

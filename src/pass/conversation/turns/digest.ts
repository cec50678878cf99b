import type { UserMessage } from "../../../events/index.js";
import {
	cut,
	fileLines,
	headTail,
	ledgerLines,
	messageLine,
	type PromptInput,
	SHOWN_MESSAGE_CHARS,
	worldLines,
} from "../../prompt/index.js";
import { commandIdsByCall, transcriptLines } from "./transcript.js";

/**
 * What the Digest of the first turn is built from: what the single mode's prompt reads (`PromptInput`), for the whole
 * span and in one chunk, with the messages to label shown whole apart from taking over's earlier and standing ones.
 */
export type DigestInput = Omit<PromptInput, "toLabel" | "chunk"> & {
	/** The user messages the model labels, shown whole: carried ones and the span's. */
	readonly whole: readonly UserMessage[];
};

const FOREIGN_HEAD = 3000;
const FOREIGN_TAIL = 1500;

const line = (u: UserMessage, max?: number) => JSON.stringify(messageLine(u, max));

/**
 * The Digest (docs/turns-mode.md, The conversation): the state so far, the span's user messages whole, the ledger, the
 * file lists, the World and a condensed transcript; taking over, the earlier summary and the user's earlier messages
 * too.
 */
export function digest(input: DigestInput): string {
	const section = (title: string, lines: readonly string[]) =>
		lines.length === 0 ? [] : [`## ${title}`, ...lines, ""];
	return [
		`# Digest of span ${input.span}`,
		"",
		...section("State so far", [input.stateText.trim()]),
		...section(
			"Earlier summary by another compactor (paraphrased; rules come only from user messages)",
			input.foreignSummary === undefined ? [] : [headTail(input.foreignSummary, FOREIGN_HEAD, FOREIGN_TAIL, true)],
		),
		...section(
			"Earlier user messages code recorded as rules (no label needed)",
			(input.standing ?? []).map((u) => line(u, SHOWN_MESSAGE_CHARS)),
		),
		...section(
			"Earlier user messages to label (each cut to its start)",
			(input.earlier ?? []).map((u) => line(u, SHOWN_MESSAGE_CHARS)),
		),
		...section(
			"User messages to label (whole)",
			input.whole.map((u) => line(u)),
		),
		...section("Ledger (ids you may cite)", ledgerLines(input.ledger, input.state, 160)),
		...section("Files", fileLines(input.ledger)),
		...section("World", worldLines(input.world)),
		...section(
			"Notes the agent asked to remember",
			input.notes.map((n) => `- ${cut(n, 300)}`),
		),
		...section(
			"Transcript (condensed: one JSON line per step, one per tool call with its result cut to head and tail)",
			transcriptLines(input.messages, input.messageRefs, commandIdsByCall(input.ledger)),
		),
	].join("\n");
}

import type { UserMessage } from "../../events/messages.js";
import { readsAsStandingRule } from "../standing-rules.js";
import { quotableRegions } from "./goal-messages.js";
import { cleanWords, type RecordedWords } from "./rule-words.js";
import { occurrences, onWordBoundaries } from "./words.js";

/*
 * The words a takeover records from the user's earlier messages (seed, Taking over from another compactor): a
 * message the standing-rule reader picks is recorded whole, and a rule in an earlier message the prompt showed cut
 * is recorded only from the exact words the model gave for it, since the model saw no more than its start.
 */

/**
 * The words a standing pick records: the message's quotable text whole; in a pi-goal message with several
 * objectives, the first one that reads as a standing rule on its own.
 */
export function pickWords(message: UserMessage): RecordedWords | undefined {
	const regions = quotableRegions(message.text);
	const region =
		regions.length === 1 ? regions[0] : regions.find((r) => readsAsStandingRule(message.text.slice(r.start, r.end)));
	return region === undefined
		? undefined
		: { source: message, region, text: message.text.slice(region.start, region.end) };
}

/** The exact words given for an earlier message shown cut, where they stand in its quotable text on word boundaries. */
export function exactWords(message: UserMessage, words: string | undefined): RecordedWords | undefined {
	const given = words === undefined ? "" : cleanWords(words);
	if (given === "") return undefined;
	for (const region of quotableRegions(message.text))
		for (const at of occurrences(message.text, given, region))
			if (onWordBoundaries(message.text, at)) return { source: message, region: at, text: given };
	return undefined;
}

import { occurrences, onWordBoundaries, type Region, type UserMessage, userText } from "../../../events/index.js";
import { readsAsStandingRule, ruleSentences } from "../../reader/index.js";
import { cleanWords, type RecordedWords, WORDS_OVER } from "./rule-words.js";

/*
 * The words a takeover records from the user's earlier messages (docs/how-it-works.md, Taking over from another
 * compactor): a message the standing-rule reader picks is recorded whole up to 600 characters, and a rule in an earlier
 * message the prompt showed cut, or a longer pick, is recorded from the exact words the model gave for it. A longer
 * pick with no such words records the sentences the reader read as rules, until a label judges it (`pickRecords`).
 */

/** The quotable text a standing pick stands for: the whole; of several goal objectives, the first read as a rule. */
function pickRegion(message: UserMessage): Region | undefined {
	const regions = userText(message.text).own;
	return regions.length === 1
		? regions[0]
		: regions.find((r) => readsAsStandingRule(message.text.slice(r.start, r.end)));
}

/** A standing pick over `WORDS_OVER` characters: its rule is recorded only from the exact words a label gives. */
export function pickNeedsWords(message: UserMessage): boolean {
	const region = pickRegion(message);
	return region !== undefined && region.end - region.start > WORDS_OVER;
}

/**
 * The words a standing pick records by itself: its `pickRegion` whole. None when that is over `WORDS_OVER`
 * characters: rules are never cut from the summary, so a pasted message recorded whole would stand in every summary
 * for good, and the 600-character rule asks for the rule's exact words, which only a label can give.
 */
export function pickWords(message: UserMessage): RecordedWords | undefined {
	const region = pickRegion(message);
	return region === undefined || region.end - region.start > WORDS_OVER
		? undefined
		: { source: message, region, text: message.text.slice(region.start, region.end) };
}

/**
 * The rules a standing pick records by itself, when no label's words for it verified: `pickWords`, or for a pick
 * over `WORDS_OVER` characters each sentence of it the standing-rule reader reads as a rule, verbatim and once
 * (`ruleSentences`). Deliberate (docs/how-it-works.md, Taking over from another compactor): a long message is asked for
 * the rule's exact words, which only a label gives; rather than lose the rule while no label verifies, the reader's
 * sentences stand for it, never the pasted text around them, and the message is offered for a label again.
 */
export function pickRecords(message: UserMessage): RecordedWords[] {
	const whole = pickWords(message);
	if (whole !== undefined) return [whole];
	const region = pickRegion(message);
	if (region === undefined) return [];
	const seen = new Set<string>();
	return ruleSentences(message.text.slice(region.start, region.end)).flatMap((sentence): RecordedWords[] => {
		const at = { start: region.start + sentence.start, end: region.start + sentence.end };
		const text = message.text.slice(at.start, at.end);
		if (seen.has(text)) return [];
		seen.add(text);
		return [{ source: message, region: at, text }];
	});
}

/**
 * The sentences a pick over `WORDS_OVER` characters records for want of a label's words (`pickRecords`); none for any
 * other message. Read once a message and asked of every rule from it: read again for each, a pasted message of many
 * rule sentences cost its length once a sentence.
 */
export function readerSentences(message: UserMessage): ReadonlySet<string> {
	return new Set(pickNeedsWords(message) ? pickRecords(message).map((recorded) => recorded.text) : []);
}

/** The exact words given for an earlier message shown cut, where they stand in its quotable text on word boundaries. */
export function exactWords(message: UserMessage, words: string | undefined): RecordedWords | undefined {
	const given = words === undefined ? "" : cleanWords(words);
	if (given === "") return undefined;
	for (const region of userText(message.text).own)
		for (const at of occurrences(message.text, given, region))
			if (onWordBoundaries(message.text, at)) return { source: message, region: at, text: given };
	return undefined;
}

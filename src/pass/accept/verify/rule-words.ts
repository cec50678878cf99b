import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";
import {
	looseAnchors,
	looseFinder,
	onWordBoundaries,
	type Region,
	type UserMessage,
	userText,
} from "../../../events/index.js";

/** A message of at most this many characters is recorded whole, whatever words the model gave. Exported for tests. */
export const WHOLE_UP_TO = 300;
/** A message over this many characters is recorded only from the rule's exact words. */
export const WORDS_OVER = 600;

/** The words a rule records: a stretch of one user message, copied by code. */
export interface RecordedWords {
	readonly source: UserMessage;
	readonly region: Region;
	readonly text: string;
}

/** Why a rule label records nothing: a defect the model can fix, or nothing to record at all. */
export type WordsRefusal =
	| { readonly kind: "defect"; readonly code: "words-missing" | "words-inside-word" | "words-unwritten" }
	| { readonly kind: "drop"; readonly reason: "empty-message" };

/** The words of `source` at `region`, as recorded. */
function recordedIn(source: UserMessage, region: Region): RecordedWords {
	return { source, region, text: source.text.slice(region.start, region.end) };
}

/** The model's words with surrounding whitespace and one pair of wrapping quote marks taken off. */
export function cleanWords(words: string): string {
	const trimmed = words.trim();
	const wrapped = /^(["'`\u201c\u201e\u00ab])([\s\S]*)(["'`\u201d\u201c\u00bb])$/.exec(trimmed);
	return wrapped !== null && (wrapped[2] ?? "").trim() !== "" ? (wrapped[2] ?? "").trim() : trimmed;
}

/**
 * Where the words stand in a message's quotable text, a run of whitespace or a quote mark matching any other (a
 * model retypes them): on word boundaries if they can, else anywhere. The region is always the user's characters.
 */
function whereWordsStand(message: UserMessage, words: string): { readonly clean?: Region; readonly any?: Region } {
	let any: Region | undefined;
	const find = looseFinder(words);
	for (const region of userText(message.text).own) {
		for (const at of find(message.text, region)) {
			if (onWordBoundaries(message.text, at)) return { clean: at };
			any ??= at;
		}
	}
	return any === undefined ? {} : { any };
}

/**
 * The newest user message whose quotable text holds the words on word boundaries. A message without one of the
 * words' `looseAnchors` is passed over unread: a quote no user wrote is asked of every message of a long branch.
 */
function newestHolding(
	branch: readonly UserMessage[],
	words: string,
): { message: UserMessage; at: Region } | undefined {
	const anchors = looseAnchors(words);
	for (let i = branch.length - 1; i >= 0; i--) {
		const message = branch[i];
		const holds = message !== undefined && anchors.every((anchor) => message.text.includes(anchor));
		const at = holds ? whereWordsStand(message, words).clean : undefined;
		if (message !== undefined && at !== undefined) return { message, at };
	}
	return undefined;
}

/** A message recorded without usable words: whole up to 600 characters, else the model must give the words. */
function wholeMessage(
	message: UserMessage,
	code: "words-missing" | "words-inside-word",
): Either<WordsRefusal, RecordedWords> {
	const regions = userText(message.text).own;
	const [only] = regions;
	if (only === undefined) return E.left({ kind: "drop", reason: "empty-message" });
	if (regions.length > 1 || only.end - only.start > WORDS_OVER) return E.left({ kind: "defect", code });
	return E.right(recordedIn(message, only));
}

/** A message whose quotable text is one stretch of at most `WHOLE_UP_TO` characters, recorded whole. */
function shortWhole(message: UserMessage): RecordedWords | undefined {
	const regions = userText(message.text).own;
	const [only] = regions;
	return regions.length === 1 && only !== undefined && only.end > only.start && only.end - only.start <= WHOLE_UP_TO
		? recordedIn(message, only)
		: undefined;
}

/** Words found in a message: the whole message when it is short, else exactly the words. */
function fromWords(message: UserMessage, at: Region): RecordedWords {
	const regions = userText(message.text).own;
	const holding = regions.find((r) => r.start <= at.start && at.end <= r.end);
	if (regions.length === 1 && holding !== undefined && holding.end - holding.start <= WHOLE_UP_TO) {
		return recordedIn(message, holding);
	}
	return recordedIn(message, at);
}

/**
 * The words a `rule` label records, copied from the user's text: the length rules (docs/how-it-works.md, One pass),
 * words that start or end inside a word sent back, a quote cited under the wrong message bound to the newest message
 * that holds it, and text no user wrote refused. With `unwrittenWhole` (single mode), a message of at most
 * `WHOLE_UP_TO` characters whose words stand nowhere is recorded whole, as it would be with any words it holds,
 * deliberately (docs/contracts.md, The diff answer): the label is the model's judgement and the words only a quote.
 * Words are found with whitespace runs and quote marks retyped (`looseFinder`). `branch` is every user message of
 * the branch, oldest first.
 */
export function ruleWords(
	message: UserMessage,
	words: string | undefined,
	branch: readonly UserMessage[],
	unwrittenWhole = false,
): Either<WordsRefusal, RecordedWords> {
	const given = words === undefined ? "" : cleanWords(words);
	if (given === "") return wholeMessage(message, "words-missing");
	const here = whereWordsStand(message, given);
	if (here.clean !== undefined) return E.right(fromWords(message, here.clean));
	if (here.any !== undefined) return wholeMessage(message, "words-inside-word");
	const elsewhere = newestHolding(branch, given);
	if (elsewhere !== undefined) return E.right(fromWords(elsewhere.message, elsewhere.at));
	const short = unwrittenWhole ? shortWhole(message) : undefined;
	return short === undefined ? E.left({ kind: "defect", code: "words-unwritten" }) : E.right(short);
}

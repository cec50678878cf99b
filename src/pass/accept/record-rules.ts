import * as E from "fp-ts/lib/Either.js";
import type { Event, UserMessage } from "../../events/index.js";
import type { Rule } from "../../reducers/index.js";
import { defect, type Label } from "../answer/index.js";
import { applyLift } from "./judge-lifts.js";
import { decide, type Labeling } from "./labeling.js";
import { exactWords, pickNeedsWords, pickRecords, pickWords, readerSentences } from "./verify/earlier-words.js";
import { type RecordedWords, ruleWords, WORDS_OVER, type WordsRefusal } from "./verify/rule-words.js";

// The recording of rules: the words a `rule` label records, copied and checked by code; the standing picks a
// takeover records by itself; and the withdrawal of a reopened message's earlier rules when it is judged again.

function wordsNote(code: "words-missing" | "words-inside-word" | "words-unwritten", msg: UserMessage): string {
	switch (code) {
		case "words-missing":
			return `${msg.ref} is over ${WORDS_OVER} characters (or holds several goal objectives): give the rule's exact words in "words"`;
		case "words-inside-word":
			return `${msg.ref}: "words" start or end inside a word: copy whole words from the message`;
		case "words-unwritten":
			return `${msg.ref}: "words" stand in no user message: copy the user's words exactly`;
		default: {
			const unknownCode: never = code;
			return unknownCode;
		}
	}
}

/** Why a rule label records nothing; an earlier message shown cut, or a long pick, records only exact words, or nothing. */
type Refusal = WordsRefusal | { readonly kind: "drop"; readonly reason: "excerpt-words" | "pick-words" };

/**
 * The words a rule label records: exact words for a cut earlier message or a standing pick over 600 characters
 * (`pickNeedsWords`); a shorter standing pick whole when words fail.
 */
function recordedWords(
	labeling: Labeling,
	msg: UserMessage,
	words: string | undefined,
): E.Either<Refusal, RecordedWords> {
	const { ground } = labeling;
	const longPick = ground.standing.has(msg.ref) && pickNeedsWords(msg);
	if (ground.excerpted.has(msg.ref) || longPick) {
		const exact = exactWords(msg, words);
		if (exact !== undefined) return E.right(exact);
		return E.left({ kind: "drop", reason: longPick ? "pick-words" : "excerpt-words" });
	}
	const found = ruleWords(msg, words, ground.branch, ground.unwrittenWhole);
	const whole = E.isLeft(found) && ground.standing.has(msg.ref) ? pickWords(msg) : undefined;
	return whole === undefined ? found : E.right(whole);
}

/**
 * A rule this answer gives, with the id the reducer gives it as it applies the rule; none when the reducer adds
 * nothing (the same words from the same message are in force, or were lifted).
 */
function addRule(labeling: Labeling, text: string, source: string): void {
	const { state } = labeling.decided;
	const count = state.rules.length;
	labeling.decided.apply({ type: "rule-added", data: { words: text, source } });
	const added = state.rules.length > count ? state.rules.at(-1) : undefined;
	if (added !== undefined)
		labeling.tally.events.push({ type: "rule-added", data: { id: added.id, words: text, source } });
}

/**
 * A `rule` label: its words copied by code, then its lifts, then the rule itself; false when its words are a defect
 * the model must fix.
 */
export function applyRuleLabel(
	labeling: Labeling,
	msg: UserMessage,
	label: Label & { kind: "rule" },
	words: string | undefined,
): boolean {
	const recorded = recordedWords(labeling, msg, words);
	if (E.isLeft(recorded)) {
		const refusal = recorded.left;
		if (refusal.kind === "drop") {
			labeling.tally.dropped.push({ item: msg.ref, reason: refusal.reason });
			if (refusal.reason === "pick-words") recordPick(labeling, msg, false);
			return true;
		}
		labeling.tally.defects.push(defect(refusal.code, wordsNote(refusal.code, msg), msg.ref));
		return false;
	}
	for (const target of label.lifts) applyLift(labeling, msg, label, target);
	const { text, source } = recorded.right;
	// Words of its own replace the sentences an earlier pass recorded from the message for want of them.
	if (source.ref === msg.ref) {
		let sentences: ReadonlySet<string> | undefined;
		const readerSentence = (held: Rule) => {
			sentences ??= readerSentences(msg);
			return sentences.has(held.text);
		};
		withdrawOwn(labeling, msg, (held) => held.text !== text && readerSentence(held));
	}
	addRule(labeling, text, source.ref);
	if (label.lifts.length === 0 && source.ref === msg.ref) labeling.tally.recorded.push({ msg, words: recorded.right });
	return true;
}

/**
 * A standing pick left unlabeled or labeled `not a rule`, or over 600 characters with no exact words: recorded by
 * itself (`pickRecords`), in message order, unless a rule from its message is already in force or was lifted (an
 * earlier pass judged it). Only an unlabeled pick is asked whether it replaces an earlier rule: a reply can only add
 * lifts to a `rule`.
 */
export function recordPick(labeling: Labeling, msg: UserMessage, unlabeled: boolean): void {
	if (labeling.decided.ruledFrom(msg.ref)) return;
	for (const words of pickRecords(msg)) {
		addRule(labeling, words.text, msg.ref);
		if (unlabeled) labeling.tally.recorded.push({ msg, words });
	}
}

/**
 * A message offered again and now labeled other than `rule`: the rules in force an earlier pass recorded from it
 * (a standing pick recorded while no answer verified) are withdrawn, as the model now judges it; `which` of them,
 * for a `rule` label.
 */
export function withdrawOwn(labeling: Labeling, msg: UserMessage, which: (held: Rule) => boolean = () => true): void {
	const { ground } = labeling;
	if (!ground.reopened.has(msg.ref)) return;
	const earlierOwn = labeling.decided.state.rules.filter(
		(r) => ground.shown.has(r.id) && r.source === msg.ref && which(r),
	);
	for (const held of earlierOwn.reverse()) {
		const event: Event = { type: "rule-lifted", data: { target: held.id, by: msg.ref } };
		decide(labeling, event);
	}
}

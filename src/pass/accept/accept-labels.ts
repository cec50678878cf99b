import * as E from "fp-ts/lib/Either.js";
import type { Event, UserMessage, Withdrawing } from "../../events/index.js";
import { contentWords, idNumber, ownWords, readWithdrawal, withdrawsWords } from "../../events/index.js";
import { evolve, initialState, type Rule, type State } from "../../reducers/index.js";
import type { RawLabel } from "../answer/index.js";
import {
	type Defect,
	type Dropped,
	type DropReason,
	defect,
	formatLabel,
	LABEL_FORMS,
	type Label,
	liftTargets,
	parseLabel,
	type Target,
} from "../answer/index.js";
import { type Question, replacedQuestion, replaceQuestion, type ShownRule, unplacedQuestion } from "./questions.js";
import { exactWords, isReaderSentence, pickNeedsWords, pickRecords, pickWords } from "./verify/earlier-words.js";
import { type RecordedWords, ruleWords, WORDS_OVER, type WordsRefusal } from "./verify/rule-words.js";

/** What the labels are judged against; the takeover's sets are empty outside a takeover. */
export interface LabelContext {
	/** The state so far. */
	readonly state: State;
	/** The messages that may be labeled: all need a label but the standing picks. */
	readonly toLabel: readonly UserMessage[];
	/** Every user message of the branch, oldest first: a quote binds to the newest that holds it. */
	readonly branch: readonly UserMessage[];
	/** Takeover: earlier messages the standing-rule reader picked; each needs no label and is recorded unless labeled `one-off` or a lift. */
	readonly standing?: ReadonlySet<string>;
	/** Takeover: earlier messages the prompt showed cut to their start; a rule there records only the exact words given. */
	readonly excerpted?: ReadonlySet<string>;
	/** Messages offered again (carried, or earlier ones in a takeover): a label other than `rule` withdraws their rules in force. */
	readonly reopened?: ReadonlySet<string>;
	/**
	 * Single mode: a `rule` on a message of at most 300 characters whose words stand in no user message records the
	 * message whole instead of sending the words back (a deliberate exception; turns mode keeps its gate).
	 */
	readonly unwrittenWhole?: boolean;
}

/** What the labels of one answer come to. */
export interface LabelsOutcome {
	/** The events to append, in order: per labeled message its lifts and its rule. */
	readonly events: readonly Event[];
	/** Format defects for the retry note (one line each); the answer's events stand meanwhile. */
	readonly defects: readonly Defect[];
	/** Lift questions to ask in one more call once the answer is settled (always empty when `final`). */
	readonly questions: readonly Question[];
	/** Items left out, with a reason code. */
	readonly dropped: readonly Dropped[];
	/** The messages of `toLabel` judged: they got a usable label, or are standing picks recorded as rules. */
	readonly labeled: readonly string[];
	/** The labels as applied, in canonical form, for the span record. */
	readonly labels: readonly { readonly msg: string; readonly label: string }[];
	/** The messages with a lift of a rule that a narrowing from another message replaced, asked or dropped. */
	readonly replaced: readonly string[];
}

/** A rule label that recorded its own message's words, kept to ask whether it replaces an earlier rule. */
interface Recorded {
	readonly msg: UserMessage;
	readonly words: RecordedWords;
}

/** The mutable bookkeeping of one application of the labels; local to `acceptLabels`. */
interface Work {
	readonly final: boolean;
	readonly branch: readonly UserMessage[];
	readonly standing: ReadonlySet<string>;
	readonly excerpted: ReadonlySet<string>;
	readonly reopened: ReadonlySet<string>;
	readonly unwrittenWhole: boolean;
	/**
	 * The rules of the state (`rulesOf`) with the events decided so far applied by the reducer: the rules in force
	 * and lifted, and the ids of the rules this answer gives, are read from it.
	 */
	state: State;
	/** The ids of the rules in force before this answer, which the prompt showed; a rule it gives is named by its message. */
	readonly shown: ReadonlySet<string>;
	readonly events: Event[];
	readonly defects: Defect[];
	readonly questions: Question[];
	readonly dropped: Dropped[];
	readonly labeled: string[];
	readonly labels: { msg: string; label: string }[];
	readonly replaced: string[];
	readonly recorded: Recorded[];
	/** Each message's own words and each rule's content words, read once: the lift check meets them many times. */
	readonly own: Map<string, { readonly text: string; readonly read: Withdrawing }>;
	readonly ruleWords: Map<string, ReadonlySet<string>>;
}

/** A message's own words, read once per message. */
function own(work: Work, msg: UserMessage): { readonly text: string; readonly read: Withdrawing } {
	let found = work.own.get(msg.ref);
	if (found === undefined) {
		const text = ownWords(msg.text);
		found = { text, read: readWithdrawal(text) };
		work.own.set(msg.ref, found);
	}
	return found;
}

/** A rule's content words, read once per rule text. */
function wordsOf(work: Work, ruleText: string): ReadonlySet<string> {
	let words = work.ruleWords.get(ruleText);
	if (words === undefined) {
		words = contentWords(ruleText);
		work.ruleWords.set(ruleText, words);
	}
	return words;
}

/** The store's lift check: the whole message, in its own words, withdraws the rule. */
function passes(work: Work, by: UserMessage, ruleText: string): boolean {
	return withdrawsWords(own(work, by).read, wordsOf(work, ruleText));
}

/** At most this many rules are offered in one question. */
const MAX_CANDIDATES = 3;
/** How many replacements a lift follows to find the rule now standing for the one it names. */
const MAX_CHAIN = 8;

/** A rule the prompt showed is named by its id; one this answer gave, by the message that gave it. */
const nameOf = (work: Work, rule: Rule): string => (work.shown.has(rule.id) ? rule.id : rule.source);
const show = (work: Work, rule: Rule): ShownRule => ({ id: nameOf(work, rule), text: rule.text });
const earlier = (rule: Rule, by: UserMessage): boolean => idNumber(rule.source) < idNumber(by.ref);

/** The newest of `rules` that `name` names, by its id or by the message that gave it. */
function named<R extends Rule>(rules: readonly R[], name: string): R | undefined {
	return rules.findLast((rule) => rule.id === name || rule.source === name);
}

/** Decides an event: it joins the answer's events, and `after` (the reducer's state with it applied) is the state. */
function decide(work: Work, event: Event, after: State): void {
	work.events.push(event);
	work.state = after;
}

/**
 * The state's rules in force and lifted and its counters, and nothing else: all the reducer reads and writes for a
 * rule event. Applied one event at a time to the whole state, the labels took ten times as long on a state of 5,000
 * commands, as the reducer indexes every list the state holds for each batch.
 */
function rulesOf(state: State): State {
	return { ...initialState, rules: state.rules, lifted: state.lifted, next: state.next };
}

/** The state after one more event, as the reducer folds it. */
function applied(state: State, event: Event): State {
	return evolve(state, [{ seq: null, event }]);
}

/** The rule in force that replaced the named one (following narrowings of narrowings), if any. */
function replacement(work: Work, target: Target): Rule | undefined {
	let name = target;
	for (let step = 0; step < MAX_CHAIN; step++) {
		const gone = named(work.state.lifted, name);
		if (gone === undefined) return undefined;
		const narrowing = named(work.state.rules, gone.by);
		if (narrowing !== undefined) return narrowing;
		name = gone.by;
	}
	return undefined;
}

/** Rules this message could withdraw by the store's check, not already named by its label. */
function candidates(work: Work, by: UserMessage, label: Label): Rule[] {
	const targets = liftTargets(label);
	return work.state.rules
		.filter((rule) => earlier(rule, by) && !targets.includes(nameOf(work, rule)) && !targets.includes(rule.source))
		.filter((rule) => passes(work, by, rule.text))
		.slice(0, MAX_CANDIDATES);
}

/** The message's whole text, quoted and pasted passages included, would pass the lift check: its withdrawal is pasted. */
function pastedWithdrawal(work: Work, by: UserMessage, ruleText: string): boolean {
	return withdrawsWords(readWithdrawal(by.text), wordsOf(work, ruleText));
}

/**
 * A lift the store cannot apply as named: asked again with the named rule in force shown (docs/how-it-works.md, One
 * pass), and with any rules the message may withdraw. A withdrawal only pasted or quoted raises no question
 * (docs/how-it-works.md, One pass), nor does a target that names no rule in force, unless rules the message may
 * withdraw exist. Final, it is dropped.
 */
function unplaced(work: Work, by: UserMessage, label: Label, target: Target, reason: DropReason, rule?: Rule): void {
	const offered = work.final ? [] : candidates(work, by, label);
	const showNamed = rule !== undefined && !work.final && !pastedWithdrawal(work, by, rule.text);
	if (offered.length === 0 && !showNamed) {
		work.dropped.push({ item: `${by.ref}:${target}`, reason });
		return;
	}
	const shownNamed = rule === undefined ? undefined : show(work, rule);
	const shownOffered = offered.map((offer) => show(work, offer));
	work.questions.push(
		unplacedQuestion(by.ref, formatLabel(label), target, shownNamed, shownOffered, label.kind === "rule"),
	);
}

/**
 * Applies one lift if the store's check passes on the rule the reducer lifts for it; otherwise asks or drops. A
 * target this label already lifted is done.
 */
function lift(work: Work, by: UserMessage, label: Label, target: Target): void {
	const item = `${by.ref}:${target}`;
	if (target === by.ref) work.dropped.push({ item, reason: "self-lift" });
	else if (target.startsWith("u") && idNumber(target) > idNumber(by.ref)) {
		work.dropped.push({ item, reason: "later-target" });
	} else if (!liftHeld(work, by, label, target) && named(work.state.lifted, target)?.by !== by.ref) {
		liftReplaced(work, by, label, target);
	}
}

/**
 * The reducer finds a rule in force for the target: lifted when it came from an earlier message and the store's
 * check passes. False when the target names no rule in force.
 */
function liftHeld(work: Work, by: UserMessage, label: Label, target: Target): boolean {
	const event: Event = { type: "rule-lifted", data: { target, by: by.ref } };
	const after = applied(work.state, event);
	const taken = after.lifted.length > work.state.lifted.length ? after.lifted.at(-1) : undefined;
	if (taken === undefined) return false;
	if (!earlier(taken, by)) {
		work.dropped.push({ item: `${by.ref}:${target}`, reason: taken.source === by.ref ? "self-lift" : "later-target" });
	} else if (!passes(work, by, taken.text)) unplaced(work, by, label, target, "lift-check", taken);
	else decide(work, event, after);
	return true;
}

/** The named rule is not in force: if a narrowing replaced it, asked again with the narrowing shown, by name. */
function liftReplaced(work: Work, by: UserMessage, label: Label, target: Target): void {
	const narrowing = replacement(work, target);
	if (narrowing === undefined || narrowing.source === by.ref) {
		unplaced(work, by, label, target, "unknown-target");
		return;
	}
	work.replaced.push(by.ref);
	if (work.final || !passes(work, by, narrowing.text)) unplaced(work, by, label, target, "replaced-target");
	else {
		const shown = show(work, narrowing);
		work.questions.push(replacedQuestion(by.ref, formatLabel(label), target, shown, label.kind === "rule"));
	}
}

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
function recordedWords(work: Work, msg: UserMessage, words: string | undefined): E.Either<Refusal, RecordedWords> {
	const longPick = work.standing.has(msg.ref) && pickNeedsWords(msg);
	if (work.excerpted.has(msg.ref) || longPick) {
		const exact = exactWords(msg, words);
		if (exact !== undefined) return E.right(exact);
		return E.left({ kind: "drop", reason: longPick ? "pick-words" : "excerpt-words" });
	}
	const found = ruleWords(msg, words, work.branch, work.unwrittenWhole);
	const whole = E.isLeft(found) && work.standing.has(msg.ref) ? pickWords(msg) : undefined;
	return whole === undefined ? found : E.right(whole);
}

/**
 * A rule this answer gives, with the id the reducer gives it; none when the reducer adds nothing (the
 * same words from the same message are in force, or were lifted).
 */
function give(work: Work, text: string, source: string): void {
	const after = applied(work.state, { type: "rule-added", data: { words: text, source } });
	const added = after.rules.length > work.state.rules.length ? after.rules.at(-1) : undefined;
	if (added !== undefined) decide(work, { type: "rule-added", data: { id: added.id, words: text, source } }, after);
}

/** A `rule` label: its words copied by code, then its lifts, then the rule itself. */
function rule(work: Work, msg: UserMessage, label: Label & { kind: "rule" }, words: string | undefined): boolean {
	const recorded = recordedWords(work, msg, words);
	if (E.isLeft(recorded)) {
		const refusal = recorded.left;
		if (refusal.kind === "drop") {
			work.dropped.push({ item: msg.ref, reason: refusal.reason });
			if (refusal.reason === "pick-words") recordPick(work, msg, false);
			return true;
		}
		work.defects.push(defect(refusal.code, wordsNote(refusal.code, msg), msg.ref));
		return false;
	}
	for (const target of label.lifts) lift(work, msg, label, target);
	const { text, source } = recorded.right;
	// Words of its own replace the sentences an earlier pass recorded from the message for want of them.
	if (source.ref === msg.ref) withdrawOwn(work, msg, (held) => held.text !== text && isReaderSentence(msg, held.text));
	give(work, text, source.ref);
	if (label.lifts.length === 0 && source.ref === msg.ref) work.recorded.push({ msg, words: recorded.right });
	return true;
}

/**
 * A standing pick left unlabeled or labeled `not a rule`, or over 600 characters with no exact words: recorded by
 * itself (`pickRecords`), in message order, unless a rule from its message is already in force or was lifted (an
 * earlier pass judged it). Only an unlabeled pick is asked whether it replaces an earlier rule: a reply can only add
 * lifts to a `rule`.
 */
function recordPick(work: Work, msg: UserMessage, unlabeled: boolean): void {
	const fromMsg = (rule: Rule) => rule.source === msg.ref;
	const judged = work.state.rules.some(fromMsg) || work.state.lifted.some(fromMsg);
	if (judged) return;
	for (const words of pickRecords(msg)) {
		give(work, words.text, msg.ref);
		if (unlabeled) work.recorded.push({ msg, words });
	}
}

/**
 * A message offered again and now labeled other than `rule`: the rules in force an earlier pass recorded from it
 * (a standing pick recorded while no answer verified) are withdrawn, as the model now judges it; `which` of them,
 * for a `rule` label.
 */
function withdrawOwn(work: Work, msg: UserMessage, which: (held: Rule) => boolean = () => true): void {
	if (!work.reopened.has(msg.ref)) return;
	const earlierOwn = work.state.rules.filter((r) => work.shown.has(r.id) && r.source === msg.ref && which(r));
	for (const held of earlierOwn.reverse()) {
		const event: Event = { type: "rule-lifted", data: { target: held.id, by: msg.ref } };
		decide(work, event, applied(work.state, event));
	}
}

/** Applies one parsed label; false when it is a defect the model must fix (the message stays unlabeled). */
function applyLabel(work: Work, msg: UserMessage, label: Label, words: string | undefined): boolean {
	switch (label.kind) {
		case "rule":
			return rule(work, msg, label, words);
		case "lifts":
			withdrawOwn(work, msg);
			for (const target of label.targets) lift(work, msg, label, target);
			return true;
		case "not-rule":
			// The reader's pick stands: only `one-off` (or a lift) keeps it from being recorded (docs/how-it-works.md,
			// Taking over from another compactor).
			if (work.standing.has(msg.ref)) recordPick(work, msg, false);
			else withdrawOwn(work, msg);
			return true;
		case "one-off":
			withdrawOwn(work, msg);
			return true;
		default: {
			const unknownKind: never = label;
			return unknownKind;
		}
	}
}

/**
 * Once the answer is settled: a `rule` whose own words (quoted passages left out) would pass the lift check
 * against an earlier rule still in force, and whose whole message passes it too, is asked about (at most three
 * rules per message).
 */
function replaceQuestions(work: Work): void {
	for (const { msg, words } of work.recorded) {
		const judged = readWithdrawal(own(work, msg).text.slice(words.region.start, words.region.end));
		const asks = (held: Rule) =>
			earlier(held, msg) && withdrawsWords(judged, wordsOf(work, held.text)) && passes(work, msg, held.text);
		const asked = work.state.rules.filter(asks).slice(0, MAX_CANDIDATES);
		for (const held of asked) work.questions.push(replaceQuestion(msg.ref, { id: held.source, text: held.text }));
	}
}

/**
 * The labels a span's messages got, in message order; the first label for a message wins. A standing pick left
 * unlabeled comes with no label; any other unlabeled message is a defect.
 */
function labelsInOrder(
	work: Work,
	labels: readonly RawLabel[],
	toLabel: readonly UserMessage[],
): { msg: UserMessage; raw: RawLabel | undefined }[] {
	const byRef = new Map(toLabel.map((m) => [m.ref, m]));
	const chosen = new Map<string, RawLabel>();
	for (const raw of labels) {
		if (!byRef.has(raw.msg)) work.dropped.push({ item: raw.msg, reason: "outside-span" });
		else if (chosen.has(raw.msg)) work.dropped.push({ item: raw.msg, reason: "duplicate-label" });
		else chosen.set(raw.msg, raw);
	}
	const ordered: { msg: UserMessage; raw: RawLabel | undefined }[] = [];
	for (const msg of [...toLabel].sort((a, b) => idNumber(a.ref) - idNumber(b.ref))) {
		const raw = chosen.get(msg.ref);
		if (raw === undefined && work.standing.has(msg.ref)) ordered.push({ msg, raw });
		else if (raw === undefined) {
			work.defects.push(defect("unlabeled", `${msg.ref} has no label: give it one of ${LABEL_FORMS}`, msg.ref));
		} else ordered.push({ msg, raw });
	}
	return ordered;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Applies an answer's labels to the rules in force: rule words copied and checked, lifts applied only when the
 * store's check passes, the rest asked about (or dropped when `final`), unlabeled messages as defects but standing
 * picks, which are recorded whole unless labeled `one-off` or a lift.
 */
export function acceptLabels(ctx: LabelContext, labels: readonly RawLabel[], final: boolean): LabelsOutcome {
	const work = startWork(ctx, final);
	for (const { msg, raw } of labelsInOrder(work, labels, ctx.toLabel)) {
		if (raw === undefined) {
			recordPick(work, msg, true);
			work.labeled.push(msg.ref);
			continue;
		}
		const parsed = parseLabel(raw.label);
		if (E.isLeft(parsed)) {
			work.defects.push(defect("label-invalid", `${msg.ref}: ${parsed.left}`, msg.ref));
			continue;
		}
		if (!applyLabel(work, msg, parsed.right, raw.words)) continue;
		work.labeled.push(msg.ref);
		work.labels.push({ msg: msg.ref, label: formatLabel(parsed.right) });
	}
	if (!final) replaceQuestions(work);
	const { events, defects, questions, dropped, labeled, replaced } = work;
	return { events, defects, questions, dropped, labeled, labels: work.labels, replaced };
}

/** The bookkeeping before the first label: the state's rules, nothing decided yet. */
function startWork(ctx: LabelContext, final: boolean): Work {
	return {
		final,
		branch: ctx.branch,
		standing: ctx.standing ?? NONE,
		excerpted: ctx.excerpted ?? NONE,
		reopened: ctx.reopened ?? NONE,
		unwrittenWhole: ctx.unwrittenWhole === true,
		state: rulesOf(ctx.state),
		shown: new Set(ctx.state.rules.map((rule) => rule.id)),
		events: [],
		defects: [],
		questions: [],
		dropped: [],
		labeled: [],
		labels: [],
		replaced: [],
		recorded: [],
		own: new Map(),
		ruleWords: new Map(),
	};
}

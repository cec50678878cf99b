import type { UserMessage } from "../../events/index.js";
import { idNumber, readWithdrawal, withdrawsWords } from "../../events/index.js";
import { type Rule, ruleToLift } from "../../reducers/index.js";
import { type DropReason, formatLabel, type Label, liftTargets, type Target } from "../answer/index.js";
import { contentWordsOf, decide, isEarlier, type LabelGround, type Labeling, ownReading } from "./labeling.js";
import { replacedQuestion, replaceQuestion, type ShownRule, unplacedQuestion } from "./questions.js";

// The judging of lifts (a label's withdrawal of an earlier rule) and the questions it raises: a lift is applied only
// when the store's check passes on the rule the reducer lifts for it; otherwise the model is asked again, or, on the
// last call, the lift is dropped.

/** At most this many rules are offered in one question. */
const MAX_CANDIDATES = 3;
/** How many replacements a lift follows to find the rule now standing for the one it names. */
const MAX_CHAIN = 8;

/** The store's lift check: the whole message, in its own words, withdraws the rule. */
function passes(labeling: Labeling, by: UserMessage, ruleText: string): boolean {
	const { readings } = labeling;
	return withdrawsWords(ownReading(readings, by).read, contentWordsOf(readings, ruleText));
}

/** A rule the prompt showed is named by its id; one this answer gave, by the message that gave it. */
const nameOf = (ground: LabelGround, rule: Rule): string => (ground.shown.has(rule.id) ? rule.id : rule.source);
const shownRule = (ground: LabelGround, rule: Rule): ShownRule => ({ id: nameOf(ground, rule), text: rule.text });

/** The newest of `rules` that `name` names, by its id or by the message that gave it. */
function named<R extends Rule>(rules: readonly R[], name: string): R | undefined {
	return rules.findLast((rule) => rule.id === name || rule.source === name);
}

/** The rule in force that replaced the named one (following narrowings of narrowings), if any. */
function replacement(labeling: Labeling, target: Target): Rule | undefined {
	let name = target;
	for (let step = 0; step < MAX_CHAIN; step++) {
		const gone = named(labeling.decided.state.lifted, name);
		if (gone === undefined) return undefined;
		const narrowing = named(labeling.decided.state.rules, gone.by);
		if (narrowing !== undefined) return narrowing;
		name = gone.by;
	}
	return undefined;
}

/** Rules this message could withdraw by the store's check, not already named by its label. */
function candidates(labeling: Labeling, by: UserMessage, label: Label): Rule[] {
	const targets = liftTargets(label);
	return labeling.decided.state.rules
		.filter(
			(rule) =>
				isEarlier(rule, by) && !targets.includes(nameOf(labeling.ground, rule)) && !targets.includes(rule.source),
		)
		.filter((rule) => passes(labeling, by, rule.text))
		.slice(0, MAX_CANDIDATES);
}

/** The message's whole text, quoted and pasted passages included, would pass the lift check: its withdrawal is pasted. */
function pastedWithdrawal(labeling: Labeling, by: UserMessage, ruleText: string): boolean {
	return withdrawsWords(readWithdrawal(by.text), contentWordsOf(labeling.readings, ruleText));
}

/**
 * A lift the store cannot apply as named: asked again with the named rule in force shown (docs/how-it-works.md, One
 * pass), and with any rules the message may withdraw. A withdrawal only pasted or quoted raises no question
 * (docs/how-it-works.md, One pass), nor does a target that names no rule in force, unless rules the message may
 * withdraw exist. Final, it is dropped.
 */
function unplaced(
	labeling: Labeling,
	by: UserMessage,
	label: Label,
	target: Target,
	reason: DropReason,
	rule?: Rule,
): void {
	const { ground, tally } = labeling;
	const offered = ground.final ? [] : candidates(labeling, by, label);
	const showNamed = rule !== undefined && !ground.final && !pastedWithdrawal(labeling, by, rule.text);
	if (offered.length === 0 && !showNamed) {
		tally.dropped.push({ item: `${by.ref}:${target}`, reason });
		return;
	}
	const shownNamed = rule === undefined ? undefined : shownRule(ground, rule);
	const shownOffered = offered.map((offer) => shownRule(ground, offer));
	tally.questions.push(
		unplacedQuestion(by.ref, formatLabel(label), target, shownNamed, shownOffered, label.kind === "rule"),
	);
}

/**
 * Applies one lift of a label, the withdrawal of the rule `target` names, if the store's check passes on the rule
 * the reducer lifts for it; otherwise asks or drops. A target this label already lifted is done.
 */
export function applyLift(labeling: Labeling, by: UserMessage, label: Label, target: Target): void {
	const item = `${by.ref}:${target}`;
	if (target === by.ref) labeling.tally.dropped.push({ item, reason: "self-lift" });
	else if (target.startsWith("u") && idNumber(target) > idNumber(by.ref)) {
		labeling.tally.dropped.push({ item, reason: "later-target" });
	} else if (!liftInForce(labeling, by, label, target) && named(labeling.decided.state.lifted, target)?.by !== by.ref) {
		liftReplaced(labeling, by, label, target);
	}
}

/**
 * The reducer finds a rule in force for the target: lifted when it came from an earlier message and the store's
 * check passes. False when the target names no rule in force.
 */
function liftInForce(labeling: Labeling, by: UserMessage, label: Label, target: Target): boolean {
	const taken = ruleToLift(labeling.decided.state, target);
	if (taken === undefined) return false;
	if (!isEarlier(taken, by)) {
		const reason = taken.source === by.ref ? "self-lift" : "later-target";
		labeling.tally.dropped.push({ item: `${by.ref}:${target}`, reason });
	} else if (!passes(labeling, by, taken.text)) unplaced(labeling, by, label, target, "lift-check", taken);
	else decide(labeling, { type: "rule-lifted", data: { target, by: by.ref } });
	return true;
}

/** The named rule is not in force: if a narrowing replaced it, asked again with the narrowing shown, by name. */
function liftReplaced(labeling: Labeling, by: UserMessage, label: Label, target: Target): void {
	const narrowing = replacement(labeling, target);
	if (narrowing === undefined || narrowing.source === by.ref) {
		unplaced(labeling, by, label, target, "unknown-target");
		return;
	}
	labeling.tally.replaced.push(by.ref);
	if (labeling.ground.final || !passes(labeling, by, narrowing.text))
		unplaced(labeling, by, label, target, "replaced-target");
	else {
		const shown = shownRule(labeling.ground, narrowing);
		labeling.tally.questions.push(replacedQuestion(by.ref, formatLabel(label), target, shown, label.kind === "rule"));
	}
}

/**
 * Once the answer is settled: a `rule` whose own words (quoted passages left out) would pass the lift check
 * against an earlier rule still in force, and whose whole message passes it too, is asked about (at most three
 * rules per message).
 */
export function replaceQuestions(labeling: Labeling): void {
	const { readings, tally } = labeling;
	for (const { msg, words } of tally.recorded) {
		const judged = readWithdrawal(ownReading(readings, msg).text.slice(words.region.start, words.region.end));
		const asks = (held: Rule) =>
			isEarlier(held, msg) &&
			withdrawsWords(judged, contentWordsOf(readings, held.text)) &&
			passes(labeling, msg, held.text);
		const asked = labeling.decided.state.rules.filter(asks).slice(0, MAX_CANDIDATES);
		for (const held of asked) tally.questions.push(replaceQuestion(msg.ref, { id: held.source, text: held.text }));
	}
}

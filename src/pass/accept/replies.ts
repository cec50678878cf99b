import * as E from "fp-ts/lib/Either.js";
import {
	ANSWER_BOUNDS,
	formatLabel,
	jsonObjectIn,
	type Label,
	liftTargets,
	parseLabel,
	type RawAnswer,
	type RawLabel,
	type Target,
	withTargets,
} from "../answer/index.js";
import { type AcceptContext, type Accepted, acceptAnswer } from "./accept.js";
import type { Question } from "./questions.js";

/** A target a reply added to a label's lifts. */
export interface AddedLift {
	readonly msg: string;
	readonly target: string;
}

/**
 * The answer after the replies, its final acceptance (no questions left), what the replies added, and how many asked
 * messages the reply gave a label for (none: nothing of it could be read).
 */
export interface Replied {
	readonly answer: RawAnswer;
	readonly accepted: Accepted;
	readonly added: readonly AddedLift[];
	readonly read: number;
}

/** The reply's label string for each asked message (the first one given); nothing else of the reply is read. */
function replyLabels(replyText: string, asked: ReadonlySet<string>): Map<string, string> {
	const found = new Map<string, string>();
	const reply = jsonObjectIn(replyText, ["labels"]);
	if (E.isLeft(reply) || !Array.isArray(reply.right.labels)) return found;
	for (const item of reply.right.labels) {
		if (typeof item !== "object" || item === null || !("msg" in item) || !("label" in item)) continue;
		const { msg, label } = item;
		if (typeof msg !== "string" || typeof label !== "string" || label.length > ANSWER_BOUNDS.label) continue;
		const ref = msg.trim().toLowerCase();
		if (asked.has(ref) && !found.has(ref)) found.set(ref, label);
	}
	return found;
}

/**
 * The targets a reply adds: it must keep the label's kind (`rule` stays a rule, a lift a lift) and name only the
 * label's own targets and asked ones; anything else changes nothing.
 */
function addedTargets(kept: Label, reply: Label, askedTargets: readonly Target[]): readonly Target[] {
	if (kept.kind !== reply.kind || (kept.kind !== "rule" && kept.kind !== "lifts")) return [];
	const keptTargets = liftTargets(kept);
	const named = liftTargets(reply);
	if (named.some((target) => !keptTargets.includes(target) && !askedTargets.includes(target))) return [];
	return named.filter((target) => askedTargets.includes(target) && !keptTargets.includes(target));
}

/** A kept label with the targets the reply to its question adds, and which they are. */
function amendedByReply(
	label: RawLabel,
	questions: readonly Question[],
	reply: string | undefined,
): { label: RawLabel; added: Target[] } {
	const kept = parseLabel(label.label);
	const answered = reply === undefined ? undefined : parseLabel(reply);
	if (E.isLeft(kept) || answered === undefined || E.isLeft(answered)) return { label, added: [] };
	const asked = questions
		.filter((q) => q.msg === label.msg && q.label === formatLabel(kept.right))
		.flatMap((q) => q.targets);
	const added = [...addedTargets(kept.right, answered.right, asked)];
	if (added.length === 0) return { label, added };
	return { label: { ...label, label: formatLabel(withTargets(kept.right, added)) }, added };
}

/**
 * Applies the replies to the asked questions: the kept answer stands, and the only change a reply can make is to add
 * an asked target to that label's lifts (the label keeps its words). Only the asked messages are read; a reply with
 * anything but the label's kind naming asked targets, or no readable JSON, changes nothing. The amended answer is
 * accepted again as final, so an added lift still passes the store's check and an unplaced one is dropped.
 */
export function applyReplies(
	ctx: AcceptContext,
	kept: RawAnswer,
	asked: readonly Question[],
	replyText: string,
): Replied {
	const replies = replyLabels(replyText, new Set(asked.map((q) => q.msg)));
	const added: AddedLift[] = [];
	const done = new Set<string>();
	const labels = kept.labels.map((label) => {
		if (done.has(label.msg)) return label;
		done.add(label.msg);
		const amended = amendedByReply(label, asked, replies.get(label.msg));
		for (const target of amended.added) added.push({ msg: label.msg, target });
		return amended.label;
	});
	// A standing pick the answer left unlabeled was asked about under the label it was recorded with: read its reply so.
	for (const question of asked) {
		if (done.has(question.msg)) continue;
		done.add(question.msg);
		const amended = amendedByReply({ msg: question.msg, label: question.label }, asked, replies.get(question.msg));
		for (const target of amended.added) added.push({ msg: question.msg, target });
		if (amended.added.length > 0) labels.push(amended.label);
	}
	const answer: RawAnswer = { ...kept, labels };
	return { answer, accepted: acceptAnswer(ctx, answer, { final: true }), added, read: replies.size };
}

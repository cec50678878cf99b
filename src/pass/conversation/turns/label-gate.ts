import type { AcceptContext, Question } from "../../accept/index.js";
import { acceptLabels, applyReplies } from "../../accept/index.js";
import type { RawAnswer, RawLabel } from "../../answer/index.js";
import type { Failure } from "./codecs.js";

/** The labels section's verdict on the labels held so far. */
export interface LabelsVerdict {
	/** Integrity failures the model can repair: unlabeled messages, bad labels, quotes that do not verify, unknown ids. */
	readonly failures: readonly Failure[];
	/** Lift questions about labels without a failure; never about a standing rule, which carries no label. */
	readonly questions: readonly Question[];
	/** Messages whose lift was refused because a narrowing had replaced its rule. */
	readonly replaced: ReadonlySet<string>;
}

function answerOf(labels: readonly RawLabel[]): RawAnswer {
	return { labels: [...labels], decisions: [], deadEnds: [], values: [] };
}

/** The labels code gives the earlier messages it reads as standing rules (takeover): `rule`, never a lift. */
export function standingLabels(refs: readonly string[]): RawLabel[] {
	return refs.map((msg) => ({ msg, label: "rule" }));
}

/**
 * Takes from a reply the labels of the messages it was asked for (`open`); the held label of any other message
 * stands. A label for a message that is not offered names an id that does not exist here.
 */
export function mergeLabels(
	held: readonly RawLabel[],
	reply: readonly RawLabel[],
	open: ReadonlySet<string>,
	offered: ReadonlySet<string>,
): { readonly labels: RawLabel[]; readonly failures: Failure[] } {
	const byMsg = new Map(held.map((label) => [label.msg, label]));
	const taken = new Set<string>();
	const failures: Failure[] = [];
	for (const label of reply) {
		if (!offered.has(label.msg)) {
			failures.push({
				item: `label:${label.msg}`,
				code: "outside-span",
				note: `${label.msg} is not one of the messages to label`,
			});
		} else if (open.has(label.msg) && !taken.has(label.msg)) {
			taken.add(label.msg);
			byMsg.set(label.msg, label);
		}
	}
	return { labels: [...byMsg.values()], failures };
}

/** Judges the held labels as acceptance would, without applying them: what to repair, what to ask. */
export function judgeLabels(
	ctx: AcceptContext,
	held: readonly RawLabel[],
	standing: ReadonlySet<string>,
): LabelsVerdict {
	const accepted = acceptLabels(ctx, held, false);
	const failures: Failure[] = accepted.defects.flatMap((d) =>
		d.msg === null || standing.has(d.msg) ? [] : [{ item: d.msg, code: d.code, note: d.note }],
	);
	for (const drop of accepted.dropped) {
		const [msg = "", target = ""] = drop.item.split(":");
		if (drop.reason === "unknown-target" && !standing.has(msg))
			failures.push({ item: drop.item, code: "unknown-id", note: `${msg}: ${target} is not a rule in force` });
	}
	const failing = new Set(failures.map((f) => f.item.split(":")[0]));
	const questions = accepted.questions.filter((q) => !standing.has(q.msg) && !failing.has(q.msg));
	return { failures, questions, replaced: new Set(accepted.replaced) };
}

/** Applies a reply to the asked questions: the only change it can make is to add an asked target (as single mode). */
export function answerQuestions(
	ctx: AcceptContext,
	held: readonly RawLabel[],
	asked: readonly Question[],
	replyText: string,
): RawLabel[] {
	return asked.length === 0 ? [...held] : applyReplies(ctx, answerOf(held), asked, replyText).answer.labels;
}

/** The labels once the section is over: a label still failing its integrity check is dropped, its message unlabeled. */
export function settledLabels(ctx: AcceptContext, held: readonly RawLabel[]): RawLabel[] {
	const failing = new Set(acceptLabels(ctx, held, true).defects.map((d) => d.msg));
	return held.filter((label) => !failing.has(label.msg));
}

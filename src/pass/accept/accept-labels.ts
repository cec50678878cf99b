import * as E from "fp-ts/lib/Either.js";
import type { Event, UserMessage } from "../../events/index.js";
import { idNumber } from "../../events/index.js";
import type { State } from "../../reducers/index.js";
import {
	type Defect,
	type Dropped,
	defect,
	formatLabel,
	LABEL_FORMS,
	type Label,
	parseLabel,
	type RawLabel,
} from "../answer/index.js";
import { applyLift, replaceQuestions } from "./judge-lifts.js";
import { type Labeling, startLabeling } from "./labeling.js";
import type { Question } from "./questions.js";
import { applyRuleLabel, recordPick, withdrawOwn } from "./record-rules.js";

// The labels of an answer applied in message order: each dispatched by its kind to the recording of rules
// (record-rules.ts) or the judging of lifts (judge-lifts.ts), and once the answer is settled, the questions of
// whether a new rule replaces an earlier one.

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

/** Applies one parsed label; false when it is a defect the model must fix (the message stays unlabeled). */
function applyLabel(labeling: Labeling, msg: UserMessage, label: Label, words: string | undefined): boolean {
	switch (label.kind) {
		case "rule":
			return applyRuleLabel(labeling, msg, label, words);
		case "lifts":
			withdrawOwn(labeling, msg);
			for (const target of label.targets) applyLift(labeling, msg, label, target);
			return true;
		case "not-rule":
			// The reader's pick stands: only `one-off` (or a lift) keeps it from being recorded (docs/how-it-works.md,
			// Taking over from another compactor).
			if (labeling.ground.standing.has(msg.ref)) recordPick(labeling, msg, false);
			else withdrawOwn(labeling, msg);
			return true;
		case "one-off":
			withdrawOwn(labeling, msg);
			return true;
		default: {
			const unknownKind: never = label;
			return unknownKind;
		}
	}
}

/**
 * The labels a span's messages got, in message order; the first label for a message wins. A standing pick left
 * unlabeled comes with no label; any other unlabeled message is a defect.
 */
function labelsInOrder(
	labeling: Labeling,
	labels: readonly RawLabel[],
	toLabel: readonly UserMessage[],
): { msg: UserMessage; raw: RawLabel | undefined }[] {
	const byRef = new Map(toLabel.map((m) => [m.ref, m]));
	const chosen = new Map<string, RawLabel>();
	for (const raw of labels) {
		if (!byRef.has(raw.msg)) labeling.tally.dropped.push({ item: raw.msg, reason: "outside-span" });
		else if (chosen.has(raw.msg)) labeling.tally.dropped.push({ item: raw.msg, reason: "duplicate-label" });
		else chosen.set(raw.msg, raw);
	}
	const ordered: { msg: UserMessage; raw: RawLabel | undefined }[] = [];
	for (const msg of [...toLabel].sort((a, b) => idNumber(a.ref) - idNumber(b.ref))) {
		const raw = chosen.get(msg.ref);
		if (raw === undefined && labeling.ground.standing.has(msg.ref)) ordered.push({ msg, raw });
		else if (raw === undefined) {
			labeling.tally.defects.push(
				defect("unlabeled", `${msg.ref} has no label: give it one of ${LABEL_FORMS}`, msg.ref),
			);
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
	const labeling = startLabeling(
		{
			final,
			branch: ctx.branch,
			standing: ctx.standing ?? NONE,
			excerpted: ctx.excerpted ?? NONE,
			reopened: ctx.reopened ?? NONE,
			unwrittenWhole: ctx.unwrittenWhole === true,
		},
		ctx.state,
	);
	for (const { msg, raw } of labelsInOrder(labeling, labels, ctx.toLabel)) {
		if (raw === undefined) {
			recordPick(labeling, msg, true);
			labeling.tally.labeled.push(msg.ref);
			continue;
		}
		const parsed = parseLabel(raw.label);
		if (E.isLeft(parsed)) {
			labeling.tally.defects.push(defect("label-invalid", `${msg.ref}: ${parsed.left}`, msg.ref));
			continue;
		}
		if (!applyLabel(labeling, msg, parsed.right, raw.words)) continue;
		labeling.tally.labeled.push(msg.ref);
		labeling.tally.labels.push({ msg: msg.ref, label: formatLabel(parsed.right) });
	}
	if (!final) replaceQuestions(labeling);
	const { events, defects, questions, dropped, labeled, labels: applied, replaced } = labeling.tally;
	return { events, defects, questions, dropped, labeled, labels: applied, replaced };
}

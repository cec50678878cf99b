import type { Event } from "../../events/index.js";
import type { State } from "../../reducers/index.js";
import { evolveUnstored, initialState } from "../../reducers/index.js";
import type { Dropped, RawAnswer } from "../answer/index.js";
import { defect } from "../answer/index.js";
import { secretValueKind } from "../secrets/index.js";
import { acceptLabels, type LabelContext, type LabelsOutcome } from "./accept-labels.js";
import { knownEvidence } from "./verify/evidence.js";
import { valueStands } from "./verify/values.js";

/**
 * What acceptance needs besides the answer; everything is read, nothing is changed. `toLabel` is the span's (this
 * chunk's) user messages, plus any carried from a narrative-less pass and, taking over, the earlier ones offered.
 */
export interface AcceptContext extends LabelContext {
	/** This pass's span number, for the narrative line. */
	readonly span: number;
	/** The text of the turn `u<n>` opens (user, assistant and tool results), or undefined if unknown. */
	readonly turnText: (ref: string) => string | undefined;
	/** The ledger ids (`C<n>`, `E<n>`) the model may cite. */
	readonly ledger: ReadonlySet<string>;
}

/** How an answer is accepted: `final` when no question will be asked, so a lift that cannot be placed is dropped. */
export interface AcceptOptions {
	readonly final?: boolean;
}

/**
 * An accepted answer: the events to append, in order, and what is left for the retry, the questions and the log
 * (the labels' outcome, with the answer's other events added; which lifts a narrowing replaced is the gate's alone).
 */
export type Accepted = Omit<LabelsOutcome, "replaced">;

type Findings = { events: Event[]; dropped: Dropped[] };

function findings(kind: "decisions" | "deadEnds", ctx: AcceptContext, answer: RawAnswer): Findings {
	const type = kind === "decisions" ? "decision-made" : "dead-end-found";
	const dropped: Dropped[] = [];
	const kept: Event[] = [];
	// A decision may record a requirement the user stated, backed by the message of the span that states it.
	const sources = new Set([...ctx.ledger, ...ctx.toLabel.map((u) => u.ref)]);
	answer[kind].forEach((finding, index) => {
		if (finding.text === "") {
			dropped.push({ item: `${kind}[${index}]`, reason: "empty-text" });
			return;
		}
		const evidence = knownEvidence(finding.evidence, kind === "decisions" ? sources : ctx.ledger);
		for (const id of evidence.unknown) dropped.push({ item: `${kind}[${index}]:${id}`, reason: "unknown-evidence" });
		kept.push({ type, data: { text: finding.text, evidence: [...evidence.kept] } });
	});
	// Each finding stored with the id the reducer gives it, read from the state it folds them into.
	const before: State = { ...initialState, [kind]: ctx.state[kind], next: ctx.state.next };
	const after = evolveUnstored(before, kept);
	const given = after[kind].slice(before[kind].length);
	const events = given.map(({ id, text, evidence }): Event => ({ type, data: { id, text, evidence: [...evidence] } }));
	return { events, dropped };
}

function values(answer: RawAnswer, turnText: (ref: string) => string | undefined): Findings {
	const out: Findings = { events: [], dropped: [] };
	answer.values.forEach((value, index) => {
		const item = `values[${index}]`;
		const turn = turnText(value.turn);
		if (value.name === "" || value.value === "") out.dropped.push({ item, reason: "empty-text" });
		else if (turn === undefined) out.dropped.push({ item, reason: "unknown-turn" });
		else if (!valueStands(value.value, turn)) out.dropped.push({ item, reason: "value-not-in-turn" });
		else if (secretValueKind(value.name, value.value) !== undefined)
			out.dropped.push({ item, reason: "value-is-secret" });
		else
			out.events.push({ type: "value-recorded", data: { name: value.name, value: value.value, source: value.turn } });
	});
	return out;
}

function textEvents(ctx: AcceptContext, answer: RawAnswer): { objective: Event[]; closing: Event[] } {
	const objective: Event[] =
		answer.objective === undefined ? [] : [{ type: "objective-set", data: { text: answer.objective } }];
	const closing: Event[] = [];
	if (answer.narrative !== undefined) {
		closing.push({ type: "narrative-line", data: { span: ctx.span, text: answer.narrative } });
	}
	if (answer.now !== undefined) closing.push({ type: "now-set", data: { text: answer.now } });
	return { objective, closing };
}

/**
 * Verifies a decoded answer and turns it into events. Rule words are copied from the user's messages by code;
 * lifts pass the store's check or become questions; unknown evidence, values not in their turn and labels for
 * messages outside the span are dropped; unlabeled messages (but standing picks) and bad rule words are defects.
 * Never throws.
 */
export function acceptAnswer(ctx: AcceptContext, answer: RawAnswer, options: AcceptOptions = {}): Accepted {
	const final = options.final === true;
	const labels: LabelsOutcome = acceptLabels(ctx, answer.labels, final);
	const decisions = findings("decisions", ctx, answer);
	const deadEnds = findings("deadEnds", ctx, answer);
	const found = values(answer, ctx.turnText);
	const { objective, closing } = textEvents(ctx, answer);
	const defects =
		answer.narrative === undefined
			? [...labels.defects, defect("narrative-missing", '"narrative" is missing: give one line for the work log')]
			: labels.defects;
	return {
		events: [...objective, ...labels.events, ...decisions.events, ...deadEnds.events, ...found.events, ...closing],
		defects,
		questions: labels.questions,
		dropped: [...labels.dropped, ...decisions.dropped, ...deadEnds.dropped, ...found.dropped],
		labeled: labels.labeled,
		labels: labels.labels,
	};
}

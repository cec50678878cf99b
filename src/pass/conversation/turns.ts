import type { Event, Message, World } from "../../events/index.js";
import { type AcceptContext, acceptAnswer } from "../accept/index.js";
import type { RawAnswer } from "../answer/index.js";
import type { ConversationState, Plan, TurnTrace } from "./conversation.js";
import type { CallTrace } from "./exchange.js";
import type { SectionPlan } from "./section-dispatch.js";
import { digest } from "./turns/digest.js";
import { type Excused, type ExpectationCheck, modifiedFiles, unfixedErrors } from "./turns/expectations.js";
import type { GateContext } from "./turns/gate.js";
import { askPrompt, TURNS_SYSTEM } from "./turns/prompts.js";
import { SECTIONS } from "./turns/sections.js";
import { SHOW_TOOL } from "./turns/show.js";

/** Taking over from another compactor: the earlier summary and the user's earlier messages, by kind. */
export interface TakeoverRefs {
	/** The newest foreign compaction's summary. */
	readonly summary: string;
	/** Refs in `ctx.toLabel` of earlier messages the model labels; the Digest shows each cut to its start. */
	readonly earlier: readonly string[];
	/** Refs in `ctx.toLabel` of earlier messages read as standing rules: code records each, none is offered a label. */
	readonly standing: readonly string[];
}

/** What a turns-mode pass reads: what the single mode's prompt and acceptance read, for the whole span. */
export interface TurnsInput {
	/** Acceptance's context: the state after the ledger, and every message to label (takeover's included). */
	readonly ctx: AcceptContext;
	/** The state so far, rendered. */
	readonly stateText: string;
	readonly ledger: readonly Event[];
	readonly world: World;
	/** The span's messages, and the refs of the user messages among them. */
	readonly messages: readonly Message[];
	readonly messageRefs: readonly string[];
	/** Notes `longhaul_remember` wrote during the span. */
	readonly notes: readonly string[];
	readonly takeover?: TakeoverRefs;
}

/** The budgets of a turns-mode pass. */
export interface TurnsBudgets {
	/** The whole conversation's time budget (`turnsBudgetMs`); sections it cannot reach carry. */
	readonly turnsBudgetMs: number;
	/** One turn's time budget (`turnBudgetMs`); a slower call is abandoned. */
	readonly turnBudgetMs: number;
	readonly retryNoteChars: number;
}

/** The accepted answer of the whole conversation, as the pass folds it in. */
export interface TurnsAccepted {
	readonly events: readonly Event[];
	readonly labeled: readonly string[];
	readonly labels: readonly { readonly msg: string; readonly label: string }[];
	/** Items left out, by acceptance or by the gate after the repair turns, with a reason code. */
	readonly dropped: readonly { readonly item: string; readonly reason: string }[];
}

/** A turns-mode pass: the accepted answer (undefined when no section was answered) and what it cost. */
export interface TurnsOutcome {
	readonly accepted: TurnsAccepted | undefined;
	/** Why a section was not reached or not answered (the first such reason); null when every section was. */
	readonly reason: string | null;
	readonly calls: readonly CallTrace[];
	readonly turns: readonly TurnTrace[];
	/** Expectations the model excused, with its one-sentence reason: the span record keeps them. */
	readonly excused: readonly Excused[];
	/** Expectations neither met nor excused when their section's turns ran out. */
	readonly unmet: readonly ExpectationCheck[];
	/** The sections an answer was read for. */
	readonly answered: readonly (typeof SECTIONS)[number][];
	/** Messages of `ctx.toLabel` left without a label; the next pass must offer them again. */
	readonly unlabeled: readonly string[];
	readonly digestChars: number;
}

function offeredRefs(input: TurnsInput): ReadonlySet<string> {
	const standing = new Set(input.takeover?.standing);
	return new Set(input.ctx.toLabel.map((u) => u.ref).filter((ref) => !standing.has(ref)));
}

function digestOf(input: TurnsInput): string {
	const { ctx, takeover } = input;
	const earlier = new Set(takeover?.earlier);
	const standing = new Set(takeover?.standing);
	return digest({
		span: ctx.span,
		stateText: input.stateText,
		state: ctx.state,
		whole: ctx.toLabel.filter((u) => !earlier.has(u.ref) && !standing.has(u.ref)),
		earlier: ctx.toLabel.filter((u) => earlier.has(u.ref) && !standing.has(u.ref)),
		standing: ctx.toLabel.filter((u) => standing.has(u.ref)),
		foreignSummary: takeover?.summary,
		ledger: input.ledger,
		world: input.world,
		notes: input.notes,
		messages: input.messages,
		messageRefs: input.messageRefs,
	});
}

/**
 * Turns mode (docs/turns-mode.md, The conversation) as a conversation: one section a turn in the fixed order, the
 * Digest in the first turn, `show(ref)` as the only tool, the gate after every answer, within the pass's and each
 * turn's time budget. The model names no values; standing rules read by code carry no label.
 */
export function turnsPlan(input: TurnsInput, budgets: TurnsBudgets, maxTokens: number): Plan {
	const { ctx } = input;
	const modified = modifiedFiles(input.ledger);
	const unfixed = unfixedErrors(input.ledger);
	const gate: GateContext = { ledgerIds: ctx.ledger, modified, unfixed };
	const offered = offeredRefs(input);
	const standing = input.takeover?.standing ?? [];
	const asks = { offered: [...offered], standing, modified, unfixed };
	const { retryNoteChars } = budgets;
	const sections: SectionPlan[] = SECTIONS.map((section) =>
		section === "labels"
			? {
					kind: "labels",
					first: askPrompt(section, asks),
					context: { ctx, offered, standing: new Set(standing), retryNoteChars },
				}
			: { kind: "text", section, first: askPrompt(section, asks), gate, retryNoteChars },
	);
	return {
		transport: {
			kind: "turns",
			budgetMs: budgets.turnsBudgetMs,
			turnBudgetMs: budgets.turnBudgetMs,
			digest: digestOf(input),
			sources: { branch: ctx.branch, messages: input.messages, ledger: input.ledger, state: ctx.state },
			tools: [SHOW_TOOL],
		},
		system: TURNS_SYSTEM,
		maxTokens,
		sections,
	};
}

/** A model that cannot hold a conversation answers no section: every offered message stays unlabeled. */
export function cannotConverse(input: TurnsInput): TurnsOutcome {
	return {
		accepted: undefined,
		reason: "model-cannot-converse",
		calls: [],
		turns: [],
		excused: [],
		unmet: [],
		answered: [],
		unlabeled: input.ctx.toLabel.map((u) => u.ref),
		digestChars: digestOf(input).length,
	};
}

/** What the conversation came to: the sections' parts assembled and accepted as one answer. */
export function turnsOutcomeOf(conversation: ConversationState, input: TurnsInput): TurnsOutcome {
	const { ctx } = input;
	const results = conversation.results.flatMap((r) => (r.kind === "turn" ? [r] : []));
	const transport = conversation.plan.transport;
	const common = {
		reason: conversation.reason,
		calls: conversation.calls,
		turns: conversation.turns,
		excused: results.flatMap((r) => r.result.excused),
		unmet: results.flatMap((r) => r.result.unmet),
		answered: results.filter((r) => r.result.answered).map((r) => r.section),
		digestChars: transport.kind === "turns" ? transport.digest.length : 0,
	};
	if (common.answered.length === 0) return { ...common, accepted: undefined, unlabeled: ctx.toLabel.map((u) => u.ref) };
	const answer: RawAnswer = { labels: [], decisions: [], deadEnds: [], values: [] };
	for (const { result } of results) Object.assign(answer, result.part);
	const accepted = acceptAnswer(ctx, answer, { final: true });
	const gateDropped = results.flatMap((r) => r.result.dropped.map((f) => ({ item: f.item, reason: f.code })));
	const labeled = new Set(accepted.labeled);
	return {
		...common,
		accepted: {
			events: accepted.events,
			labeled: accepted.labeled,
			labels: accepted.labels,
			dropped: [...gateDropped, ...accepted.dropped],
		},
		unlabeled: ctx.toLabel.map((u) => u.ref).filter((ref) => !labeled.has(ref)),
	};
}

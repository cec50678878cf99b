import { FIRST_BUDGET, RAISED_BUDGET_MIN } from "./diff-section.js";
import type { Ask, CallTrace, Heard, Purpose, Reply, ToolSpec } from "./exchange.js";
import type { Judged, SectionAsk, SectionHeard } from "./section.js";
import {
	type ActiveSection,
	type ActiveStep,
	hearSection,
	type SectionPlan,
	type SectionResult,
	sectionName,
	startSection,
} from "./section-dispatch.js";
import { SECTIONS, type Section, SHOWS_PER_TURN } from "./turns/sections.js";
import { answerShow, type ShowSources } from "./turns/show.js";

// Transport: how a conversation's asks travel (single calls, or the turns of one continuing conversation with its
// deadlines, Digest and `show(ref)` rounds) and what is traced of each. The sections' own deciders are reached
// through section-dispatch.ts.

/**
 * How the asks travel: single `calls`, each carrying its whole prompt; or `turns` of one continuing conversation,
 * the Digest in the first turn, `show(ref)` answered by code, within the pass's and each turn's time budget.
 */
export type Transport =
	| { readonly kind: "calls" }
	| {
			readonly kind: "turns";
			readonly budgetMs: number;
			readonly turnBudgetMs: number;
			readonly digest: string;
			readonly sources: ShowSources;
			readonly tools: readonly ToolSpec[];
	  };

/** A conversation to hold: its transport, system prompt, the model's output limit, and its sections in order. */
export interface Plan {
	readonly transport: Transport;
	readonly system: string;
	readonly maxTokens: number;
	readonly sections: readonly SectionPlan[];
}

/** What one turn did, for the log: no message text. */
export interface TurnTrace {
	readonly section: Section;
	readonly kind: "ask" | "repair" | "extra";
	readonly shows: number;
	readonly ms: number;
	readonly outcome: "answer" | "failures" | "unreadable" | "failed";
	/** The failure codes the gate found, or the reason the turn failed. */
	readonly codes: readonly string[];
}

/**
 * The ask in flight: the section it is for, its purpose and budget, and (turns) when its turn began, its deadline,
 * its tool rounds.
 */
interface InFlight {
	readonly active: ActiveSection;
	readonly purpose: Purpose;
	readonly maxTokens: number;
	readonly startedAt: number;
	readonly deadline: number;
	readonly rounds: number;
	readonly shows: number;
}

/** The whole conversation as data: the decider's state between asks. */
export interface ConversationState {
	readonly plan: Plan;
	readonly started: number;
	readonly index: number;
	readonly results: readonly SectionResult[];
	readonly calls: readonly CallTrace[];
	readonly turns: readonly TurnTrace[];
	/** The output budget of the next turn (turns mode raises it after a reply cut at the limit). */
	readonly budget: number;
	/** Turns mode: the next turn carries the Digest, until a turn that carried it is answered (not just abandoned). */
	readonly digestOwed: boolean;
	/** Why a section stopped short, the first such. */
	readonly reason: string | null;
	/** The ask in flight; none once the conversation is done. */
	readonly inFlight: InFlight | undefined;
}

/** The decider's answer: the next ask with the state to hear it in, or the conversation done. */
export type ConversationStep =
	| { readonly kind: "ask"; readonly conversation: ConversationState; readonly ask: Ask }
	| { readonly kind: "done"; readonly conversation: ConversationState };

/** Rounds of tool calls a turn allows: the capped calls one a round, and one more to hear the refusal. */
const SHOW_ROUNDS = SHOWS_PER_TURN + 1;

const TURN_KIND: Readonly<Record<Purpose, TurnTrace["kind"]>> = {
	diff: "ask",
	raised: "ask",
	retry: "repair",
	questions: "extra",
};

/** The list with its last item changed; an empty list stays empty. */
function withLast<T>(list: readonly T[], change: (last: T) => T): readonly T[] {
	return list.map((item, i) => (i === list.length - 1 ? change(item) : item));
}

/** The section's judgement of the text last heard, on the trace of its call and (turns) of its turn. */
function withJudged(conversation: ConversationState, judged: Judged | undefined): ConversationState {
	if (judged === undefined) return conversation;
	const outcome = judged.outcome === "defects" ? "failures" : judged.outcome;
	return {
		...conversation,
		calls: withLast(conversation.calls, (call) => ({ ...call, outcome: judged.outcome, defects: judged.codes })),
		turns: withLast(conversation.turns, (turn) => ({ ...turn, outcome, codes: judged.codes })),
	};
}

/** Moves on from a section's step: its next ask, or the next section, or the end. */
function proceed(conversation: ConversationState, step: ActiveStep, at: number): ConversationStep {
	const judged = withJudged(conversation, step.judged);
	if (step.kind === "ask") return issue(judged, step.active, step.ask, at);
	const reason = judged.reason ?? step.result.result.reason;
	const moved: ConversationState = {
		...judged,
		results: [...judged.results, step.result],
		index: judged.index + 1,
		inFlight: undefined,
		reason,
	};
	const plan = conversation.plan.sections[moved.index];
	return plan === undefined ? { kind: "done", conversation: moved } : proceed(moved, startSection(plan), at);
}

/** Sends a section's ask the plan's way; in turns mode, a turn with no time left is not sent but failed. */
function issue(conversation: ConversationState, active: ActiveSection, ask: SectionAsk, at: number): ConversationStep {
	const { transport, system } = conversation.plan;
	if (transport.kind === "calls") {
		const maxTokens = ask.maxTokens ?? conversation.budget;
		const inFlight: InFlight = {
			active,
			purpose: ask.purpose,
			maxTokens,
			startedAt: at,
			deadline: Number.POSITIVE_INFINITY,
			rounds: 0,
			shows: 0,
		};
		return {
			kind: "ask",
			conversation: { ...conversation, inFlight },
			ask: { kind: "call", purpose: ask.purpose, system, prompt: ask.text, maxTokens },
		};
	}
	const left = transport.budgetMs - (at - conversation.started);
	if (left <= 0) return proceed(conversation, hearSection(active, { kind: "failed", reason: "turns-budget" }), at);
	const name = sectionName(active);
	const kind = TURN_KIND[ask.purpose];
	const status = `Longhaul: turn ${SECTIONS.indexOf(name) + 1}/${SECTIONS.length} ${name}${kind === "ask" ? "" : ` (${kind})`}`;
	const deadline = at + Math.min(transport.turnBudgetMs, left);
	const text = conversation.digestOwed ? `${transport.digest}\n\n${ask.text}` : ask.text;
	const inFlight: InFlight = {
		active,
		purpose: ask.purpose,
		maxTokens: conversation.budget,
		startedAt: at,
		deadline,
		rounds: 0,
		shows: 0,
	};
	return {
		kind: "ask",
		conversation: { ...conversation, inFlight },
		ask: {
			kind: "send",
			purpose: ask.purpose,
			system,
			tools: transport.tools,
			input: { kind: "text", text },
			maxTokens: conversation.budget,
			fresh: true,
			deadline,
			status,
		},
	};
}

function trace(inFlight: InFlight, heard: Heard, stopReason: string, reply?: Reply): CallTrace {
	return {
		purpose: inFlight.purpose,
		maxTokens: inFlight.maxTokens,
		stopReason,
		inputTokens: reply?.inputTokens ?? 0,
		outputTokens: reply?.outputTokens ?? 0,
		ms: heard.ms,
		outcome: reply === undefined || reply.stopReason === "error" ? "threw" : "answer",
		defects: [],
	};
}

/** Why an ask gave no reply: the call threw, or its turn's deadline passed. */
function reasonOf(heard: Exclude<Heard, { kind: "reply" }>): string {
	return heard.kind === "timeout" ? "turn-budget" : `model-threw:${heard.errorClass}`;
}

/**
 * Single mode: a call that threw or stopped on an error is a reason; a reply is heard as text. The call is traced as
 * turns mode traces it: a reply stopped on an error with its stop reason and tokens, as thrown.
 */
function hearCall(conversation: ConversationState, inFlight: InFlight, heard: Heard): ConversationStep {
	const { active } = inFlight;
	if (heard.kind !== "reply") {
		const reason = reasonOf(heard);
		const calls = [...conversation.calls, trace(inFlight, heard, reason)];
		return proceed({ ...conversation, calls }, hearSection(active, { kind: "failed", reason }), heard.at);
	}
	const { reply } = heard;
	const calls = [...conversation.calls, trace(inFlight, heard, reply.stopReason, reply)];
	const section: SectionHeard =
		reply.stopReason === "error"
			? { kind: "failed", reason: "model-error" }
			: { kind: "text", text: reply.text, stopReason: reply.stopReason };
	return proceed({ ...conversation, calls }, hearSection(active, section), heard.at);
}

function turnTrace(inFlight: InFlight, at: number, outcome: TurnTrace["outcome"], codes: readonly string[]): TurnTrace {
	return {
		section: sectionName(inFlight.active),
		kind: TURN_KIND[inFlight.purpose],
		shows: inFlight.shows,
		ms: at - inFlight.startedAt,
		outcome,
		codes,
	};
}

/** Turns mode: tool calls are answered by code within the turn; a text reply ends the turn; a failure fails it. */
function hearTurn(
	conversation: ConversationState,
	transport: Extract<Transport, { kind: "turns" }>,
	inFlight: InFlight,
	heard: Heard,
): ConversationStep {
	const { active } = inFlight;
	const failTurn = (t: ConversationState, reason: string) =>
		proceed(
			{ ...t, turns: [...t.turns, turnTrace(inFlight, heard.at, "failed", [reason])] },
			hearSection(active, { kind: "failed", reason }),
			heard.at,
		);
	if (heard.kind !== "reply") {
		const reason = reasonOf(heard);
		return failTurn({ ...conversation, calls: [...conversation.calls, trace(inFlight, heard, reason)] }, reason);
	}
	const { reply } = heard;
	const withCall: ConversationState = {
		...conversation,
		calls: [...conversation.calls, trace(inFlight, heard, reply.stopReason, reply)],
	};
	if (reply.stopReason === "error") return failTurn(withCall, "model-error");
	if (reply.toolCalls.length > 0) {
		if (inFlight.rounds >= SHOW_ROUNDS) return failTurn(withCall, "tool-loop");
		const answers = reply.toolCalls.map((call, i) => {
			const shown = answerShow(call.name, call.arguments, inFlight.shows + i, transport.sources);
			return { id: call.id, name: call.name, text: shown.text, refused: !shown.found };
		});
		const next: InFlight = { ...inFlight, rounds: inFlight.rounds + 1, shows: inFlight.shows + reply.toolCalls.length };
		return {
			kind: "ask",
			conversation: { ...withCall, inFlight: next },
			ask: {
				kind: "send",
				purpose: inFlight.purpose,
				system: conversation.plan.system,
				tools: transport.tools,
				input: { kind: "tool-answers", answers },
				maxTokens: inFlight.maxTokens,
				fresh: false,
				deadline: inFlight.deadline,
				status: undefined,
			},
		};
	}
	const budget =
		reply.stopReason === "length"
			? Math.min(Math.max(conversation.budget * 2, RAISED_BUDGET_MIN), conversation.plan.maxTokens)
			: conversation.budget;
	const ended: ConversationState = {
		...withCall,
		budget,
		digestOwed: false,
		turns: [...withCall.turns, turnTrace(inFlight, heard.at, "answer", [])],
	};
	return proceed(
		ended,
		hearSection(active, { kind: "text", text: reply.text, stopReason: reply.stopReason }),
		heard.at,
	);
}

/** The conversation's first ask (or, with nothing to ask, its end), at `at` on the pass's clock. */
export function start(plan: Plan, at: number): ConversationStep {
	const conversation: ConversationState = {
		plan,
		started: at,
		index: 0,
		results: [],
		calls: [],
		turns: [],
		budget: Math.min(FIRST_BUDGET, plan.maxTokens),
		digestOwed: true,
		reason: null,
		inFlight: undefined,
	};
	const first = plan.sections[0];
	return first === undefined ? { kind: "done", conversation } : proceed(conversation, startSection(first), at);
}

/** The conversation's next step once the driver heard back from the ask in flight. */
export function next(conversation: ConversationState, heard: Heard): ConversationStep {
	const { inFlight } = conversation;
	const { transport } = conversation.plan;
	if (inFlight === undefined) return { kind: "done", conversation };
	return transport.kind === "calls"
		? hearCall(conversation, inFlight, heard)
		: hearTurn(conversation, transport, inFlight, heard);
}

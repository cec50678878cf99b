import { FIRST_BUDGET, RAISED_BUDGET_MIN } from "./diff-section.js";
import type { Ask, CallTrace, Heard, Purpose, Reply, ToolSpec } from "./exchange.js";
import type { Judged, SectionAsk, SectionHeard } from "./section.js";
import {
	type Current,
	type CurrentStep,
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
interface Out {
	readonly current: Current;
	readonly purpose: Purpose;
	readonly maxTokens: number;
	readonly startedAt: number;
	readonly deadline: number;
	readonly rounds: number;
	readonly shows: number;
}

/** The whole conversation as data: the decider's state between asks. */
export interface Talk {
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
	readonly out: Out | undefined;
}

/** The decider's answer: the next ask with the state to hear it in, or the conversation done. */
export type Step =
	| { readonly kind: "ask"; readonly talk: Talk; readonly ask: Ask }
	| { readonly kind: "done"; readonly talk: Talk };

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
function withJudged(talk: Talk, judged: Judged | undefined): Talk {
	if (judged === undefined) return talk;
	const outcome = judged.outcome === "defects" ? "failures" : judged.outcome;
	return {
		...talk,
		calls: withLast(talk.calls, (call) => ({ ...call, outcome: judged.outcome, defects: judged.codes })),
		turns: withLast(talk.turns, (turn) => ({ ...turn, outcome, codes: judged.codes })),
	};
}

/** Moves on from a section's step: its next ask, or the next section, or the end. */
function proceed(talk: Talk, step: CurrentStep, at: number): Step {
	const judged = withJudged(talk, step.judged);
	if (step.kind === "ask") return issue(judged, step.current, step.ask, at);
	const reason = judged.reason ?? step.result.result.reason;
	const moved: Talk = {
		...judged,
		results: [...judged.results, step.result],
		index: judged.index + 1,
		out: undefined,
		reason,
	};
	const plan = talk.plan.sections[moved.index];
	return plan === undefined ? { kind: "done", talk: moved } : proceed(moved, startSection(plan), at);
}

/** Sends a section's ask the plan's way; in turns mode, a turn with no time left is not sent but failed. */
function issue(talk: Talk, current: Current, ask: SectionAsk, at: number): Step {
	const { transport, system } = talk.plan;
	if (transport.kind === "calls") {
		const maxTokens = ask.maxTokens ?? talk.budget;
		const out: Out = {
			current,
			purpose: ask.purpose,
			maxTokens,
			startedAt: at,
			deadline: Number.POSITIVE_INFINITY,
			rounds: 0,
			shows: 0,
		};
		return {
			kind: "ask",
			talk: { ...talk, out },
			ask: { kind: "call", purpose: ask.purpose, system, prompt: ask.text, maxTokens },
		};
	}
	const left = transport.budgetMs - (at - talk.started);
	if (left <= 0) return proceed(talk, hearSection(current, { kind: "failed", reason: "turns-budget" }), at);
	const name = sectionName(current);
	const kind = TURN_KIND[ask.purpose];
	const status = `Longhaul: turn ${SECTIONS.indexOf(name) + 1}/${SECTIONS.length} ${name}${kind === "ask" ? "" : ` (${kind})`}`;
	const deadline = at + Math.min(transport.turnBudgetMs, left);
	const text = talk.digestOwed ? `${transport.digest}\n\n${ask.text}` : ask.text;
	const out: Out = {
		current,
		purpose: ask.purpose,
		maxTokens: talk.budget,
		startedAt: at,
		deadline,
		rounds: 0,
		shows: 0,
	};
	return {
		kind: "ask",
		talk: { ...talk, out },
		ask: {
			kind: "send",
			purpose: ask.purpose,
			system,
			tools: transport.tools,
			input: { kind: "text", text },
			maxTokens: talk.budget,
			fresh: true,
			deadline,
			status,
		},
	};
}

function trace(out: Out, heard: Heard, stopReason: string, reply?: Reply): CallTrace {
	return {
		purpose: out.purpose,
		maxTokens: out.maxTokens,
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
function hearCall(talk: Talk, out: Out, heard: Heard): Step {
	const { current } = out;
	if (heard.kind !== "reply") {
		const reason = reasonOf(heard);
		const calls = [...talk.calls, trace(out, heard, reason)];
		return proceed({ ...talk, calls }, hearSection(current, { kind: "failed", reason }), heard.at);
	}
	const { reply } = heard;
	const calls = [...talk.calls, trace(out, heard, reply.stopReason, reply)];
	const section: SectionHeard =
		reply.stopReason === "error"
			? { kind: "failed", reason: "model-error" }
			: { kind: "text", text: reply.text, stopReason: reply.stopReason };
	return proceed({ ...talk, calls }, hearSection(current, section), heard.at);
}

function turnTrace(out: Out, at: number, outcome: TurnTrace["outcome"], codes: readonly string[]): TurnTrace {
	return {
		section: sectionName(out.current),
		kind: TURN_KIND[out.purpose],
		shows: out.shows,
		ms: at - out.startedAt,
		outcome,
		codes,
	};
}

/** Turns mode: tool calls are answered by code within the turn; a text reply ends the turn; a failure fails it. */
function hearTurn(talk: Talk, transport: Extract<Transport, { kind: "turns" }>, out: Out, heard: Heard): Step {
	const { current } = out;
	const failTurn = (t: Talk, reason: string) =>
		proceed(
			{ ...t, turns: [...t.turns, turnTrace(out, heard.at, "failed", [reason])] },
			hearSection(current, { kind: "failed", reason }),
			heard.at,
		);
	if (heard.kind !== "reply") {
		const reason = reasonOf(heard);
		return failTurn({ ...talk, calls: [...talk.calls, trace(out, heard, reason)] }, reason);
	}
	const { reply } = heard;
	const withCall: Talk = { ...talk, calls: [...talk.calls, trace(out, heard, reply.stopReason, reply)] };
	if (reply.stopReason === "error") return failTurn(withCall, "model-error");
	if (reply.toolCalls.length > 0) {
		if (out.rounds >= SHOW_ROUNDS) return failTurn(withCall, "tool-loop");
		const answers = reply.toolCalls.map((call, i) => {
			const shown = answerShow(call.name, call.arguments, out.shows + i, transport.sources);
			return { id: call.id, name: call.name, text: shown.text, refused: !shown.found };
		});
		const next: Out = { ...out, rounds: out.rounds + 1, shows: out.shows + reply.toolCalls.length };
		return {
			kind: "ask",
			talk: { ...withCall, out: next },
			ask: {
				kind: "send",
				purpose: out.purpose,
				system: talk.plan.system,
				tools: transport.tools,
				input: { kind: "tool-answers", answers },
				maxTokens: out.maxTokens,
				fresh: false,
				deadline: out.deadline,
				status: undefined,
			},
		};
	}
	const budget =
		reply.stopReason === "length"
			? Math.min(Math.max(talk.budget * 2, RAISED_BUDGET_MIN), talk.plan.maxTokens)
			: talk.budget;
	const ended: Talk = {
		...withCall,
		budget,
		digestOwed: false,
		turns: [...withCall.turns, turnTrace(out, heard.at, "answer", [])],
	};
	return proceed(
		ended,
		hearSection(current, { kind: "text", text: reply.text, stopReason: reply.stopReason }),
		heard.at,
	);
}

/** The conversation's first ask (or, with nothing to ask, its end), at `at` on the pass's clock. */
export function start(plan: Plan, at: number): Step {
	const talk: Talk = {
		plan,
		started: at,
		index: 0,
		results: [],
		calls: [],
		turns: [],
		budget: Math.min(FIRST_BUDGET, plan.maxTokens),
		digestOwed: true,
		reason: null,
		out: undefined,
	};
	const first = plan.sections[0];
	return first === undefined ? { kind: "done", talk } : proceed(talk, startSection(first), at);
}

/** The conversation's next step once the driver heard back from the ask in flight. */
export function next(talk: Talk, heard: Heard): Step {
	const { out } = talk;
	const { transport } = talk.plan;
	if (out === undefined) return { kind: "done", talk };
	return transport.kind === "calls" ? hearCall(talk, out, heard) : hearTurn(talk, transport, out, heard);
}

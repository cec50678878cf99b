import { type DiffContext, type DiffResult, type DiffState, hearDiff, startDiff } from "./diff-section.js";
import { hearLabels, type LabelsContext, type LabelsState, startLabels } from "./labels-section.js";
import type { Judged, SectionAsk, SectionHeard, SectionStep } from "./section.js";
import { hearText, startText, type TextState } from "./text-section.js";
import type { TurnSectionResult } from "./turn-section.js";
import type { GateContext } from "./turns/gate.js";
import type { Section } from "./turns/sections.js";

// Section dispatch: which section a plan names, started and heard by its own decider (diff, text, labels), its
// state and its result wrapped in one union so the conversation (conversation.ts) moves on from any of them alike.
// Nothing here knows how an ask travels.

/** One section of a conversation: single mode's diff of a chunk, or one of turns mode's five. */
export type SectionPlan =
	| { readonly kind: "diff"; readonly context: DiffContext }
	| {
			readonly kind: "text";
			readonly section: TextState["section"];
			readonly first: string;
			readonly gate: GateContext;
			readonly retryNoteChars: number;
	  }
	| { readonly kind: "labels"; readonly context: LabelsContext; readonly first: string };

/** What a section came to. */
export type SectionResult =
	| { readonly kind: "diff"; readonly result: DiffResult }
	| { readonly kind: "turn"; readonly section: Section; readonly result: TurnSectionResult };

export type Current =
	| { readonly kind: "diff"; readonly state: DiffState }
	| { readonly kind: "text"; readonly state: TextState }
	| { readonly kind: "labels"; readonly state: LabelsState };

export type CurrentStep =
	| { readonly kind: "ask"; readonly current: Current; readonly ask: SectionAsk; readonly judged?: Judged }
	| { readonly kind: "done"; readonly result: SectionResult; readonly judged?: Judged };

/** A section's first ask: every section starts by asking. */
type SectionStart<S> = Extract<SectionStep<S, unknown>, { kind: "ask" }>;

function lift<S, R>(
	step: SectionStep<S, R>,
	current: (state: S) => Current,
	result: (result: R) => SectionResult,
): CurrentStep {
	return step.kind === "ask"
		? { kind: "ask", current: current(step.state), ask: step.ask, judged: step.judged }
		: { kind: "done", result: result(step.result), judged: step.judged };
}

function asking<S>(start: SectionStart<S>, current: (state: S) => Current): CurrentStep {
	return { kind: "ask", current: current(start.state), ask: start.ask };
}

export function startSection(plan: SectionPlan): CurrentStep {
	switch (plan.kind) {
		case "diff":
			return asking(startDiff(plan.context), (state) => ({ kind: "diff", state }));
		case "text":
			return asking(startText(plan.section, plan.first, plan.gate, plan.retryNoteChars), (state) => ({
				kind: "text",
				state,
			}));
		case "labels":
			return asking(startLabels(plan.context, plan.first), (state) => ({ kind: "labels", state }));
		default: {
			const unknownPlan: never = plan;
			return unknownPlan;
		}
	}
}

export function hearSection(current: Current, heard: SectionHeard): CurrentStep {
	switch (current.kind) {
		case "diff":
			return lift(
				hearDiff(current.state, heard),
				(state) => ({ kind: "diff", state }),
				(result) => ({ kind: "diff", result }),
			);
		case "text":
			return lift(
				hearText(current.state, heard),
				(state) => ({ kind: "text", state }),
				(result) => ({ kind: "turn", section: current.state.section, result }),
			);
		case "labels":
			return lift(
				hearLabels(current.state, heard),
				(state) => ({ kind: "labels", state }),
				(result) => ({ kind: "turn", section: "labels", result }),
			);
		default: {
			const unknownSection: never = current;
			return unknownSection;
		}
	}
}

export function sectionName(current: Current): Section {
	return current.kind === "text" ? current.state.section : "labels";
}

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

/** The section being held, with its own decider's state. */
export type ActiveSection =
	| { readonly kind: "diff"; readonly state: DiffState }
	| { readonly kind: "text"; readonly state: TextState }
	| { readonly kind: "labels"; readonly state: LabelsState };

/** A section's step as the conversation takes it: its next ask, or what it came to; and its judgement of the text heard. */
export type ActiveStep =
	| { readonly kind: "ask"; readonly active: ActiveSection; readonly ask: SectionAsk; readonly judged?: Judged }
	| { readonly kind: "done"; readonly result: SectionResult; readonly judged?: Judged };

/** A section's first ask: every section starts by asking. */
type SectionStart<S> = Extract<SectionStep<S, unknown>, { kind: "ask" }>;

/** A section decider's step, its state and result tagged with the section's kind. */
function tagStep<S, R>(
	step: SectionStep<S, R>,
	active: (state: S) => ActiveSection,
	result: (result: R) => SectionResult,
): ActiveStep {
	return step.kind === "ask"
		? { kind: "ask", active: active(step.state), ask: step.ask, judged: step.judged }
		: { kind: "done", result: result(step.result), judged: step.judged };
}

function asking<S>(start: SectionStart<S>, active: (state: S) => ActiveSection): ActiveStep {
	return { kind: "ask", active: active(start.state), ask: start.ask };
}

/** The first ask of the section a plan names. */
export function startSection(plan: SectionPlan): ActiveStep {
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

/** What the active section makes of what was heard. */
export function hearSection(active: ActiveSection, heard: SectionHeard): ActiveStep {
	switch (active.kind) {
		case "diff":
			return tagStep(
				hearDiff(active.state, heard),
				(state) => ({ kind: "diff", state }),
				(result) => ({ kind: "diff", result }),
			);
		case "text":
			return tagStep(
				hearText(active.state, heard),
				(state) => ({ kind: "text", state }),
				(result) => ({ kind: "turn", section: active.state.section, result }),
			);
		case "labels":
			return tagStep(
				hearLabels(active.state, heard),
				(state) => ({ kind: "labels", state }),
				(result) => ({ kind: "turn", section: "labels", result }),
			);
		default: {
			const unknownSection: never = active;
			return unknownSection;
		}
	}
}

/** The turns-mode section a section is (single mode's diff is traced by its calls, never by this name). */
export function sectionName(active: ActiveSection): Section {
	return active.kind === "text" ? active.state.section : "labels";
}

import * as E from "fp-ts/lib/Either.js";
import type { Judged, SectionHeard, SectionStep } from "./section.js";
import { notAnswered, type TurnSectionResult } from "./turn-section.js";
import { type Failure, readSection, type TextAnswer } from "./turns/codecs.js";
import { type GateContext, gateSection, keptPart, type Verdict } from "./turns/gate.js";
import { repairPrompt } from "./turns/prompts.js";
import { REPAIR_TURNS, type Section } from "./turns/sections.js";

/** Where a section other than the labels stands: its repairs so far, the best answer. */
export interface TextState {
	readonly section: Exclude<Section, "labels">;
	readonly gate: GateContext;
	readonly retryNoteChars: number;
	readonly attempt: number;
	readonly best: { readonly answer: TextAnswer; readonly verdict: Verdict } | undefined;
}

type TextStep = SectionStep<TextState, TurnSectionResult>;

/** Fewer failures wins, then fewer unmet expectations; a tie goes to the newer answer. */
function better(a: { verdict: Verdict } | undefined, b: { verdict: Verdict }): boolean {
	if (a === undefined) return true;
	const score = (v: Verdict) => [v.failures.length, v.unmet.length] as const;
	const [af, au] = score(a.verdict);
	const [bf, bu] = score(b.verdict);
	return bf < af || (bf === af && bu <= au);
}

/** The section over; `reason` is why it stopped short: its turn failed, or (never answered) the last reply's code. */
function finish(state: TextState, reason: string | null, judged?: Judged): TextStep {
	const { best } = state;
	const result: TurnSectionResult =
		best === undefined
			? notAnswered(reason)
			: {
					answered: true,
					part: keptPart(best.answer, best.verdict),
					excused: best.verdict.excused,
					unmet: best.verdict.unmet.map((u) => u.check),
					dropped: best.verdict.failures,
					reason,
				};
	return { kind: "done", result, judged };
}

/** The section's first ask. */
export function startText(
	section: TextState["section"],
	first: string,
	gate: GateContext,
	retryNoteChars: number,
): Extract<TextStep, { kind: "ask" }> {
	const state: TextState = {
		section,
		gate,
		retryNoteChars,
		attempt: 0,
		best: undefined,
	};
	return { kind: "ask", state, ask: { purpose: "diff", text: first } };
}

/** A section other than the labels (docs/turns-mode.md, The gate): gated after every answer, repaired up to twice. */
export function hearText(state: TextState, heard: SectionHeard): TextStep {
	if (heard.kind === "failed") return finish(state, heard.reason);
	const read = readSection(state.section, heard.text);
	const answer = E.getOrElseW(() => undefined)(read);
	const verdict: Verdict = E.match(
		(unreadable: Failure): Verdict => ({ failures: [unreadable], unmet: [], excused: [] }),
		(given: TextAnswer) => gateSection(given, state.gate),
	)(read);
	const judged: Judged = {
		outcome: answer === undefined ? "unreadable" : verdict.failures.length > 0 ? "defects" : "answer",
		codes: verdict.failures.map((f) => f.code),
	};
	const next: TextState = {
		...state,
		attempt: state.attempt + 1,
		best: answer !== undefined && better(state.best, { verdict }) ? { answer, verdict } : state.best,
	};
	if ((verdict.failures.length === 0 && verdict.unmet.length === 0) || next.attempt > REPAIR_TURNS)
		return finish(next, next.best === undefined ? (judged.codes[0] ?? null) : null, judged);
	const text = repairPrompt({ section: state.section, ...verdict, questions: [], maxChars: state.retryNoteChars }).text;
	return { kind: "ask", state: next, ask: { purpose: "retry", text }, judged };
}

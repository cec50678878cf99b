import type { RawAnswer, RawLabel } from "../../src/pass/answer/answer.js";

// Diff answers as a model writes them (the JSON text of its reply), for tests that script the summarizer.

/** One label of a diff answer: the message it labels, the label, and the words a rule quotes when it quotes some. */
export interface Label {
	readonly msg: string;
	readonly label: string;
	readonly words?: string;
}

/** A whole diff answer: the labels, and a narrative and a now unless `rest` writes its own (or adds fields). */
export function diffAnswer(labels: readonly Label[], rest: Readonly<Record<string, unknown>> = {}): string {
	return JSON.stringify({ labels, narrative: "went on", now: "more", ...rest });
}

/** An answer of labels alone, as a model answers a question or repairs its labels. */
export function labelsOnly(labels: readonly Label[]): string {
	return JSON.stringify({ labels });
}

/** The same label for each of `msgs`. */
export function labeled(label: string, ...msgs: readonly string[]): Label[] {
	return msgs.map((msg) => ({ msg, label }));
}

/**
 * A diff answer as the pass holds it once read: `labels`, no decisions, dead ends or values, a narrative; `rest`
 * changes any of it.
 */
export function rawAnswer(labels: readonly RawLabel[], rest: Partial<RawAnswer> = {}): RawAnswer {
	return { labels: [...labels], decisions: [], deadEnds: [], values: [], narrative: "did things", ...rest };
}

/** What a turns-mode conversation answers, section by section. */
export interface TurnsAnswers {
	readonly narrative: string;
	readonly objective: string;
	readonly labels: readonly Label[];
	/** Each findings answer in turn (decisions, dead ends, and what else the turn asks about). */
	readonly findings: readonly Readonly<Record<string, unknown>>[];
	readonly now: string;
}

/** The replies of a turns-mode conversation, in the order it asks: narrative, objective, labels, findings, now. */
export function turnsAnswers(a: TurnsAnswers): string[] {
	return [
		JSON.stringify({ narrative: a.narrative }),
		JSON.stringify({ objective: a.objective }),
		labelsOnly(a.labels),
		...a.findings.map((findings) => JSON.stringify(findings)),
		JSON.stringify({ now: a.now }),
	];
}

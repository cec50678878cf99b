import * as E from "fp-ts/lib/Either.js";
import { ANSWER_BOUNDS, type RawAnswer } from "../../answer/index.js";
import type { Failure, RawFinding, SectionAnswer } from "./codecs.js";
import {
	type Excused,
	modifiedFileNamed,
	readExcuse,
	resumeSet,
	type UnfixedError,
	type Unmet,
	unfixedErrorsPlaced,
} from "./expectations.js";

/** What the gate reads besides an answer: the ids that exist, the span's modified files and unfixed errors. */
export interface GateContext {
	/** The ledger ids (`C<n>`, `E<n>`) an answer may cite. */
	readonly ledgerIds: ReadonlySet<string>;
	readonly modified: readonly string[];
	readonly unfixed: readonly UnfixedError[];
}

/** The gate's word on one answer: integrity failures (never excused), expectations unmet, excuses accepted. */
export interface Verdict {
	readonly failures: readonly Failure[];
	readonly unmet: readonly Unmet[];
	readonly excused: readonly Excused[];
}

type Text = "narrative" | "objective" | "now";

/**
 * A text field within its cap (the narrative's is turns mode's own, docs/turns-mode.md, The gate; the others are the
 * single mode's bounds).
 */
function withinCap(key: Text, value: string | undefined): Failure[] {
	const cap = ANSWER_BOUNDS[key];
	if (value === undefined || value.length <= cap) return [];
	return [
		{
			item: key,
			code: `${key}-too-long`,
			note: `"${key}" is ${value.length} characters; its cap is ${cap}: write it shorter`,
		},
	];
}

/** An unmet expectation stands unless the answer excuses it in one sentence. */
function expectation(unmet: Unmet | undefined, excuse: string | undefined): Pick<Verdict, "unmet" | "excused"> {
	if (unmet === undefined) return { unmet: [], excused: [] };
	if (excuse === undefined) return { unmet: [unmet], excused: [] };
	const read = readExcuse(unmet.check, excuse);
	return E.isRight(read)
		? { unmet: [], excused: [read.right] }
		: { unmet: [{ ...unmet, note: `${unmet.note} (${read.left})` }], excused: [] };
}

function unknownEvidence(key: "decisions" | "deadEnds", answer: readonly RawFinding[], ids: ReadonlySet<string>) {
	return answer.flatMap((finding, index) =>
		finding.evidence
			.filter((id) => !ids.has(id))
			.map((id) => ({
				item: `${key}[${index}]:${id}`,
				code: "unknown-id",
				note: `${key}[${index}] cites ${JSON.stringify(id.slice(0, 20))}, which is not in the ledger`,
			})),
	);
}

function findingsVerdict(answer: Extract<SectionAnswer, { section: "findings" }>, g: GateContext): Verdict {
	const errorIds = new Set([...g.ledgerIds].filter((id) => id.startsWith("E")));
	const unknownOpen = answer.openErrors
		.filter((id) => !errorIds.has(id))
		.map((id) => ({
			item: `openErrors:${id}`,
			code: "unknown-id",
			note: `"openErrors" names ${JSON.stringify(id.slice(0, 20))}, which is not an error in the ledger`,
		}));
	const failures = [
		...answer.broken,
		...unknownEvidence("decisions", answer.decisions, g.ledgerIds),
		...unknownEvidence("deadEnds", answer.deadEnds, g.ledgerIds),
		...unknownOpen,
	];
	const cited = answer.deadEnds.flatMap((d) => d.evidence);
	return { failures, ...expectation(unfixedErrorsPlaced(cited, answer.openErrors, g.unfixed), answer.excuse) };
}

/**
 * The gate for every section but the labels: integrity (it parsed, ids exist, the narrative within its cap) and the
 * section's expectation (a modified file named in the narrative, unfixed errors placed, resume set).
 */
export function gateSection(answer: Exclude<SectionAnswer, { section: "labels" }>, g: GateContext): Verdict {
	switch (answer.section) {
		case "narrative": {
			const failures: Failure[] =
				answer.narrative === undefined
					? [{ item: "narrative", code: "narrative-missing", note: '"narrative" is missing: give one line' }]
					: withinCap("narrative", answer.narrative);
			const named = answer.narrative === undefined ? undefined : modifiedFileNamed(answer.narrative, g.modified);
			return { failures, ...expectation(named, answer.excuse) };
		}
		case "objective":
			return { failures: withinCap("objective", answer.objective), unmet: [], excused: [] };
		case "findings":
			return findingsVerdict(answer, g);
		case "now":
			return { failures: withinCap("now", answer.now), ...expectation(resumeSet(answer.now), answer.excuse) };
	}
}

/**
 * What a section contributes to the answer once its turns are over: a text that failed integrity is dropped; a
 * finding keeps its place and acceptance drops the evidence ids the ledger does not know.
 */
export function keptPart(answer: Exclude<SectionAnswer, { section: "labels" }>, verdict: Verdict): Partial<RawAnswer> {
	const clean = verdict.failures.length === 0;
	switch (answer.section) {
		case "narrative":
			return clean && answer.narrative !== undefined ? { narrative: answer.narrative } : {};
		case "objective":
			return clean && answer.objective !== undefined ? { objective: answer.objective } : {};
		case "findings":
			return { decisions: [...answer.decisions], deadEnds: [...answer.deadEnds] };
		case "now":
			return clean && answer.now !== undefined ? { now: answer.now } : {};
	}
}

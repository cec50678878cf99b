import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { Event } from "../events/index.js";
import { QUESTIONS_HEADER } from "../pass/accept/index.js";
import type { Folded } from "../reducers/index.js";

// The faked summarizer of replay. It judges nothing: Longhaul's diff gets what the recording's own passes
// accepted (the labels, and for a span of the same number its objective, decisions, dead ends, values, narrative
// and Now); a transcript pi compacted has none of that, so there every message is "not a rule" and the narrative
// says a stand-in wrote it. pi's summarizer gets the summary the recording holds for that compaction.

/** What one recorded Longhaul span's accepted answer said beyond the labels. */
export interface SpanFindings {
	readonly objective: string | null;
	readonly decisions: readonly { readonly text: string; readonly evidence: readonly string[] }[];
	readonly deadEnds: readonly { readonly text: string; readonly evidence: readonly string[] }[];
	readonly values: readonly { readonly name: string; readonly value: string; readonly turn: string }[];
	readonly narrative: string | null;
	readonly now: string | null;
}

/** What the recording's passes accepted: labels by message, rule sources by id, findings by span. */
export interface RecordedAnswers {
	readonly byMsg: ReadonlyMap<string, string>;
	readonly ruleSources: ReadonlyMap<string, string>;
	readonly spans: ReadonlyMap<number, SpanFindings>;
}

/** Nothing recorded: every message is answered "not a rule". Exported for tests. */
export const NOTHING_RECORDED: RecordedAnswers = { byMsg: new Map(), ruleSources: new Map(), spans: new Map() };

const Shown = t.type({ msg: t.string, text: t.string });

/** True for a request that is Longhaul's diff call, its retry or its questions (each opens with the span header). */
export function isDiffPrompt(prompt: string): boolean {
	return prompt.startsWith("# Span ");
}

/** The refs listed under "Messages to label", in order. */
export function shownRefs(prompt: string): string[] {
	const refs: string[] = [];
	for (const line of prompt.split("\n")) {
		if (!line.startsWith('{"msg":"u')) continue;
		const parsed = E.tryCatch(
			(): unknown => JSON.parse(line),
			() => "unreadable",
		);
		const shown = E.isRight(parsed) ? Shown.decode(parsed.right) : parsed;
		if (E.isRight(shown)) refs.push(shown.right.msg);
	}
	return refs;
}

/** The rule ids of the prompt's rendered state, by the message that gave each (`R3`, quoted words, `(u7)`). */
export function renderedRuleIds(prompt: string): Map<string, string> {
	const bySource = new Map<string, string>();
	for (const match of prompt.matchAll(/^(R[1-9][0-9]*)\n(?:> .*\n)+\((u[1-9][0-9]*)\)$/gm)) {
		const [, id, source] = match;
		if (id !== undefined && source !== undefined) bySource.set(source, id);
	}
	return bySource;
}

function findings(events: readonly Event[]): SpanFindings {
	const whole = events.some((e) => e.type === "span-closed" && e.data.kind === "whole");
	const last = <K extends Event["type"]>(type: K) =>
		events.filter((e): e is Extract<Event, { type: K }> => e.type === type).at(-1);
	return {
		objective: last("objective-set")?.data.text ?? null,
		decisions: events.flatMap((e) => (e.type === "decision-made" ? [e.data] : [])),
		deadEnds: events.flatMap((e) => (e.type === "dead-end-found" ? [e.data] : [])),
		values: events.flatMap((e) =>
			e.type === "value-recorded" && e.data.source.startsWith("u")
				? [{ name: e.data.name, value: e.data.value, turn: e.data.source }]
				: [],
		),
		narrative: whole ? (last("narrative-line")?.data.text ?? null) : null,
		now: last("now-set")?.data.text ?? null,
	};
}

/** What a recorded branch's Longhaul passes accepted, for the stand-in to answer again. */
export function recordedAnswers(folded: Folded): RecordedAnswers {
	const byMsg = new Map<string, string>();
	for (const { record } of folded.spanRecords) for (const l of record.labels ?? []) byMsg.set(l.msg, l.label);
	const ruleSources = new Map<string, string>();
	for (const rule of [...folded.state.rules, ...folded.state.lifted]) ruleSources.set(rule.id, rule.source);
	const byEntry = new Map<string, Event[]>();
	for (const located of folded.events) {
		const list = byEntry.get(located.entry) ?? [];
		list.push(located.event);
		byEntry.set(located.entry, list);
	}
	const spans = new Map<number, SpanFindings>();
	for (const events of byEntry.values()) {
		const closed = events.find((e) => e.type === "span-closed");
		if (closed?.type === "span-closed") spans.set(closed.data.span, findings(events));
	}
	return { byMsg, ruleSources, spans };
}

/** A recorded lift names rules by the recording's ids; the replay may number them otherwise, so map by source. */
function remapped(label: string, recorded: RecordedAnswers, current: ReadonlyMap<string, string>): string {
	const match = /^(rule and lifts|lifts) (.+)$/.exec(label);
	if (match === null) return label;
	const [, form, list] = match;
	const targets = (list ?? "").split(",").map((target) => {
		const id = target.trim();
		const source = recorded.ruleSources.get(id);
		return (source === undefined ? undefined : current.get(source)) ?? id;
	});
	return `${form} ${targets.join(", ")}`;
}

/** The stand-in's answer to a Longhaul diff, retry or question prompt (docs/contracts.md, The diff answer). */
export function standInAnswer(prompt: string, recorded: RecordedAnswers): string {
	if (prompt.includes(QUESTIONS_HEADER)) return JSON.stringify({ labels: [] });
	const current = renderedRuleIds(prompt);
	const refs = [...new Set(shownRefs(prompt))];
	let asRecorded = 0;
	const labels = refs.map((msg) => {
		const label = recorded.byMsg.get(msg);
		if (label === undefined) return { msg, label: "not a rule" };
		asRecorded++;
		return { msg, label: remapped(label, recorded, current) };
	});
	const span = recorded.spans.get(Number(/^# Span ([0-9]+)/.exec(prompt)?.[1] ?? "0"));
	return JSON.stringify({
		labels,
		...(span?.objective == null ? {} : { objective: span.objective }),
		decisions: span?.decisions ?? [],
		deadEnds: span?.deadEnds ?? [],
		values: span?.values ?? [],
		narrative:
			span?.narrative ??
			`replay stand-in: ${labels.length} messages labeled, ${asRecorded} as the recording's pass did`,
		now: span?.now ?? "replay stand-in: no model read this span",
	});
}

/** The stand-in's answer to pi's own summarizer: the recorded summary, or a marker where there is none. */
export function standInSummary(prompt: string, recordedSummary: string | undefined): string {
	if (prompt.includes("This is the PREFIX of a turn")) return "(replay stand-in: the kept turn's prefix)";
	return recordedSummary ?? "(replay stand-in summary: no model read this span)";
}

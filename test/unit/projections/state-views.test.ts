import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Event, EventOf, Located } from "../../../src/events/index.js";
import { commandsById } from "../../../src/projections/command-text.js";
import { errorLine } from "../../../src/projections/error-line.js";
import { sanitize } from "../../../src/projections/sanitize.js";
import { spansView } from "../../../src/projections/state-views.js";
import { evolve, type Folded, initialState, type State } from "../../../src/reducers/index.js";
import { eventArbitraries } from "../../properties/arbitraries.js";
import { params } from "../../properties/laws.js";
import { command, errorRecorded, narrative, ruleAdded, spanClosed } from "../../support/events.js";

// `--spans` as it stood before it was made linear (2026-12-07), as the oracle: for each span it searched the whole
// branch's events, and the state's commands, errors and work log, for that span's.

type RuleChange = EventOf<"rule-added"> | EventOf<"rule-lifted">;

const isRuleChange = (event: Event): event is RuleChange => event.type === "rule-added" || event.type === "rule-lifted";

function changeLine(event: RuleChange): string {
	return event.type === "rule-added"
		? `rule from ${event.data.source}`
		: `lift of ${event.data.target} by ${event.data.by}`;
}

function foreignLines(state: State): string[] {
	if (state.foreign.length === 0) return [];
	return [
		"",
		`Foreign compactions (not Longhaul's): ${state.foreign.length}`,
		...state.foreign.map(
			(f) => `- entry ${f.entry}: ${f.summaryChars} characters of summary${f.fromHook ? ", by an extension" : ""}`,
		),
	];
}

function oldSpansView(folded: Folded): string {
	const { state, events } = folded;
	const commands = commandsById(state);
	const out: string[] = [];
	for (const close of state.closes) {
		const closing = events.find((l) => l.event.type === "span-closed" && l.event.data.span === close.span);
		const entry = closing?.entry ?? "?";
		const mine = events.filter((l) => l.entry === entry && l.seq !== null).map((l) => l.event);
		const counts = new Map<string, number>();
		for (const e of mine) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
		const narrative = state.workLog.find((l) => l.span === close.span)?.text ?? "(none)";
		out.push(`Span ${close.span} (entry ${entry}, ${close.kind}${close.reason === null ? "" : `: ${close.reason}`})`);
		out.push(`  events: ${[...counts].map(([type, n]) => `${type} ${n}`).join(", ") || "none"}`);
		out.push(`  changes: ${mine.filter(isRuleChange).map(changeLine).join("; ") || "none"}`);
		for (const c of state.commands.filter((c) => c.span === close.span))
			out.push(`  ${c.id} [exit ${c.exitCode ?? "?"}] ${c.command}`);
		for (const e of state.errors.filter((e) => e.span === close.span))
			out.push(`  ${errorLine(e, { commands, status: true })}`);
		if (close.unlabeled.length > 0) out.push(`  unlabeled: ${close.unlabeled.join(", ")}`);
		out.push(`  narrative: ${narrative}`);
	}
	if (out.length === 0) out.push("No Longhaul spans on this branch.");
	return `${sanitize([...out, ...foreignLines(state)].join("\n"))}\n`;
}

const folded = (events: readonly Located[]): Folded => ({
	state: evolve(initialState, events),
	events,
	spanRecords: [],
	branch: [],
});

/** Events on few entries and few spans, so that entries, spans and closes repeat; some made by the fold (no seq). */
const located: fc.Arbitrary<Located[]> = fc.array(
	fc.record({
		entry: fc.constantFrom("c1", "c2", "c3", "?"),
		seq: fc.option(fc.integer({ min: 1, max: 99 }), { nil: null, freq: 5 }),
		event: fc.oneof(
			eventArbitraries["span-closed"].map((e) => ({ ...e, data: { ...e.data, span: (e.data.span % 3) + 1 } })),
			eventArbitraries["command-recorded"].map((e) => ({ ...e, data: { ...e.data, span: (e.data.span % 3) + 1 } })),
			eventArbitraries["error-recorded"].map((e) => ({ ...e, data: { ...e.data, span: (e.data.span % 3) + 1 } })),
			eventArbitraries["narrative-line"].map((e) => ({ ...e, data: { ...e.data, span: (e.data.span % 3) + 1 } })),
			eventArbitraries["rule-added"],
			eventArbitraries["rule-lifted"],
			eventArbitraries["note-remembered"],
			eventArbitraries["foreign-compaction-seen"],
		),
	}),
	{ maxLength: 40 },
);

describe("--spans, grouped once rather than searched for each span", () => {
	it("prints what the search for each span printed", () => {
		fc.assert(
			fc.property(located, (events) => {
				expect(spansView(folded(events))).toBe(oldSpansView(folded(events)));
			}),
			params({ numRuns: 500 }),
		);
	});

	it("takes a span's first close, first narrative line, and every event its entry stored", () => {
		const events: Located[] = [
			{ entry: "a", seq: 1, event: narrative(1, "first line") },
			{ entry: "a", seq: 2, event: ruleAdded("never push", "u1") },
			{ entry: "a", seq: null, event: ruleAdded("made by the fold", "u9") },
			{ entry: "a", seq: 3, event: spanClosed(1) },
			{ entry: "b", seq: 4, event: narrative(1, "second line") },
			{ entry: "b", seq: 5, event: command("C1", "npm test", 0, 1, "t1") },
			{ entry: "b", seq: 6, event: errorRecorded("E1", "boom", "C1", 1) },
			{ entry: "b", seq: 7, event: spanClosed(1) },
		];
		const view = spansView(folded(events));
		expect(view).toBe(oldSpansView(folded(events)));
		expect(view.split("\n").slice(0, 7)).toEqual([
			"Span 1 (entry a, whole)",
			"  events: narrative-line 1, rule-added 1, span-closed 1",
			"  changes: rule from u1",
			"  C1 [exit 0] npm test",
			expect.stringContaining("E1"),
			"  narrative: first line",
			"Span 1 (entry a, whole)",
		]);
	});
});

import fc from "fast-check";
import { describe, it } from "vitest";
import type { Event } from "../../src/events/index.js";
import { type CutSection, cutSummary } from "../../src/projections/summary.js";
import { initialState } from "../../src/reducers/index.js";
import { applied } from "../support/applied.js";
import * as ev from "../support/events.js";
import { law } from "./laws.js";

/**
 * What the sanitizer and `oneLine` read across characters: carriage returns before and after line feeds, runs of
 * white space (some JavaScript counts, some it does not), joiners beside emoji, variation selectors and skin tones,
 * lone surrogates, controls, bidi and tag characters, commas and fences.
 */
const UNITS = [
	"a",
	"#",
	"-",
	"1",
	"`",
	",",
	" ",
	"\t",
	"\r",
	"\n",
	"\r\n",
	"\u00a0",
	"\u3000",
	"\u2028",
	"\u2029",
	"\ufeff",
	"\u200b",
	"\u200d",
	"\u202e",
	"\u2066",
	"\u001b",
	"\u0085",
	"\u009b",
	"\ud800",
	"\udc00",
	"😀",
	"👨",
	"©",
	"\ufe0f",
	"\u{1f3fb}",
	"\u{e0041}",
	"𝒳",
];

const unit = fc.constantFrom(...UNITS);

/**
 * Short texts of those units, texts that end or start at what is read across a split (white space, a carriage
 * return, a joiner), and now and then one a few thousand characters long.
 */
const text = fc.oneof(
	{ arbitrary: fc.string({ unit, maxLength: 10 }), weight: 6 },
	{ arbitrary: fc.constantFrom("", " ", "a ", " a", "\r", "a\r", "\u200d😀", "😀\u200d", "a\t\n"), weight: 3 },
	{
		arbitrary: fc
			.tuple(fc.string({ unit, minLength: 1, maxLength: 4 }), fc.integer({ min: 100, max: 800 }))
			.map(([s, times]) => s.repeat(times)),
		weight: 1,
	},
);

const cId = fc.integer({ min: 1, max: 8 }).map((i) => `C${i}`);

/** One event of each kind the summary shows, its texts drawn from `text`. */
const shownEvent: fc.Arbitrary<Event> = fc.oneof(
	text.map(ev.objective),
	text.map(ev.nowSet),
	text.map((t) => ev.ruleAdded(t, "u1")),
	text.map((t) => ev.decision(t, ["C1"])),
	text.map((t) => ev.deadEnd(t)),
	text.map((t) => ev.note(t)),
	fc.tuple(fc.integer({ min: 1, max: 9 }), text).map(([span, t]) => ev.narrative(span, t)),
	fc.tuple(text, text, fc.oneof(cId, fc.constant("u2"))).map(([name, v, source]) => ev.value(name, v, source)),
	fc.tuple(cId, text).map(([id, t]) => ev.command(id, t, 1)),
	fc
		.tuple(fc.integer({ min: 1, max: 30 }), text, fc.option(cId, { nil: null }))
		.map(([i, head, cmd]) => ev.errorRecorded(`E${i}`, head, cmd)),
	fc
		.tuple(fc.array(text, { maxLength: 4 }), fc.array(text, { maxLength: 3 }))
		.map(([read, modified]) => ev.files(read, modified)),
	fc
		.record({ branch: text, head: text, status: text, log: text, diffStat: text })
		.map((seen) => ev.worldTaken(1, ev.gitWorld(seen))),
	text.map((reason) => ev.worldTaken(1, ev.noWorld(reason))),
);

/** A count to leave out of a section: none, some, or more than any section holds (then all of it). */
const leftOut = fc.oneof(fc.nat(12), fc.constant(1_000));

const cuts: fc.Arbitrary<Record<CutSection, number>> = fc.record({
	workLog: leftOut,
	values: leftOut,
	files: leftOut,
	world: leftOut,
	notes: leftOut,
	deadEnds: leftOut,
	decisions: leftOut,
	openErrors: leftOut,
	objective: leftOut,
});

describe("the cap's search measures the summary without drawing it", () => {
	it("at every cut, the length the search measures is the length of the summary drawn", () => {
		law(
			[fc.array(shownEvent, { maxLength: 40 }), cuts],
			(events, cut) => {
				const { text: drawn, chars } = cutSummary(applied(initialState, events), cut);
				return chars === drawn.length;
			},
			{ numRuns: 300 },
		);
	});
});

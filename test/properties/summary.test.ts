import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Event } from "../../src/events/index.js";
import { renderSummary, sanitize, stateObject } from "../../src/projections/index.js";
import { SHOWN_VALUES, shownValues } from "../../src/projections/shown-values.js";
import { CUT_ORDER, type CutSection } from "../../src/projections/summary.js";
import { initialState, type State } from "../../src/reducers/index.js";
import { applied } from "../support/applied.js";
import { errorRecorded, narrative, note, nowSet, ruleAdded } from "../support/events.js";
import { unsafeCharacters } from "../support/terminal-attacks.js";
import { crowdedValueEvents, eventArbitraries, storedEvent } from "./arbitraries.js";
import { law } from "./laws.js";

/** A section that holds no blank line (rules, open errors, Now), from its header to the next blank line or the end. */
function section(text: string, title: string): string | undefined {
	const header = `\n## ${title}\n`;
	const at = title === "Now" || title === "Work log" ? text.lastIndexOf(header) : text.indexOf(header);
	if (at < 0) return undefined;
	const end = text.indexOf("\n\n", at + header.length);
	return text.slice(at, end < 0 ? text.length : end).replace(/\n$/, "");
}

/** States crowded with what the cap cuts (errors, notes, findings, work-log lines) and hostile text everywhere. */
const crowded: fc.Arbitrary<Event[]> = fc.array(
	fc.oneof(
		{ arbitrary: eventArbitraries["error-recorded"], weight: 4 },
		{ arbitrary: eventArbitraries["note-remembered"], weight: 4 },
		{ arbitrary: eventArbitraries["decision-made"], weight: 2 },
		{ arbitrary: eventArbitraries["dead-end-found"], weight: 2 },
		{ arbitrary: eventArbitraries["narrative-line"], weight: 2 },
		{ arbitrary: eventArbitraries["rule-added"], weight: 1 },
		{ arbitrary: storedEvent, weight: 3 },
	),
	{ maxLength: 150 },
);

const limits = fc.oneof(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 6000 }));

/** The sections whose items are one `- ` line each, with what the state holds of them. */
const LISTED: readonly { title: string; key: CutSection; count: (s: State) => number }[] = [
	{ title: "Decisions", key: "decisions", count: (s) => s.decisions.length },
	{ title: "Dead ends", key: "deadEnds", count: (s) => s.deadEnds.length },
	{ title: "Open errors", key: "openErrors", count: (s) => s.errors.filter((e) => e.fixedBy === null).length },
	{ title: "Notes", key: "notes", count: (s) => s.notes.length },
	{ title: "Work log", key: "workLog", count: (s) => s.workLog.length },
];

const OMITTED = /^- (?:and )?(\d+) (?:more )?[^,]+, \S.*: longhaul_recall gives each$/;

/** A lone surrogate: half a pair, as a cut inside a pair would leave. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("the values and the cap of the summary", () => {
	it("the state shows no value twice, and at most SHOWN_VALUES of them, in the summary and in --json", () => {
		law([crowdedValueEvents], (events) => {
			const state = applied(initialState, events);
			// A version with a leading v is the same value as one without.
			const shown = shownValues(state).map((v) => v.value.replace(/^v(?=\d+\.\d)/, ""));
			const json = stateObject(state).values;
			const jsonValues = Array.isArray(json) ? json.map((v) => JSON.stringify(v)) : [];
			return (
				new Set(shown).size === shown.length &&
				shown.length <= SHOWN_VALUES &&
				jsonValues.length === shown.length &&
				new Set(jsonValues).size === jsonValues.length
			);
		});
	});

	it("the summary never passes the cap unless the rules and Now alone do, and capFit says which", () => {
		law([crowded, limits], (events, limit) => {
			const { text, capFit } = renderSummary(applied(initialState, events), limit);
			return (
				capFit.chars === text.length &&
				capFit.fits === text.length <= limit &&
				(capFit.fits || capFit.rulesAndNowChars > limit)
			);
		});
	});

	it("the rules in force and Now stay whole, whatever the limit", () => {
		law([crowded, limits], (events, limit) => {
			const state = applied(initialState, events);
			const whole = renderSummary(state, Number.MAX_SAFE_INTEGER).text;
			const cut = renderSummary(state, limit).text;
			return ["Rules in force", "Now"].every((title) => section(whole, title) === section(cut, title));
		});
	});

	it("each rule's words appear whole, line by line, a control character in them shown escaped", () => {
		law([crowded, limits], (events, limit) => {
			const state = applied(initialState, events);
			const text = renderSummary(state, limit).text;
			return state.rules.every((r) => {
				const words = r.text
					.split(/\r?\n/)
					.map((line) => `> ${sanitize(line)}`)
					.join("\n");
				return text.includes(`${sanitize(r.id)}\n${words}\n(${sanitize(r.source)})`);
			});
		});
	});

	it("no raw control, bidi or escape character survives in the summary, cut or not", () => {
		law(
			[crowded, limits],
			(events, limit) => unsafeCharacters(renderSummary(applied(initialState, events), limit).text).length === 0,
		);
	});

	it("a section's shown items plus its omitted count are the state's items, and capFit counts the omitted", () => {
		law([crowded, limits], (events, limit) => {
			const state = applied(initialState, events);
			const { text, capFit } = renderSummary(state, limit);
			return LISTED.every(({ title, key, count }) => {
				const body = section(text, title);
				if (body === undefined) return capFit.cut[key] === count(state);
				const lines = body.split("\n").slice(2);
				const omitted = lines.flatMap((line) => {
					const m = OMITTED.exec(line);
					return m === null ? [] : [Number(m[1])];
				});
				const shown = lines.filter((line) => line.startsWith("- ") && !OMITTED.test(line)).length;
				const left = omitted.reduce((a, b) => a + b, 0);
				return omitted.length <= 1 && shown + left === count(state) && left === capFit.cut[key];
			});
		});
	});

	it("the cut order: a section is cut only when every section before it in CUT_ORDER is cut whole", () => {
		law([crowded, limits], (events, limit) => {
			const state = applied(initialState, events);
			const { capFit } = renderSummary(state, limit);
			const whole = renderSummary(state, Number.MAX_SAFE_INTEGER).capFit;
			const full = renderSummary(state, 0).capFit.cut;
			return (
				CUT_ORDER.every((key) => whole.cut[key] === 0) &&
				CUT_ORDER.every(
					(key, i) =>
						capFit.cut[key] === 0 || CUT_ORDER.slice(0, i).every((before) => capFit.cut[before] === full[before]),
				)
			);
		});
	});

	it("cuts never split a surrogate pair: a state of whole code points renders whole code points", () => {
		const astral = fc.string({ unit: fc.constantFrom("a", " ", "😀", "𝒳", "é", "\u001b"), maxLength: 30 });
		const events = fc.array(
			fc.oneof(
				astral.map((text): Event => note(text)),
				astral.map((text): Event => narrative(1, text)),
				astral.map((text): Event => ruleAdded(text, "u1")),
				astral.map((text): Event => nowSet(text)),
			),
			{ maxLength: 60 },
		);
		law([events, limits], (evs, limit) => !LONE_SURROGATE.test(renderSummary(applied(initialState, evs), limit).text));
	});

	it("every lone carriage return shows as \\x0d, one at the end of a text (where a line break follows) too", () => {
		const lone = (text: string) => text.match(/\r(?!\n)/g)?.length ?? 0;
		const returns = fc.string({ unit: fc.constantFrom("a", " ", "\t", "\r", "\n", "\r\n"), maxLength: 12 });
		const texts = fc.oneof(
			returns,
			returns.map((text) => `${text}\r`),
		);
		const events = fc.array(
			fc.oneof(
				texts.map((text): Event => note(text)),
				texts.map((text): Event => narrative(1, text)),
				texts.map((text): Event => ruleAdded(`x${text}`, "u1")),
				texts.map((text): Event => nowSet(`x${text}`)),
				texts.map((text): Event => errorRecorded("E1", text)),
			),
			{ maxLength: 20 },
		);
		law([events], (evs) => {
			const state = applied(initialState, evs);
			const written = [state.now ?? "", ...state.rules, ...state.notes, ...state.workLog].map((t) =>
				typeof t === "string" ? t : t.text,
			);
			const shown = [...written, ...state.errors.map((e) => e.head)].reduce((sum, text) => sum + lone(text), 0);
			const text = renderSummary(state, Number.MAX_SAFE_INTEGER).text;
			return !text.includes("\r") && text.split("\\x0d").length - 1 === shown;
		});
	});

	it("the same state renders the same bytes, whatever the limit", () => {
		law([crowded, limits], (events, limit) => {
			const a = renderSummary(applied(initialState, events), limit);
			const b = renderSummary(applied(initialState, structuredClone(events)), limit);
			return a.text === b.text && JSON.stringify(a.capFit) === JSON.stringify(b.capFit);
		});
	});

	it("the cap cuts only when it must: a summary that fits is the whole one", () => {
		law([crowded], (events) => {
			const state = applied(initialState, events);
			const whole = renderSummary(state, Number.MAX_SAFE_INTEGER).text;
			const { text, capFit } = renderSummary(state, whole.length);
			return text === whole && CUT_ORDER.every((key) => capFit.cut[key] === 0);
		});
	});
});

describe("150 open errors and 1,000 notes under the default cap", () => {
	const events: Event[] = [
		ruleAdded("never push to main", "u1"),
		...Array.from({ length: 150 }, (_, i): Event => errorRecorded(`E${i + 1}`, `exit code 1: test ${i + 1} failed`)),
		...Array.from({ length: 1000 }, (_, i): Event => note(`note number ${i + 1}`)),
		nowSet("fix the failing tests"),
	];
	const state = applied(initialState, events);

	it("fits 12,000 characters: the newest notes shown, the oldest counted, every error, the rule and Now whole", () => {
		const { text, capFit } = renderSummary(state);
		expect(text.length).toBeLessThanOrEqual(12_000);
		expect(capFit).toMatchObject({ limit: 12_000, chars: text.length, fits: true });
		expect(capFit.cut).toMatchObject({ openErrors: 0, decisions: 0, deadEnds: 0, objective: 0 });
		expect(text).toContain("R1\n> never push to main\n(u1)");
		expect(text).toContain("## Now\nfix the failing tests\n");
		expect(text).toContain("- E1 (bash, span 1): exit code 1: test 1 failed");
		const left = capFit.cut.notes;
		expect(left).toBeGreaterThan(0);
		expect(text).toContain(
			`- N1000: note number 1000\n- and ${left} more notes, N1 to N${left}: longhaul_recall gives each`,
		);
		expect(text).not.toContain(`- N${left}: `);
		expect(text).toContain(`- N${left + 1}: `);
	});

	it("at 5,000 characters every note is counted before an error goes, and the errors keep their newest", () => {
		const { text, capFit } = renderSummary(state, 5_000);
		expect(text.length).toBeLessThanOrEqual(5_000);
		expect(capFit.cut.notes).toBe(1000);
		expect(text).toContain("## Notes\n- 1000 notes, N1 to N1000: longhaul_recall gives each\n");
		const left = capFit.cut.openErrors;
		expect(left).toBeGreaterThan(0);
		expect(text).toContain(
			`- E150 (bash, span 1): exit code 1: test 150 failed\n- and ${left} more open errors, E1 to E${left}:`,
		);
	});
});

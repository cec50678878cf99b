import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/events/index.js";
import { renderSummary, summaryBody } from "../../../src/projections/index.js";
import type { CutSection } from "../../../src/projections/summary.js";
import { initialState, type State } from "../../../src/reducers/index.js";
import { applied } from "../../support/applied.js";
import {
	errorRecorded,
	files,
	gitWorld,
	narrative,
	note,
	noWorld,
	objective,
	ruleAdded,
	value,
	worldTaken,
} from "../../support/events.js";

// What the cap leaves of each section it cuts, line for line: the count line, the ids it names, the order.

/** Item text longer than a count line, so that leaving out one item shortens the summary. */
const LONG = " and a long tail that takes more room than the line that counts it";
const RULE: Event = ruleAdded("never push to main", "u1");
const stateOf = (events: readonly Event[]): State => applied(initialState, [RULE, ...events]);

/** The summary with `n` items of `key` left out: the longest limit whose cut leaves out exactly that many. */
function cutTo(state: State, key: CutSection, n: number): string {
	const whole = renderSummary(state, Number.MAX_SAFE_INTEGER).text;
	for (let limit = whole.length; limit >= 0; limit--) {
		const { text, capFit } = renderSummary(state, limit);
		if (capFit.cut[key] === n) return text;
		if (capFit.cut[key] > n) break;
	}
	throw new Error(`no limit leaves out exactly ${n} of ${key}`);
}

/** The lines of a section, without its header. */
function sectionLines(text: string, title: string): string[] {
	const header = `## ${title}\n`;
	const at = text.indexOf(header);
	if (at < 0) return [];
	const end = text.indexOf("\n\n", at);
	return text
		.slice(at + header.length, end < 0 ? undefined : end)
		.replace(/\n$/, "")
		.split("\n");
}

const error = (i: number): Event => errorRecorded(`E${i}`, `test ${i} failed${LONG}`);

describe("the cap's cuts, section by section", () => {
	const errors = stateOf([error(1), error(2), error(3)]);

	it("leaves out the oldest open errors and names them on one count line", () => {
		expect(sectionLines(cutTo(errors, "openErrors", 0), "Open errors")).toHaveLength(3);
		const one = sectionLines(cutTo(errors, "openErrors", 1), "Open errors");
		expect(one).toHaveLength(3);
		expect(one[0]).toMatch(/^- E2 /);
		expect(one[2]).toBe("- and 1 more open error, E1: longhaul_recall gives each");
		expect(sectionLines(cutTo(errors, "openErrors", 2), "Open errors").at(-1)).toBe(
			"- and 2 more open errors, E1 to E2: longhaul_recall gives each",
		);
		expect(sectionLines(cutTo(errors, "openErrors", 3), "Open errors")).toEqual([
			"- 3 open errors, E1 to E3: longhaul_recall gives each",
		]);
	});

	it("counts notes and work-log lines by their own nouns and ids", () => {
		const state = stateOf([
			note(`first${LONG}`),
			note(`second${LONG}`),
			narrative(1, `did one${LONG}`),
			narrative(2, `did two${LONG}`),
		]);
		expect(sectionLines(cutTo(state, "workLog", 1), "Work log")).toEqual([
			`- span 2: did two${LONG}`,
			"- and 1 more work-log line, span 1: longhaul_recall gives each",
		]);
		expect(sectionLines(cutTo(state, "notes", 1), "Notes")).toEqual([
			`- N2: second${LONG}`,
			"- and 1 more note, N1: longhaul_recall gives each",
		]);
		expect(sectionLines(cutTo(state, "notes", 2), "Notes")).toEqual([
			"- 2 notes, N1 to N2: longhaul_recall gives each",
		]);
	});

	it("shows values newest first, and counts the oldest left out from the oldest", () => {
		const long = (name: string, v: string, source: string): Event => value(name, `${v}${LONG}`, source);
		const state = stateOf([long("port", "8080", "u1"), long("host", "example.org", "u2"), long("user", "bob", "u3")]);
		expect(sectionLines(cutTo(state, "values", 0), "Values")).toEqual([
			`- user bob${LONG} (u3)`,
			`- host example.org${LONG} (u2)`,
			`- port 8080${LONG} (u1)`,
		]);
		expect(sectionLines(cutTo(state, "values", 2), "Values")).toEqual([
			`- user bob${LONG} (u3)`,
			"- and 2 more values, u1 to u2: longhaul_recall gives each",
		]);
	});

	it("leaves out files read before files modified, the earliest named first", () => {
		const path = (name: string) => `src/${name}/a-path-longer-than-the-words-that-count-it.ts`;
		const [a, b, c] = [path("a"), path("b"), path("c")];
		const state = stateOf([files([a, b], [c])]);
		expect(sectionLines(cutTo(state, "files", 0), "Files")).toEqual([`Modified: ${c}`, `Read: ${a}, ${b}`]);
		expect(sectionLines(cutTo(state, "files", 1), "Files")).toEqual([`Modified: ${c}`, `Read: ${b}, and 1 file more`]);
		expect(sectionLines(cutTo(state, "files", 2), "Files")).toEqual([`Modified: ${c}`, "Read: 2 files left out"]);
		expect(sectionLines(cutTo(state, "files", 3), "Files")).toEqual([
			"Modified: 1 file left out",
			"Read: 2 files left out",
		]);
	});

	it("cuts the World's diff stat first, then its log, its status, then the whole of it", () => {
		const [status, log, diffStat] = [`M a.ts${LONG}`, `abc123 fix${LONG}`, `1 file${LONG}`];
		const world = { taken: true as const, branch: "main", head: "abc123", status, log, diffStat };
		const state = stateOf([worldTaken(1, world)]);
		const fence = (text: string) => ["```", text, "```"];
		const head = ["branch: main", "HEAD: abc123"];
		expect(sectionLines(cutTo(state, "world", 0), "World")).toEqual([
			...head,
			"status:",
			...fence(status),
			"recent log:",
			...fence(log),
			"diff stat:",
			...fence(diffStat),
		]);
		expect(sectionLines(cutTo(state, "world", 2), "World")).toEqual([
			...head,
			"status:",
			...fence(status),
			"(left out to fit summaryChars: recent log, diff stat)",
		]);
		expect(sectionLines(cutTo(state, "world", 3), "World")).toEqual([
			...head,
			"(left out to fit summaryChars: status, recent log, diff stat)",
		]);
		expect(sectionLines(cutTo(state, "world", 4), "World")).toEqual(["(left out to fit summaryChars; git gives it)"]);
		const clean = stateOf([worldTaken(1, { ...world, status: "", diffStat: "" })]);
		expect(sectionLines(cutTo(clean, "world", 1), "World")).toEqual([
			...head,
			"(left out to fit summaryChars: recent log)",
		]);
	});

	it("shows a World not taken by its reason, and a one-line section cut as left out", () => {
		const state = stateOf([worldTaken(1, noWorld(`not a\nrepository${LONG}`)), objective(`ship it${LONG}`)]);
		expect(sectionLines(cutTo(state, "world", 0), "World")).toEqual([`(not taken: not a repository${LONG})`]);
		expect(sectionLines(cutTo(state, "world", 1), "World")).toEqual(["(left out to fit summaryChars)"]);
		expect(sectionLines(cutTo(state, "objective", 0), "Objective")).toEqual([`ship it${LONG}`]);
		expect(sectionLines(cutTo(state, "objective", 1), "Objective")).toEqual(["(left out to fit summaryChars)"]);
	});

	it("under a limit the rules alone pass, shows the heading and rules alone and says every item was cut", () => {
		const { text, capFit } = renderSummary(errors, 10);
		expect(text).toBe(
			"# Session state (Longhaul)\nRules are the user's own words, quoted verbatim. Ids (C, E) point into the ledger.\n\n## Rules in force\nR1\n> never push to main\n(u1)\n",
		);
		expect(capFit).toMatchObject({ limit: 10, chars: text.length, fits: false, rulesAndNowChars: text.length });
		expect(capFit.cut.openErrors).toBe(3);
	});
});

describe("the state a pass's prompt shows", () => {
	const state = stateOf([objective("ship v1"), note("port 5433"), worldTaken(1, gitWorld({ head: "abc123" }))]);

	it("is the summary without its heading and its World: the prompt shows the span's own snapshot", () => {
		const body = summaryBody(state);
		const { text } = renderSummary({ ...state, world: null });
		expect(body.startsWith("## Objective\nship v1\n\n## Rules in force\n")).toBe(true);
		expect(text.endsWith(body)).toBe(true);
		expect(renderSummary(state).text).toContain("## World\n");
		expect(body).not.toContain("## World");
		expect(body).not.toContain("Session state (Longhaul)");
	});

	it("is cut to the limit it is given, as the summary is", () => {
		const limit = renderSummary({ ...state, world: null }).text.length - 1;
		const [heading, ...sections] = renderSummary({ ...state, world: null }, limit).text.split("\n\n");
		expect(heading).toMatch(/^# Session state/);
		expect(summaryBody(state, limit)).toBe(sections.join("\n\n"));
		expect(summaryBody(state, limit).length).toBeLessThan(summaryBody(state).length);
	});
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/events/index.js";
import { COMMAND_CHARS, cutCommand } from "../../../src/projections/command-text.js";
import { renderSummary, spansView, stateObject } from "../../../src/projections/index.js";
import { SHOWN_VALUES, shownValues } from "../../../src/projections/shown-values.js";
import { foldEntries, initialState, type State } from "../../../src/reducers/index.js";
import { params } from "../../properties/laws.js";
import { applied } from "../../support/applied.js";
import { longhaulDetails } from "../../support/entries.js";
import { command, errorRecorded, spanClosed, value } from "../../support/events.js";

/** Given these events, the state they fold to. */
const given = (...events: Event[]): State => applied(initialState, events);
const lines = (state: State): string[] => {
	const text = renderSummary(state).text;
	const section = text.split("## Values\n")[1] ?? "";
	return (section.split("\n\n")[0] ?? "").split("\n").filter((line) => line !== "");
};

describe("values as the state shows them", () => {
	it("name their kind and their command's text: a hash git printed is a commit", () => {
		const state = given(command("C3", "git log --oneline -3"), value("hash", "1507f8b", "C3"));
		expect(lines(state)).toEqual(["- commit 1507f8b (git log --oneline -3, C3)"]);
		expect(stateObject(state).values).toEqual([
			{ kind: "commit", value: "1507f8b", source: "C3", command: "git log --oneline -3" },
		]);
	});

	it("keep the kind code gave a hash no git command printed, and the model's own name for its values", () => {
		const state = given(
			command("C1", "sha256sum dist/app.js"),
			value("hash", "9f86d08", "C1"),
			value("dev server port", "5173", "u4"),
		);
		expect(lines(state)).toEqual(["- dev server port 5173 (u4)", "- hash 9f86d08 (sha256sum dist/app.js, C1)"]);
	});

	it("show no value twice: the newest command that printed it is the source", () => {
		const state = given(
			command("C37", "git log --oneline -1"),
			command("C39", "git show --stat HEAD"),
			value("hash", "934c2bc", "C37"),
			value("hash", "934c2bc", "C39"),
			value("last commit", "934c2bc", "u9"),
		);
		expect(shownValues(state).map((v) => [v.value, v.source])).toEqual([["934c2bc", "u9"]]);
	});

	it("count a version with a leading v as the same value as one without", () => {
		const state = given(
			command("C88", "npm run check"),
			command("C89", "git tag --list"),
			value("version", "0.14.2", "C88"),
			value("version", "v0.14.2", "C89"),
			value("version", "v2", "C89"),
			value("version", "2", "C89"),
		);
		expect(shownValues(state).map((v) => v.value)).toEqual(["2", "v2", "v0.14.2"]);
	});

	it("a later value of the same kind from the same command text replaces the earlier; other commands keep theirs", () => {
		const state = given(
			command("C1", "git rev-parse HEAD"),
			command("C2", "node --version"),
			command("C3", "git rev-parse HEAD"),
			value("hash", "aaaa111", "C1"),
			value("version", "v20.1.0", "C2"),
			value("hash", "bbbb222", "C3"),
		);
		expect(shownValues(state).map((v) => v.value)).toEqual(["bbbb222", "v20.1.0"]);
	});

	it("keeps every value of a kind that one run printed (two versions of one run)", () => {
		const state = given(command("C1", "npm ls"), value("version", "0.0.3", "C1"), value("version", "0.14.2", "C1"));
		expect(shownValues(state).map((v) => v.value)).toEqual(["0.14.2", "0.0.3"]);
	});

	it("leaves out the timings and counts code read from a single run, but not one the model named", () => {
		const state = given(
			command("C1", "npm test"),
			value("duration", "117ms", "C1"),
			value("count", "49 errors", "C1"),
			value("port", "8787", "C1"),
			value("full test run time", "117ms", "u3"),
		);
		expect(shownValues(state).map((v) => [v.kind, v.value])).toEqual([
			["full test run time", "117ms"],
			["port", "8787"],
		]);
	});

	it("are at most SHOWN_VALUES, newest first, while the stored values stay as they were", () => {
		const events = Array.from({ length: 30 }, (_, i) => value(`note ${i}`, `${100 + i}`, "u1"));
		const state = given(...events);
		expect(state.values).toHaveLength(30);
		const shown = shownValues(state);
		expect(shown).toHaveLength(SHOWN_VALUES);
		expect(shown[0]?.value).toBe("129");
		expect(shown.at(-1)?.value).toBe(`${130 - SHOWN_VALUES}`);
	});

	it("under the summary cap, the oldest shown values go first", () => {
		const events = Array.from({ length: 20 }, (_, i) => value(`note ${i}`, `${100 + i}`, "u1"));
		const state = given(...events);
		const full = renderSummary(state, 100_000).text;
		const cut = renderSummary(state, full.length - 20);
		expect(cut.capFit.cut.values).toBeGreaterThan(0);
		expect(cut.text).toContain("- note 19 119 (u1)");
		expect(cut.text).not.toContain("- note 0 100 (u1)");
	});

	it("show a command's text on one line, cut to COMMAND_CHARS with an ellipsis", () => {
		const long = `grep -rn "something" ${"packages/a/".repeat(10)}\nfile.ts`;
		const cut = cutCommand(long);
		expect(cut).toHaveLength(COMMAND_CHARS);
		expect(cut.endsWith("…")).toBe(true);
		expect(cut).not.toContain("\n");
		expect(cutCommand("git  status\n")).toBe("git status");
		expect(cutCommand("cd /Users/me/pi-mono && git log --oneline -3")).toBe("git log --oneline -3");
		expect(cutCommand("cd 'my dir'; cd sub && npm test")).toBe("npm test");
		expect(cutCommand("cd packages/tui")).toBe("cd packages/tui");
		expect(cutCommand("cd /repo && ")).toBe("cd /repo &&");
		expect(cutCommand(`${"a".repeat(COMMAND_CHARS - 2)}😀tail`)).toBe(`${"a".repeat(COMMAND_CHARS - 2)}…`);
	});

	it("cuts at COMMAND_CHARS exactly, never after the first half of any surrogate pair, and keeps other wide characters", () => {
		const a = (n: number) => "a".repeat(n);
		expect(cutCommand(a(COMMAND_CHARS))).toBe(a(COMMAND_CHARS));
		expect(cutCommand(a(COMMAND_CHARS + 1))).toBe(`${a(COMMAND_CHARS - 1)}…`);
		for (const pair of ["\u{10000}", "\u{10FFFF}"])
			expect(cutCommand(`${a(COMMAND_CHARS - 2)}${pair}tail`)).toBe(`${a(COMMAND_CHARS - 2)}…`);
		expect(cutCommand(`${a(COMMAND_CHARS - 2)}\uff71\uff72\uff73`)).toBe(`${a(COMMAND_CHARS - 2)}\uff71…`);
	});

	it("keeps a leading cd with nothing after it", () => {
		expect(cutCommand("cd packages/tui &&")).toBe("cd packages/tui &&");
		expect(cutCommand("cd a; cd b;")).toBe("cd b;");
	});

	it("a value whose command the state does not hold shows its id alone and is never replaced", () => {
		const state = given(value("port", "3000", "C8"), value("port", "3001", "C9"));
		expect(lines(state)).toEqual(["- port 3001 (C9)", "- port 3000 (C8)"]);
	});
});

describe("open errors", () => {
	const raised: Event[] = [
		command("C5", 'npm run check -- --project "packages/coding-agent/tsconfig.json"', 2),
		errorRecorded("E2", "error TS2739", "C5"),
	];

	it("show their command's text, cut, in the summary", () => {
		expect(renderSummary(given(...raised)).text).toContain(
			'- E2 (bash C5: npm run check -- --project "packages/coding-agent/tsconfig.…, span 1): error TS2739',
		);
	});

	it("show their command's text in --spans", () => {
		const close: Event = spanClosed(1);
		const details = longhaulDetails(1, [...raised, close]);
		const folded = foldEntries([
			{ type: "session", version: 3, id: "s" },
			{ type: "compaction", id: "c1", parentId: null, summary: "s", firstKeptEntryId: "c1", tokensBefore: 1, details },
		]);
		expect(spansView(folded)).toContain('E2 (bash C5: npm run check -- --project "packages/');
	});
});

describe("values: kinds and sameness", () => {
	it("only a hash a git command printed is a commit; another kind from git keeps its own", () => {
		const state = given(command("C1", "git tag --list"), value("version", "0.14.2", "C1"));
		expect(shownValues(state)).toEqual([{ kind: "version", value: "0.14.2", source: "C1", command: "git tag --list" }]);
	});

	it("the model may name a timing or a count; a later value of the same name from the model replaces the earlier", () => {
		const state = given(
			value("duration", "117ms", "u3"),
			value("dev port", "5173", "u3"),
			value("dev port", "5174", "u5"),
			value("count", "3 files", "u5"),
		);
		expect(shownValues(state).map((v) => [v.kind, v.value, v.source])).toEqual([
			["count", "3 files", "u5"],
			["dev port", "5174", "u5"],
			["duration", "117ms", "u3"],
		]);
	});

	it("only a leading v before a version makes two values one: a v inside a value or before a bare number does not", () => {
		const state = given(
			command("C1", "node --version"),
			command("C2", "cat VERSION"),
			value("version", "20.1.0", "C1"),
			value("version", "v20.1.0", "C2"),
			value("tag", "build-1.2", "C1"),
			value("tag", "build-v1.2", "C2"),
		);
		expect(shownValues(state).map((v) => v.value)).toEqual(["build-v1.2", "build-1.2", "v20.1.0"]);
	});
});

describe("an error's origin", () => {
	it("shows its tool's name on one line, each run of blanks one space, none at the ends", () => {
		const state = given(errorRecorded("E1", "broke", null, 1, " my \n tool\t"));
		expect(renderSummary(state).text).toContain("- E1 (my tool, span 1): broke");
	});

	it("names the first command of an id that repeats in a state", () => {
		const first = { id: "C1", command: "npm test", exitCode: 1, span: 1, toolCallId: null, by: "user" } as const;
		const state: State = {
			...initialState,
			commands: [first, { ...first, command: "npm run lint" }],
			errors: [{ id: "E1", tool: "bash", head: "failed", span: 1, command: "C1", fixedBy: null }],
		};
		expect(renderSummary(state).text).toContain("- E1 (bash C1: npm test, span 1): failed");
	});
});

// cutCommand as it stood before it put only a command's start on one line (2026-12-07): the whole text first. The
// oracle.
function wholeCutCommand(text: string): string {
	const leadingCd = /^cd\s+(?:"[^"]*"|'[^']*'|[^\s;&|]+)\s*(?:&&|;)\s*/;
	let line = text.replace(/\s+/g, " ").trim();
	let rest = line.replace(leadingCd, "");
	while (rest !== line && rest !== "") {
		line = rest;
		rest = line.replace(leadingCd, "");
	}
	if (line.length <= COMMAND_CHARS) return line;
	const high = (code: number) => code >= 0xd800 && code <= 0xdbff;
	return `${line.slice(0, high(line.charCodeAt(COMMAND_CHARS - 2)) ? COMMAND_CHARS - 2 : COMMAND_CHARS - 1)}…`;
}

describe("cutCommand on a long command reads its start alone", () => {
	it("leaves out a leading cd of a quoted folder a window cut before its close, as the whole command does", () => {
		// The first window (twice COMMAND_CHARS) ends inside the quotes, where `;` or `&&` would end a bare folder.
		expect(cutCommand(`cd "a;${"b".repeat(114)}" && ls`)).toBe("ls");
		expect(cutCommand(`cd "a && ${"b".repeat(112)}" && ls`)).toBe("ls");
		expect(cutCommand(`cd '&&${"b".repeat(120)}' ; ls`)).toBe("ls");
	});

	it("reads on past a window that ends inside a cd clause, or whose line is only as long as the cut", () => {
		expect(cutCommand(`cd ${"d".repeat(200)} && ls`)).toBe("ls");
		const atTheCut = `${"x".repeat(COMMAND_CHARS)}${" ".repeat(COMMAND_CHARS)}yy`;
		expect(cutCommand(atTheCut)).toBe(`${"x".repeat(COMMAND_CHARS - 1)}…`);
	});

	it("gives what the whole command put on one line gave, leading cds cut anywhere by a window and all", () => {
		const part = fc.oneof(
			fc.constantFrom("cd ", "cd", "cd\n", "'my dir'", '"a b"', "'", '"', " && ", "&&", "&", "; ", ";", "|"),
			fc.constantFrom("npm test", "x", "\ud83d\ude00", "\ud83d", "\n", "\t", "<<EOF\n", "\nEOF"),
			fc.integer({ min: 1, max: 300 }).map((n) => " ".repeat(n)),
			fc.integer({ min: 1, max: 300 }).map((n) => "d".repeat(n)),
		);
		fc.assert(
			fc.property(fc.array(part, { maxLength: 40 }), (parts) => {
				const text = parts.join("");
				expect(cutCommand(text)).toBe(wholeCutCommand(text));
			}),
			params({ numRuns: 4000 }),
		);
	});
});

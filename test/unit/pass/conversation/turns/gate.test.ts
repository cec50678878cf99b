import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import type { Event } from "../../../../../src/events/event.js";
import { ANSWER_BOUNDS } from "../../../../../src/pass/answer/index.js";
import {
	modifiedFileNamed,
	modifiedFiles,
	readExcuse,
	resumeSet,
	unfixedErrors,
	unfixedErrorsPlaced,
} from "../../../../../src/pass/conversation/turns/expectations.js";
import { type GateContext, gateSection, keptPart } from "../../../../../src/pass/conversation/turns/gate.js";
import { command, errorFixed, errorRecorded, files } from "../../../../support/events.js";

const ledger: Event[] = [
	command("C1", "npm test", 1, 1, "t1"),
	errorRecorded("E1", "3 failed", "C1"),
	command("C2", "npm test", 0, 1, "t2"),
	errorFixed("E1", "C2"),
	errorRecorded("E2", "lint failed"),
	files(["README.md"], ["src/parser.ts", "src/parser.ts", "test/a.test.ts"]),
];

const g: GateContext = {
	ledgerIds: new Set(["C1", "C2", "E1", "E2"]),
	modified: modifiedFiles(ledger),
	unfixed: unfixedErrors(ledger),
};

describe("turns mode expectations", () => {
	it("reads the modified files and the errors the span left unfixed from the ledger", () => {
		expect(g.modified).toEqual(["src/parser.ts", "test/a.test.ts"]);
		expect(g.unfixed).toEqual([{ id: "E2", head: "lint failed" }]);
	});

	it("is met by a narrative naming one modified file by path or file name, and when nothing was modified", () => {
		expect(modifiedFileNamed("rewrote parser.ts", g.modified)).toBeUndefined();
		expect(modifiedFileNamed("touched src/parser.ts", g.modified)).toBeUndefined();
		expect(modifiedFileNamed("worked", [])).toBeUndefined();
		expect(modifiedFileNamed("worked on the parser", g.modified)?.check).toBe("modified-file-named");
	});

	it("places an unfixed error by a dead end's evidence or as an open error", () => {
		expect(unfixedErrorsPlaced(["E2"], [], g.unfixed)).toBeUndefined();
		expect(unfixedErrorsPlaced([], ["E2"], g.unfixed)).toBeUndefined();
		expect(unfixedErrorsPlaced(["E1"], [], g.unfixed)?.note).toContain("E2 is not fixed");
	});

	it("wants Now set", () => {
		expect(resumeSet("next: docs")).toBeUndefined();
		expect(resumeSet(undefined)?.check).toBe("resume-set");
	});

	it("takes an excuse of one sentence only", () => {
		expect(readExcuse("resume-set", "Nothing is in progress.")).toEqual(
			E.right({ check: "resume-set", reason: "Nothing is in progress." }),
		);
		expect(E.isLeft(readExcuse("resume-set", "Done. Nothing left."))).toBe(true);
		expect(E.isLeft(readExcuse("resume-set", "   "))).toBe(true);
		expect(E.isLeft(readExcuse("resume-set", "x".repeat(241)))).toBe(true);
	});
});

describe("the turns mode gate", () => {
	it("fails a missing narrative and one over its cap; never excuses them", () => {
		const missing = gateSection({ section: "narrative", narrative: undefined, excuse: "No reason." }, g);
		const long = gateSection({ section: "narrative", narrative: `parser.ts ${"x".repeat(300)}`, excuse: undefined }, g);
		expect(missing.failures.map((f) => f.code)).toEqual(["narrative-missing"]);
		expect(long.failures.map((f) => f.code)).toEqual(["narrative-too-long"]);
		expect(
			keptPart({ section: "narrative", narrative: `parser.ts ${"x".repeat(300)}`, excuse: undefined }, long),
		).toEqual({});
	});

	it("records an excuse only for an expectation the answer does not meet", () => {
		const excused = gateSection({ section: "narrative", narrative: "did things", excuse: "No file mattered." }, g);
		const met = gateSection({ section: "narrative", narrative: "fixed parser.ts", excuse: "No file mattered." }, g);
		expect(excused).toEqual({
			failures: [],
			unmet: [],
			excused: [{ check: "modified-file-named", reason: "No file mattered." }],
		});
		expect(met).toEqual({ failures: [], unmet: [], excused: [] });
	});

	it("fails evidence and open errors the ledger does not know, by item", () => {
		const verdict = gateSection(
			{
				section: "findings",
				decisions: [{ text: "kept it", evidence: ["C2", "C99"] }],
				deadEnds: [{ text: "lint config", evidence: ["E2"] }],
				openErrors: ["E7", "C1"],
				excuse: undefined,
				broken: [],
			},
			g,
		);
		expect(verdict.failures.map((f) => f.item)).toEqual(["decisions[0]:C99", "openErrors:E7", "openErrors:C1"]);
		expect(verdict.unmet).toEqual([]);
	});

	it("keeps a finding whose evidence failed, for acceptance to drop the unknown id", () => {
		const answer = {
			section: "findings" as const,
			decisions: [{ text: "kept it", evidence: ["C99"] }],
			deadEnds: [],
			openErrors: [],
			excuse: undefined,
			broken: [],
		};
		expect(keptPart(answer, gateSection(answer, g))).toEqual({ decisions: answer.decisions, deadEnds: [] });
	});

	it("leaves an absent objective out and wants Now set", () => {
		expect(gateSection({ section: "objective", objective: undefined }, g)).toEqual({
			failures: [],
			unmet: [],
			excused: [],
		});
		expect(gateSection({ section: "now", now: undefined, excuse: undefined }, g).unmet.map((u) => u.check)).toEqual([
			"resume-set",
		]);
	});
});

const noNote = { failures: [], unmet: [], excused: [] };
const cap = (key: "narrative" | "objective" | "now") => ANSWER_BOUNDS[key];
const tooLong = (key: "narrative" | "objective" | "now") => ({
	item: key,
	code: `${key}-too-long`,
	note: `"${key}" is ${cap(key) + 1} characters; its cap is ${cap(key)}: write it shorter`,
});

describe("the turns mode gate, on what models really write", () => {
	it("fails a missing narrative with its note and asks no excuse for it", () => {
		expect(gateSection({ section: "narrative", narrative: undefined, excuse: "Nothing to say." }, g)).toEqual({
			failures: [{ item: "narrative", code: "narrative-missing", note: '"narrative" is missing: give one line' }],
			unmet: [],
			excused: [],
		});
	});

	it("takes a narrative of exactly its cap and fails one a character over, saying by how much", () => {
		const atCap = `parser.ts ${"x".repeat(cap("narrative") - 10)}`;
		expect(gateSection({ section: "narrative", narrative: atCap, excuse: undefined }, g)).toEqual(noNote);
		expect(gateSection({ section: "narrative", narrative: `${atCap}x`, excuse: undefined }, g).failures).toEqual([
			tooLong("narrative"),
		]);
	});

	it("keeps the expectation unmet when the excuse is two sentences, and says why it was refused", () => {
		const verdict = gateSection(
			{ section: "narrative", narrative: "did things", excuse: "No file mattered. The rest was docs." },
			g,
		);
		expect(verdict).toEqual({
			failures: [],
			unmet: [
				{
					check: "modified-file-named",
					note: 'the narrative names none of the files this span modified (src/parser.ts, test/a.test.ts) ("excuse" must be one sentence of at most 240 characters)',
				},
			],
			excused: [],
		});
	});

	it("fails each id the ledger does not know by section and place, its note quoting at most 20 characters", () => {
		const verdict = gateSection(
			{
				section: "findings",
				decisions: [
					{ text: "kept the parser", evidence: ["C2"] },
					{ text: "ran the suite", evidence: ["C1", "the failing npm test run"] },
				],
				deadEnds: [{ text: "lint config", evidence: ["E9"] }],
				openErrors: ["E2: lint failed on src/parser.ts"],
				excuse: undefined,
				broken: [],
			},
			g,
		);
		expect(verdict.failures).toEqual([
			{
				item: "decisions[1]:the failing npm test run",
				code: "unknown-id",
				note: 'decisions[1] cites "the failing npm test", which is not in the ledger',
			},
			{ item: "deadEnds[0]:E9", code: "unknown-id", note: 'deadEnds[0] cites "E9", which is not in the ledger' },
			{
				item: "openErrors:E2: lint failed on src/parser.ts",
				code: "unknown-id",
				note: '"openErrors" names "E2: lint failed on s", which is not an error in the ledger',
			},
		]);
		expect(verdict.unmet).toEqual([
			{
				check: "unfixed-error-placed",
				note: 'E2 is not fixed: cite each in a dead end\'s evidence or list it in "openErrors"',
			},
		]);
	});

	it("adds no key for a text the answer left out, whatever the verdict", () => {
		expect(keptPart({ section: "narrative", narrative: undefined, excuse: undefined }, noNote)).toStrictEqual({});
		expect(keptPart({ section: "objective", objective: undefined }, noNote)).toStrictEqual({});
		expect(keptPart({ section: "now", now: undefined, excuse: "Nothing is left." }, noNote)).toStrictEqual({});
	});

	it("keeps an objective and a Now within their caps and drops them a character over", () => {
		for (const key of ["objective", "now"] as const) {
			const within = "y".repeat(cap(key));
			const over = `${within}y`;
			const answer = (text: string) =>
				key === "objective" ? { section: key, objective: text } : { section: key, now: text, excuse: undefined };
			expect(gateSection(answer(within), g)).toEqual(noNote);
			expect(keptPart(answer(within), gateSection(answer(within), g))).toStrictEqual({ [key]: within });
			const verdict = gateSection(answer(over), g);
			expect(verdict.failures).toEqual([tooLong(key)]);
			expect(keptPart(answer(over), verdict)).toStrictEqual({});
		}
	});

	it("keeps a section's dead ends as well as its decisions", () => {
		const answer = {
			section: "findings" as const,
			decisions: [],
			deadEnds: [{ text: "lint config", evidence: ["E2"] }],
			openErrors: [],
			excuse: undefined,
			broken: [],
		};
		expect(keptPart(answer, gateSection(answer, g))).toEqual({ decisions: [], deadEnds: answer.deadEnds });
	});
});

import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import {
	EXCUSE_CHARS,
	modifiedFileNamed,
	readExcuse,
	resumeSet,
	unfixedErrorsPlaced,
} from "../../../../../src/pass/conversation/turns/expectations.js";

const tooLong = `"excuse" must be one sentence of at most ${EXCUSE_CHARS} characters`;

describe("what each section expects, on what models really write", () => {
	it("is met by the file name of a deep path, on either separator", () => {
		expect(modifiedFileNamed("tightened gate.ts", ["src/pass/conversation/gate.ts"])).toBeUndefined();
		expect(modifiedFileNamed("tightened gate.ts", ["src\\pass\\gate.ts"])).toBeUndefined();
	});

	it("reads a directory the span touched by its last name, not by its trailing slash", () => {
		expect(modifiedFileNamed("cleaned dist before the build", ["dist/"])).toBeUndefined();
		expect(modifiedFileNamed("rebuilt the bundle", ["dist/"])).toEqual({
			check: "modified-file-named",
			note: "the narrative names none of the files this span modified (dist/)",
		});
	});

	it("names at most five of the modified files in its note", () => {
		const modified = ["a.ts", "b.ts", "c.ts", "d.ts", "e.ts", "f.ts", "g.ts"];
		expect(modifiedFileNamed("refactored the module", modified)?.note).toBe(
			"the narrative names none of the files this span modified (a.ts, b.ts, c.ts, d.ts, e.ts)",
		);
	});

	it("names every unfixed error left unplaced, one or several", () => {
		const unfixed = [
			{ id: "E2", head: "lint failed" },
			{ id: "E3", head: "tsc: 1 error" },
			{ id: "E4", head: "EACCES" },
		];
		expect(unfixedErrorsPlaced(["E3"], [], unfixed)).toEqual({
			check: "unfixed-error-placed",
			note: 'E2, E4 are not fixed: cite each in a dead end\'s evidence or list it in "openErrors"',
		});
		expect(unfixedErrorsPlaced(["E3"], ["E2"], unfixed)?.note).toBe(
			'E4 is not fixed: cite each in a dead end\'s evidence or list it in "openErrors"',
		);
	});

	it("says what an empty Now lacks", () => {
		expect(resumeSet(undefined)).toEqual({
			check: "resume-set",
			note: '"now" is empty: say what is in progress and what comes next',
		});
	});

	it(`takes an excuse of exactly ${EXCUSE_CHARS} characters, trimmed, and refuses one a character longer`, () => {
		const sentence = `${"w".repeat(EXCUSE_CHARS - 1)}.`;
		expect(readExcuse("resume-set", `  ${sentence}\n`)).toEqual(E.right({ check: "resume-set", reason: sentence }));
		expect(readExcuse("resume-set", `w${sentence}`)).toEqual(E.left(tooLong));
	});

	it("refuses an empty excuse, one on two lines and two sentences after a closing quote, each with its note", () => {
		expect(readExcuse("modified-file-named", " \n\t")).toEqual(
			E.left('"excuse" is empty: give one sentence, or meet the check'),
		);
		expect(readExcuse("modified-file-named", "Only docs changed\nand tests")).toEqual(E.left(tooLong));
		expect(readExcuse("modified-file-named", "The user said \u201cstop.\u201d Nothing changed")).toEqual(
			E.left(tooLong),
		);
	});
});

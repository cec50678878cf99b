import { describe, expect, it } from "vitest";
import { type Finder, findAll, type SecretSpan } from "../../../../src/pass/secrets/span.js";

/** A finder that takes every `=` of the text for the start of a one-character secret, one `=` a step. */
const equalsSigns: Finder = function* (text, into) {
	for (let at = text.indexOf("="); at >= 0; at = text.indexOf("=", at + 1)) {
		yield;
		into.push({ start: at + 1, end: at + 2, kind: "after =" });
	}
};

/** A finder that reads every anchor first and pushes its one find only after its last step. */
const lastStepOnly: Finder = function* (text, into) {
	for (const _line of text.split("\n")) yield;
	into.push({ start: 0, end: text.length, kind: "whole" });
};

describe("findAll: every step of a finder taken at once", () => {
	it("collects what each step found, in the order the steps found it", () => {
		const spans: SecretSpan[] = findAll(equalsSigns, "A=1\nB=2\nC=3");
		expect(spans).toEqual([
			{ start: 2, end: 3, kind: "after =" },
			{ start: 6, end: 7, kind: "after =" },
			{ start: 10, end: 11, kind: "after =" },
		]);
	});

	it("runs the finder to its end, so a find pushed after the last step is kept", () => {
		expect(findAll(lastStepOnly, "one\ntwo\nthree")).toEqual([{ start: 0, end: 13, kind: "whole" }]);
	});

	it("gives nothing for a text in which the finder finds nothing", () => {
		expect(findAll(equalsSigns, "no assignment here")).toEqual([]);
	});
});

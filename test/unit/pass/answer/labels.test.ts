import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { formatLabel, MAX_TARGETS, parseLabel, withTargets } from "../../../../src/pass/answer/labels.js";

describe("label strings", () => {
	it.each([
		["rule", { kind: "rule", lifts: [] }],
		["not a rule", { kind: "not-rule" }],
		["one-off", { kind: "one-off" }],
		["lifts R2", { kind: "lifts", targets: ["R2"] }],
		["lifts u5, R6", { kind: "lifts", targets: ["u5", "R6"] }],
		["rule and lifts R1, R6", { kind: "rule", lifts: ["R1", "R6"] }],
	])("reads %j", (text, label) => {
		expect(parseLabel(text)).toEqual(E.right(label));
	});

	it("reads any case and spacing, and ids in either case", () => {
		expect(parseLabel("  Rule ")).toEqual(E.right({ kind: "rule", lifts: [] }));
		expect(parseLabel("NOT  A RULE")).toEqual(E.right({ kind: "not-rule" }));
		expect(parseLabel("Lifts r2 and U5")).toEqual(E.right({ kind: "lifts", targets: ["R2", "u5"] }));
		expect(parseLabel("rule & lift R1")).toEqual(E.right({ kind: "rule", lifts: ["R1"] }));
	});

	it("names each target once", () => {
		expect(parseLabel("lifts R1, R1, r1")).toEqual(E.right({ kind: "lifts", targets: ["R1"] }));
	});

	it("refuses anything else, naming the forms", () => {
		for (const text of ["rules", "lifts", "lifts rule 2", "lifts R0", "lifts C3", "maybe", "lifts R2 (no longer)"]) {
			const parsed = parseLabel(text);
			expect(E.isLeft(parsed), text).toBe(true);
		}
		const left = parseLabel("maybe");
		expect(E.isLeft(left) && left.left).toContain("`not a rule`");
	});

	it(`refuses more than ${MAX_TARGETS} targets`, () => {
		const many = Array.from({ length: MAX_TARGETS + 1 }, (_, i) => `R${i + 1}`).join(", ");
		expect(E.isLeft(parseLabel(`lifts ${many}`))).toBe(true);
	});

	it("writes each label in the canonical form it reads back", () => {
		for (const text of ["rule", "not a rule", "one-off", "lifts R2", "lifts u5, R6", "rule and lifts R1, R6"]) {
			const parsed = parseLabel(text);
			expect(E.isRight(parsed) && formatLabel(parsed.right)).toBe(text);
		}
	});

	it("adds targets to a rule's or a lift's lifts, and leaves other labels alone", () => {
		expect(withTargets({ kind: "rule", lifts: [] }, ["u2"])).toEqual({ kind: "rule", lifts: ["u2"] });
		expect(withTargets({ kind: "lifts", targets: ["R1"] }, ["R1", "u4"])).toEqual({
			kind: "lifts",
			targets: ["R1", "u4"],
		});
		expect(withTargets({ kind: "not-rule" }, ["u2"])).toEqual({ kind: "not-rule" });
	});
});

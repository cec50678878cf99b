import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import {
	formatLabel,
	LABEL_FORMS,
	liftTargets,
	MAX_TARGETS,
	parseLabel,
	withTargets,
} from "../../../../src/pass/answer/labels.js";

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

	it("reads labels in the odd case and spacing a model writes", () => {
		expect(parseLabel("Not a Rule")).toEqual(E.right({ kind: "not-rule" }));
		expect(parseLabel("One  Off")).toEqual(E.right({ kind: "one-off" }));
		expect(parseLabel("lifts r3 and U5")).toEqual(E.right({ kind: "lifts", targets: ["R3", "u5"] }));
		expect(parseLabel("lifts R1,")).toEqual(E.right({ kind: "lifts", targets: ["R1"] }));
		expect(parseLabel("Rule and lifts u12; R40")).toEqual(E.right({ kind: "rule", lifts: ["u12", "R40"] }));
	});

	it("names what is wrong with a label outside the list", () => {
		expect(parseLabel("lifts ,")).toEqual(E.left("no target named"));
		expect(parseLabel("lifts rule 2")).toEqual(E.left("`rule 2` is not R<n> or u<n>"));
		expect(parseLabel("rule and lifts R2, C3")).toEqual(E.left("`c3` is not R<n> or u<n>"));
		expect(parseLabel("  maybe ")).toEqual(E.left(`\`maybe\` is not one of ${LABEL_FORMS}`));
		const long = `probably ${"x".repeat(90)}`;
		expect(parseLabel(long)).toEqual(E.left(`\`${long.slice(0, 60)}\` is not one of ${LABEL_FORMS}`));
	});

	it(`reads ${MAX_TARGETS} targets, and names the bound past them`, () => {
		const ids = (n: number) => Array.from({ length: n }, (_, i) => `R${i + 1}`);
		expect(parseLabel(`lifts ${ids(MAX_TARGETS).join(", ")}`)).toEqual(
			E.right({ kind: "lifts", targets: ids(MAX_TARGETS) }),
		);
		expect(parseLabel(`lifts ${ids(MAX_TARGETS + 1).join(", ")}`)).toEqual(E.left(`more than ${MAX_TARGETS} targets`));
	});

	it("gives the targets a label lifts: a rule's lifts, a lift's targets, none for the others", () => {
		expect(liftTargets({ kind: "rule", lifts: ["R1"] })).toEqual(["R1"]);
		expect(liftTargets({ kind: "lifts", targets: ["u4", "R2"] })).toEqual(["u4", "R2"]);
		expect(liftTargets({ kind: "not-rule" })).toEqual([]);
		expect(liftTargets({ kind: "one-off" })).toEqual([]);
	});
});

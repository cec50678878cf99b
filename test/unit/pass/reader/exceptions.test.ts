import { describe, expect, it } from "vitest";
import { EXCEPTIONS } from "../../../../src/pass/reader/exceptions.js";
import { readsAsStandingRule } from "../../../../src/pass/reader/standing-rules.js";

describe("the reader's named exceptions", () => {
	it.each(EXCEPTIONS.map((row) => [row.name, row] as const))(
		"%s: catches its example, lets its like through",
		(_, row) => {
			expect(readsAsStandingRule(row.example)).toBe(false);
			expect(readsAsStandingRule(row.unlike)).toBe(true);
		},
	);

	it.each(EXCEPTIONS.map((row) => [row.name, row] as const))(
		"%s: without it, its example would read as a rule",
		(_, row) => {
			const others = EXCEPTIONS.filter((other) => other !== row);
			expect(readsAsStandingRule(row.example, others)).toBe(true);
		},
	);

	it("names each row once", () => {
		expect(new Set(EXCEPTIONS.map((row) => row.name)).size).toBe(EXCEPTIONS.length);
	});
});

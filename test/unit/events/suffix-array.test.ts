import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { suffixArray } from "../../../src/events/suffix-array.js";
import { params } from "../../properties/laws.js";

/** The suffixes' offsets sorted by comparing the suffixes themselves: JavaScript compares strings by code unit. */
function sortedSuffixes(text: string): number[] {
	return Array.from({ length: text.length }, (_, i) => i).sort((a, b) => {
		const x = text.slice(a);
		const y = text.slice(b);
		return x < y ? -1 : x > y ? 1 : 0;
	});
}

describe("the suffix array", () => {
	it("orders a text's suffixes as sorting the suffixes themselves does, periodic and astral texts too", () => {
		const text = fc.oneof(
			fc.string({ unit: fc.constantFrom("a", "b", "ab", "aab", " ", "\u201c"), maxLength: 60 }),
			fc.string({ unit: fc.constantFrom("a", "\uffff", "\u0000", "😀", "\ud83d"), maxLength: 40 }),
			fc.nat({ max: 80 }).map((n) => "a".repeat(n)),
			fc.string({ maxLength: 50 }),
		);
		fc.assert(
			fc.property(text, (t) => {
				expect([...suffixArray(t)]).toEqual(sortedSuffixes(t));
			}),
			params({ numRuns: 2000 }),
		);
	});

	it("orders a shorter suffix before a longer one it begins, and is empty for an empty text", () => {
		expect([...suffixArray("banana")]).toEqual([5, 3, 1, 0, 4, 2]);
		expect([...suffixArray("aaaa")]).toEqual([3, 2, 1, 0]);
		expect([...suffixArray("")]).toEqual([]);
		expect([...suffixArray("b")]).toEqual([0]);
	});
});

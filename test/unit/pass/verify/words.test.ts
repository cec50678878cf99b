import { describe, expect, it } from "vitest";
import { occurrences, onWordBoundaries, trimRegion } from "../../../../src/pass/verify/words.js";

const at = (text: string, needle: string) => {
	const start = text.indexOf(needle);
	return { start, end: start + needle.length };
};

describe("word boundaries", () => {
	it("accepts words that start and end at word boundaries", () => {
		expect(onWordBoundaries("please never use tabs.", at("please never use tabs.", "never use tabs"))).toBe(true);
	});

	it("refuses words that start inside a word", () => {
		expect(onWordBoundaries("never use tabs", at("never use tabs", "ever use tabs"))).toBe(false);
	});

	it("refuses words that end inside a word", () => {
		expect(onWordBoundaries("never use tabs", at("never use tabs", "never use ta"))).toBe(false);
	});

	it("treats letters outside ASCII as word characters", () => {
		expect(onWordBoundaries("nie Tabulatoren benützen", at("nie Tabulatoren benützen", "nie Tabulatoren benü"))).toBe(
			false,
		);
		expect(onWordBoundaries("nie Tabulatoren benützen", at("nie Tabulatoren benützen", "Tabulatoren benützen"))).toBe(
			true,
		);
	});

	it("accepts words that begin or end with punctuation next to a word", () => {
		expect(onWordBoundaries("say DRY:now", at("say DRY:now", "DRY:"))).toBe(true);
	});

	it("finds every occurrence inside the region only", () => {
		expect(occurrences("ab ab ab", "ab", { start: 1, end: 8 })).toEqual([
			{ start: 3, end: 5 },
			{ start: 6, end: 8 },
		]);
		expect(occurrences("ab", "", { start: 0, end: 2 })).toEqual([]);
	});

	it("trims whitespace from both ends of a region", () => {
		expect(trimRegion("  x y \n", { start: 0, end: 7 })).toEqual({ start: 2, end: 5 });
	});
});

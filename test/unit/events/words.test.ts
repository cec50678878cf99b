import { describe, expect, it } from "vitest";
import { trimRegion } from "../../../src/events/user-text.js";
import { looseOccurrences, occurrences, onWordBoundaries } from "../../../src/events/words.js";

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

	it("refuses an empty stretch, even between two words", () => {
		expect(onWordBoundaries("a b", { start: 1, end: 1 })).toBe(false);
	});

	it("reads a letter outside the basic plane before the words as one character of a word", () => {
		for (const letter of ["\u{1D400}", "\u{10000}", "\u{1D7FF}"]) {
			const text = `${letter}bc`;
			expect(onWordBoundaries(text, { start: 2, end: 4 })).toBe(false);
			expect(onWordBoundaries(`${letter} bc`, { start: 3, end: 5 })).toBe(true);
		}
	});

	it("reads a letter just below the surrogates before the words as a letter", () => {
		expect(onWordBoundaries("a\uff42c", { start: 2, end: 3 })).toBe(false);
	});

	it("finds no occurrence that runs past the region's end", () => {
		expect(occurrences("ab ab", "ab", { start: 0, end: 3 })).toEqual([{ start: 0, end: 2 }]);
	});

	it("trims a region of only whitespace to an empty region at its end", () => {
		expect(trimRegion("    ", { start: 0, end: 2 })).toEqual({ start: 2, end: 2 });
	});
});

describe("looseOccurrences", () => {
	const all = (text: string) => ({ start: 0, end: text.length });

	it("matches a run of whitespace with any other run, and gives the user's characters back", () => {
		const text = "you can starta  new session,\n\npick up";
		const [found] = looseOccurrences(text, "starta new session, pick", all(text));
		expect(found === undefined ? "" : text.slice(found.start, found.end)).toBe("starta  new session,\n\npick");
	});

	it("matches any quote mark with any other: curly, low, guillemets and straight", () => {
		const text = "call it \u201emain-new\u201c and don\u2019t touch \u00abmain\u00bb";
		const [found] = looseOccurrences(text, `call it "main-new" and don't touch "main"`, all(text));
		expect(found).toEqual(all(text));
	});

	it("finds nothing for other words, nor for whitespace where the user wrote none", () => {
		const text = "never use tabs";
		expect(looseOccurrences(text, "never use spaces", all(text))).toEqual([]);
		expect(looseOccurrences(text, "nev er", all(text))).toEqual([]);
		expect(looseOccurrences(text, " ", all(text))).toHaveLength(2);
	});

	it("finds every place, inside the region only", () => {
		const text = "a  b a b a\tb";
		expect(looseOccurrences(text, "a b", all(text))).toEqual([
			{ start: 0, end: 4 },
			{ start: 5, end: 8 },
			{ start: 9, end: 12 },
		]);
		expect(looseOccurrences(text, "a b", { start: 1, end: 9 })).toEqual([{ start: 5, end: 8 }]);
	});
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Region, trimRegion } from "../../../src/events/user-text.js";
import {
	looseAnchors,
	looseFinder,
	looseIndex,
	looseSearch,
	occurrences,
	onWordBoundaries,
} from "../../../src/events/words.js";
import { params } from "../../properties/laws.js";

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

describe("looseFinder", () => {
	const all = (text: string) => ({ start: 0, end: text.length });

	it("matches a run of whitespace with any other run, and gives the user's characters back", () => {
		const text = "you can starta  new session,\n\npick up";
		const [found] = looseFinder("starta new session, pick")(text, all(text));
		expect(found === undefined ? "" : text.slice(found.start, found.end)).toBe("starta  new session,\n\npick");
	});

	it("matches any quote mark with any other: curly, low, guillemets and straight", () => {
		const text = "call it \u201emain-new\u201c and don\u2019t touch \u00abmain\u00bb";
		const [found] = looseFinder(`call it "main-new" and don't touch "main"`)(text, all(text));
		expect(found).toEqual(all(text));
	});

	it("finds nothing for other words, nor for whitespace where the user wrote none", () => {
		const text = "never use tabs";
		expect(looseFinder("never use spaces")(text, all(text))).toEqual([]);
		expect(looseFinder("nev er")(text, all(text))).toEqual([]);
		expect(looseFinder(" ")(text, all(text))).toHaveLength(2);
	});

	it("anchors words on their stretches with no blank and no quote mark, longest first, each once", () => {
		expect(looseAnchors("never  use \u201ctabs\u201d here")).toEqual(["never", "tabs", "here", "use"]);
		expect(looseAnchors("a bb a ccc")).toEqual(["ccc", "bb", "a"]);
		expect(looseAnchors("ab\u00abcd")).toEqual(["ab", "cd"]);
		expect(looseAnchors(" \u201c ")).toEqual([]);
	});

	it("finds every place, inside the region only", () => {
		const text = "a  b a b a\tb";
		expect(looseFinder("a b")(text, all(text))).toEqual([
			{ start: 0, end: 4 },
			{ start: 5, end: 8 },
			{ start: 9, end: 12 },
		]);
		expect(looseFinder("a b")(text, { start: 1, end: 9 })).toEqual([{ start: 5, end: 8 }]);
	});
});

// The matchers as they stood before they were made linear (2026-12-07), as the oracle: `indexOf` again from each
// match plus one, which reads the needle once a match, and a periodic text matches at every offset.
function oldOccurrences(text: string, needle: string, within: Region): Region[] {
	const found: Region[] = [];
	if (needle === "") return found;
	let at = text.indexOf(needle, within.start);
	while (at >= 0 && at + needle.length <= within.end) {
		found.push({ start: at, end: at + needle.length });
		at = text.indexOf(needle, at + 1);
	}
	return found;
}

const OLD_QUOTE_MARK = /["'`\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a]/u;

function oldLoose(text: string, within: Region): { text: string; starts: number[]; ends: number[] } {
	let out = "";
	const starts: number[] = [];
	const ends: number[] = [];
	let inRun = false;
	for (let i = within.start; i < within.end; i++) {
		const char = text.charAt(i);
		const space = /\s/u.test(char);
		if (space && inRun) {
			ends[ends.length - 1] = i + 1;
			continue;
		}
		inRun = space;
		out += space ? " " : OLD_QUOTE_MARK.test(char) ? '"' : char;
		starts.push(i);
		ends.push(i + 1);
	}
	return { text: out, starts, ends };
}

function oldLooseOccurrences(text: string, needle: string, within: Region): Region[] {
	const hay = oldLoose(text, within);
	const pin = oldLoose(needle, { start: 0, end: needle.length }).text;
	const found: Region[] = [];
	if (pin === "") return found;
	let at = hay.text.indexOf(pin);
	while (at >= 0) {
		const start = hay.starts[at];
		const end = hay.ends[at + pin.length - 1];
		if (start !== undefined && end !== undefined) found.push({ start, end });
		at = hay.text.indexOf(pin, at + 1);
	}
	return found;
}

/** Texts of few letters in runs, so needles match often and overlap (periodic text), with blanks and quote marks. */
const periodic = fc
	.array(fc.constantFrom("a", "a", "b", "ab", "aab", " ", "\n\t", '"', "\u201c", "\u00ab"), { maxLength: 40 })
	.map((parts) => parts.join(""));

/** A text, a needle cut from it or made like it, and a region of the text (empty or reversed ones too). */
const searched = fc
	.tuple(periodic, fc.nat(), fc.nat(), fc.nat(), fc.nat(), fc.boolean(), periodic)
	.map(([text, a, b, c, d, cut, other]) => {
		const [from, to] = [a % (text.length + 1), b % (text.length + 1)].sort((x, y) => x - y);
		const needle = cut ? text.slice(from ?? 0, to) : other.slice(0, 1 + (c % 6));
		return { text, needle, within: { start: c % (text.length + 1), end: d % (text.length + 2) } };
	});

describe("the matchers of a user's words, in time linear in the text", () => {
	it("find verbatim every place the search from each match plus one found", () => {
		fc.assert(
			fc.property(searched, ({ text, needle, within }) => {
				expect(occurrences(text, needle, within)).toEqual(oldOccurrences(text, needle, within));
			}),
			params({ numRuns: 3000 }),
		);
	});

	it("find loosely, in a stretch or in the whole text, every place the old loose search found", () => {
		fc.assert(
			fc.property(searched, ({ text, needle, within }) => {
				expect(looseFinder(needle)(text, within)).toEqual(oldLooseOccurrences(text, needle, within));
				const whole = { start: 0, end: text.length };
				expect(looseSearch(text)(needle)).toEqual(oldLooseOccurrences(text, needle, whole));
			}),
			params({ numRuns: 3000 }),
		);
	});

	it("say so for every stretch and every needle cut from short texts, each run of suffixes and each edge of a stretch", () => {
		const texts = ["ab ab ab ab", "aaaaaaaa", "a  b\ta  b", "ba ab ba", '\u201cab" ab', "abcabcab"];
		const missed: string[] = [];
		for (const text of texts) {
			const cuts = new Set<string>();
			for (let i = 0; i < text.length; i++) for (let j = i + 1; j <= text.length; j++) cuts.add(text.slice(i, j));
			for (let start = 0; start <= text.length; start++)
				for (let end = start; end <= text.length; end++) {
					const holds = looseIndex(text, [{ start, end }]);
					for (const needle of cuts) {
						const inside = oldLooseOccurrences(text, needle, { start: 0, end: text.length }).some(
							(found) => found.start >= start && found.end <= end,
						);
						if (holds(needle) !== inside)
							missed.push(`${JSON.stringify(text)} [${start}, ${end}) ${JSON.stringify(needle)}`);
					}
				}
		}
		expect(missed).toEqual([]);
	});

	it("say a needle stands loosely in the stretches exactly when the old loose search found it inside one", () => {
		const stretched = fc
			.tuple(periodic, fc.array(fc.nat(), { maxLength: 8 }), fc.array(searched, { minLength: 1, maxLength: 6 }))
			.map(([text, cuts, asked]) => {
				const points = cuts.map((c) => c % (text.length + 1)).sort((x, y) => x - y);
				const regions: Region[] = [];
				for (let i = 0; i + 1 < points.length; i += 2) regions.push({ start: points[i] ?? 0, end: points[i + 1] ?? 0 });
				return { text, regions, needles: asked.map((a) => a.needle).concat(text.slice(2, 7)) };
			});
		fc.assert(
			fc.property(stretched, ({ text, regions, needles }) => {
				const holds = looseIndex(text, regions);
				const whole = { start: 0, end: text.length };
				for (const needle of needles) {
					const inside = oldLooseOccurrences(text, needle, whole).some((found) =>
						regions.some((r) => found.start >= r.start && found.end <= r.end),
					);
					expect(holds(needle)).toBe(inside);
				}
			}),
			params({ numRuns: 3000 }),
		);
	});

	it("read every code unit loosely as the patterns did: a blank as a space, a quote mark as a quote mark", () => {
		const misread: number[] = [];
		for (let code = 0; code < 0x10000; code++) {
			const char = String.fromCharCode(code);
			const search = looseSearch(`a${char}b`);
			const blank = search("a b").length > 0;
			const quote = search('a"b').length > 0;
			if (blank !== /\s/u.test(char) || quote !== OLD_QUOTE_MARK.test(char)) misread.push(code);
		}
		expect(misread).toEqual([]);
	});

	it("read a region that starts before the text as one that starts at its first character", () => {
		expect(occurrences("abcab", "ab", { start: -2, end: 5 })).toEqual([
			{ start: 0, end: 2 },
			{ start: 3, end: 5 },
		]);
		expect(looseFinder("ab")("abcab", { start: -2, end: 5 })).toEqual([
			{ start: 0, end: 2 },
			{ start: 3, end: 5 },
		]);
		expect(occurrences("abcabcab", "ab", { start: 2, end: -5 })).toEqual([]);
	});

	it("end a place that ends on a run of blanks after the whole run, as the user wrote it", () => {
		expect(looseIndex("x  \t y", [{ start: 0, end: 5 }])("x ")).toBe(true);
		expect(looseIndex("x  \t y", [{ start: 0, end: 4 }])("x ")).toBe(false);
		expect(looseFinder("x ")("ax  \t y", { start: 1, end: 7 })).toEqual([{ start: 1, end: 6 }]);
	});

	it("read a long text loosely whole, past each stretch of code units put into a string at once", () => {
		const text = `${"x".repeat(8190)} \u201cnever  \t use tabs\u201d ${"y ".repeat(9000)}end`;
		const holds = (start: number, end: number) => looseIndex(text, [{ start, end }]);
		expect(holds(8191, 8210)('"never use tabs"')).toBe(true);
		expect(holds(8191, 8209)('"never use tabs"')).toBe(false);
		expect(holds(8192, 8210)('"never use tabs"')).toBe(false);
		expect(holds(text.length - 5, text.length)("y end")).toBe(true);
	});

	it("find every overlapping place in a periodic text", () => {
		const text = "a".repeat(12);
		const found = occurrences(text, "aaaa", { start: 2, end: 12 });
		expect(found.map((r) => r.start)).toEqual([2, 3, 4, 5, 6, 7, 8]);
		expect(looseFinder("a a")("a a a a", { start: 0, end: 7 })).toEqual([
			{ start: 0, end: 3 },
			{ start: 2, end: 5 },
			{ start: 4, end: 7 },
		]);
		expect(occurrences("abababab", "abab", { start: 0, end: 8 }).map((r) => r.start)).toEqual([0, 2, 4]);
		// The needle's last border ("bb") is found by falling back from a shorter one ("b" after "bba"): a table that
		// gave up there would miss the matches that chain after the first.
		expect(occurrences("bbabbbabbbabbb", "bbabbb", { start: 0, end: 14 }).map((r) => r.start)).toEqual([0, 4, 8]);
	});

	it("take no place for a match where the text parts from the needle after a match", () => {
		const starts = (text: string, needle: string) =>
			occurrences(text, needle, { start: 0, end: text.length }).map((r) => r.start);
		expect(starts("bbab", "bb")).toEqual([0]);
		// "bba" has no border: after its match, a "b" opens nothing.
		expect(starts("bbaba", "bba")).toEqual([0]);
		// After the match at 0 the open prefix "a" meets "a" then "a" again: "aa" falls back to "a", then "aaba" at 4.
		expect(starts("aabaaaba", "aaba")).toEqual([0, 4]);
	});
});

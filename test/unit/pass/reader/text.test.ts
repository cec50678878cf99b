import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ownWords } from "../../../../src/events/index.js";
import { proseOf, sentences, statement, tokenize } from "../../../../src/pass/reader/text.js";
import { params } from "../../../properties/laws.js";

// The reader's patterns as they stood before they were made linear (2026-12-07), as the oracle: a run of `#`, of
// dots or of commas was tried from each of its characters, and a run of blanks was trimmed by a pattern anchored at
// the end, each quadratic in the run.
const OLD_TOKEN = /[-/@#$~]*[\p{L}\p{N}_]+(?:['.\-/][\p{L}\p{N}_]+)*/gu;
const OLD_SENTENCE_END = /[.!?]+["'\u201d\u00bb)\]]*(?=\s|$)|\n/g;
const ABBREVIATIONS = new Set(["e.g", "i.e", "eg", "ie", "cf", "vs", "viz", "approx", "incl", "esp", "aka", "a.k.a"]);

function oldSentences(text: string): string[] {
	const out: string[] = [];
	let from = 0;
	for (const match of text.matchAll(OLD_SENTENCE_END)) {
		const at = match.index ?? 0;
		const word = /[\p{L}.]+$/u.exec(text.slice(Math.max(0, at - 8), at))?.[0] ?? "";
		if (match[0] === "." && ABBREVIATIONS.has(word.replace(/^\.+/, ""))) continue;
		out.push(text.slice(from, at + match[0].length).trim());
		from = at + match[0].length;
	}
	out.push(text.slice(from).trim());
	return out;
}

/** Text made of the characters the patterns treat specially, in runs, and words. */
const special = fc
	.array(
		fc.constantFrom("#", "-", "/", "@", "~", "$", ".", "!", "?", ",", ";", ":", '"', "'", ")", "]", "\u201d", " "),
		{ maxLength: 6 },
	)
	.map((cs) => cs.join(""));
const text = fc
	.array(
		fc.oneof(special, fc.constantFrom("a", "e.g", "index.ts", "never", "ok", "v1.2", "\n", "  ", "\u00e9t\u00e9")),
		{
			maxLength: 30,
		},
	)
	.map((parts) => parts.join(""));

describe("the reader's text, read in linear time", () => {
	it("tokenizes as the pattern tried from every character did", () => {
		fc.assert(
			fc.property(text, (t) => {
				const want = [...t.matchAll(OLD_TOKEN)].map((m) => ({ word: m[0], start: m.index ?? 0 }));
				expect(tokenize(t)).toEqual(want);
			}),
			params({ numRuns: 2000 }),
		);
	});

	it("cuts sentences where the pattern tried from every character did", () => {
		fc.assert(
			fc.property(text, (t) => {
				expect(sentences(t)).toEqual(oldSentences(t));
			}),
			params({ numRuns: 2000 }),
		);
	});

	it("reads a statement with its closing quotes, brackets and blanks taken off as the anchored pattern did", () => {
		fc.assert(
			fc.property(text, (t) => {
				expect(statement(t)).toEqual(statement(t.replace(/["'\u201d\u00bb)\]\s]+$/, "")));
			}),
			params({ numRuns: 2000 }),
		);
	});

	it.each([
		["never push to main, ok?", "never push to main"],
		["never push to main,,, ok?", "never push to main"],
		["never push to main - got it?", "never push to main"],
		["never push to main ,;: \u2014 sounds good?", "never push to main"],
		["ok?", ""],
		["never push to main,, maybe?", undefined],
	])("takes a closing tag after a run of separators off %j, from the run's first", (sentence, want) => {
		expect(statement(sentence)).toBe(want);
	});
});

// Where each unit of the reader's text came from, as it was found before the offsets went into a typed array
// (2026-12-07): each character lowercased alone, its units pushed one by one, and an apostrophe added after the "don"
// of "dont" and the "mustn" of "mustnt" given its "t"'s offset. The oracle of `proseOf(text).from`.
function arrayOffsets(own: string): number[] {
	const low = own.toLowerCase().replace(/[\u2018\u2019\u02bc\u2032]/g, "'");
	const from: number[] = [];
	let offset = 0;
	for (const char of own) {
		for (let unit = 0; unit < char.toLowerCase().length; unit++) from.push(offset);
		offset += char.length;
	}
	const out: number[] = [];
	let done = 0;
	for (const match of low.matchAll(/\bdont\b|\bmustnt\b/g)) {
		const t = (match.index ?? 0) + match[0].length - 1;
		for (let i = done; i <= t; i++) out.push(from[i] ?? i);
		done = t;
	}
	for (let i = done; i < from.length; i++) out.push(from[i] ?? i);
	return out;
}

describe("where the reader's text came from", () => {
	it("gives both units of a pair their pair's offset, and a lone half its own", () => {
		expect(Array.from(proseOf("a\ud83d\ude00b").from)).toEqual([0, 1, 1, 3]);
		expect(Array.from(proseOf("\udbff\udfff").from)).toEqual([0, 0]);
		expect(Array.from(proseOf("\ud800\udc00").from)).toEqual([0, 0]);
		expect(Array.from(proseOf("a\udc00").from)).toEqual([0, 1]);
		expect(Array.from(proseOf("\ud83d\ue000").from)).toEqual([0, 1]);
		expect(Array.from(proseOf("\ud83dx").from)).toEqual([0, 1]);
	});

	it("gives each unit the offset the units pushed one by one gave, characters that lengthen and pairs and all", () => {
		const part = fc.oneof(
			fc.constantFrom("dont", "Mustnt", "DONT", " ", "\u0130", "\u1e9e", "\u03a3", "\u2019", "\ud801\udc00", "\ud83d"),
			fc.constantFrom("\udc00", "\ufb00", "\u0149", "\u00df", "never", ".", "\n"),
			fc.string({ unit: "binary", maxLength: 4 }),
		);
		fc.assert(
			fc.property(fc.array(part, { maxLength: 40 }), (parts) => {
				const own = parts.join("");
				expect(Array.from(proseOf(own).from)).toEqual(arrayOffsets(ownWords(own)));
			}),
			params({ numRuns: 3000 }),
		);
	});
});

// The quote patterns the reader blanked with before the marks that differ from their close were paired a line at a
// time (2026-12-07): each read on to the line's end from an opening mark never closed. The oracle.
const OLD_QUOTED = [
	/"[^"\n]*"/g,
	/\u201e[^\u201c\u201d\n]*[\u201c\u201d]/g,
	/\u201c[^\u201d\n]*\u201d/g,
	/\u00ab[^\u00bb\n]*\u00bb/g,
	/\u00bb[^\u00ab\n]*\u00ab/g,
	/(?<![\p{L}\p{N}])'[^'\n]+'(?![\p{L}\p{N}])/gu,
	/`[^`\n]*`/g,
];

describe("quoted passages, paired a line at a time", () => {
	it("blanks what the patterns read to the line's end blanked, marks never closed and all", () => {
		// Lowercase letters but for `t` (no pasted output line can form), so the reader's text is the user's own words
		// with the quotes blanked.
		const part = fc.constantFrom("\u00ab", "\u00bb", "\u201e", "\u201c", "\u201d", '"', "'", "`", "a", "b ", " ", "\n");
		fc.assert(
			fc.property(fc.array(part, { maxLength: 60 }), (parts) => {
				const text = parts.join("");
				const want = OLD_QUOTED.reduce(
					(out, quote) => out.replace(quote, (m) => m.replace(/[^\n]/g, " ")),
					ownWords(text),
				);
				expect(proseOf(text).text).toBe(want);
			}),
			params({ numRuns: 3000 }),
		);
	});

	it("blanks what the patterns blanked in each text of a table of edges, one at a time", () => {
		const edges = [
			"\u201ea\u201c b\u201d c",
			"\u201ea\u201d b\u201c c",
			"\u201ea b",
			"\u00bb\u00aba\u00bb b",
			"\u00bba\u00ab b",
			"\u00aba\n\u00bb",
			"\u00ab\u00bb x \u00ab",
			"a \u00abb\u00bb \u00abc",
			"\u00aba\u00bb \u00abb\n\u00bb \u00abc\u00bb",
			"\u201ca\u201c b\u201d",
			'"a" "" "b',
			"x'a'y 'b' 'c'd ('e') 'ab' c",
			"`c d` `` `e",
		];
		for (const text of edges) {
			const want = OLD_QUOTED.reduce(
				(out, quote) => out.replace(quote, (m) => m.replace(/[^\n]/g, " ")),
				ownWords(text),
			);
			expect(proseOf(text).text, JSON.stringify(text)).toBe(want);
		}
	});

	it("blanks a guillemet closed on its line, and none whose close stands on the next", () => {
		expect(proseOf("\u00ab a \u00ab b \u00bb c").text).toBe(`${" ".repeat(10)}c`);
		expect(proseOf("\u00ab a\nb \u00bb c").text).toBe("\u00ab a\nb \u00bb c");
	});
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	ALNUM,
	AUTHORITY_END,
	charClass,
	isIn,
	isMember,
	QUOTED_MAX,
	quotedEnd,
	Runs,
	runEnd,
	runStart,
	stopAt,
	TOKEN_END,
	URL_SAFE,
	VALUE_END,
} from "../../../../src/pass/secrets/chars.js";
import { law } from "../../../properties/laws.js";

const code = (c: string) => c.charCodeAt(0);

describe("character classes", () => {
	it("reads ranges and single characters, ASCII and past it", () => {
		const cls = charClass("a-c_\u2026");
		expect(["a", "b", "c", "_", "\u2026"].map((c) => isMember(cls, code(c)))).toEqual([true, true, true, true, true]);
		expect(["d", "-", "A", "\u2027"].map((c) => isMember(cls, code(c)))).toEqual([false, false, false, false]);
	});

	it("reads a dash at the end, or between two characters that are no range, as a member of its own", () => {
		const trailing = charClass("a-");
		expect(["a", "-", "b"].map((c) => isMember(trailing, code(c)))).toEqual([true, true, false]);
		const plain = charClass("axz");
		expect(["a", "x", "z", "m"].map((c) => isMember(plain, code(c)))).toEqual([true, true, true, false]);
	});

	it("keeps U+0080, the first character past ASCII, with the wide ones", () => {
		const cls = charClass("\u0080");
		expect([isMember(cls, 0x80), isMember(cls, 0x7f), isMember(cls, 0x81)]).toEqual([true, false, false]);
		expect(isMember(charClass("a"), 0x80)).toBe(false);
	});

	it("holds no character past either end of a text", () => {
		const cls = charClass("a-z");
		expect([isIn(cls, "ab", -1), isIn(cls, "ab", 0), isIn(cls, "ab", 2)]).toEqual([false, true, false]);
	});

	it("ends a token, a value and a URL's authority at a blank of any kind, a quote and an angle bracket", () => {
		for (const stop of [" ", "\t", "\n", "\u0085", "\u00a0", "\u2028", "\u2029", '"', "'", "`", "<", ">"])
			expect([TOKEN_END, VALUE_END, AUTHORITY_END].map((cls) => isMember(cls, code(stop)))).toEqual([true, true, true]);
	});

	it("ends each at its own characters: brackets and separators a token and a value, a path's start an authority", () => {
		const ends = (c: string) => [TOKEN_END, VALUE_END, AUTHORITY_END].map((cls) => isMember(cls, code(c)));
		expect(ends("(")).toEqual([true, true, false]);
		expect(ends(";")).toEqual([true, true, false]);
		expect(ends("&")).toEqual([false, true, false]);
		expect(ends("\\")).toEqual([false, true, true]);
		expect(ends("\u2026")).toEqual([false, true, true]);
		expect(ends("/")).toEqual([false, false, true]);
		expect(ends("?")).toEqual([false, false, true]);
		expect(ends("@")).toEqual([false, false, false]);
		expect(ends(":")).toEqual([false, false, false]);
		expect(ends("=")).toEqual([false, false, false]);
	});
});

describe("runs of a class", () => {
	const text = "-- abc12 def";

	it("ends a run at the first character out of the class, or at the text's end", () => {
		expect([runEnd(ALNUM, text, 3), runEnd(ALNUM, text, 0), runEnd(ALNUM, text, 9)]).toEqual([8, 0, 12]);
	});

	it("stops at the first character of the class at or after a place, or at the text's end", () => {
		expect([stopAt(ALNUM, text, 0), stopAt(ALNUM, text, 3), stopAt(ALNUM, text, 8), stopAt(ALNUM, "--", 0)]).toEqual([
			3, 3, 9, 2,
		]);
	});

	it("starts a run where it starts, reading back no further than asked", () => {
		expect([runStart(ALNUM, text, 8, 10), runStart(ALNUM, text, 8, 2), runStart(ALNUM, "abc", 3, 9)]).toEqual([
			3, 6, 0,
		]);
		expect(runStart(ALNUM, text, 3, 10)).toBe(3);
	});

	it("remembers a run read once and answers the same as a fresh read from inside it, before it and after it", () => {
		const runs = new Runs(text);
		const asked = [3, 5, 7, 8, 0, 2, 9, 11, 4];
		expect(asked.map((from) => runs.end(ALNUM, from))).toEqual(asked.map((from) => runEnd(ALNUM, text, from)));
	});

	it("reads a long run once while the runs a shape reads after each of its anchors come and go", () => {
		// A JWT's shape reads the header's run from each `eyJ`, then the payload's and the signature's: a header of
		// `-eyJ` repeated holds an anchor every four characters. Remembering one run, each anchor read the header again.
		const jwtLike = `${"-eyJ".repeat(500)}.eyJpayload12345.signature1234567890 `;
		let reads = 0;
		const runs = new Runs(jwtLike, (cls, in_, from) => {
			reads++;
			return runEnd(cls, in_, from);
		});
		const ends: number[] = [];
		for (let at = 1; at < 2000; at += 4) {
			const header = runs.end(URL_SAFE, at);
			const payload = runs.end(URL_SAFE, header + 1);
			ends.push(header, payload, runs.end(URL_SAFE, payload + 1));
		}
		expect(reads).toBe(3);
		expect(ends.slice(-3)).toEqual([2000, 2016, 2036]);
	});

	it("answers as a fresh read, for any text and any places asked in any order, with runs of several classes", () => {
		const classes = [ALNUM, URL_SAFE, charClass("a-c")];
		law(
			[
				fc.string({ unit: fc.constantFrom("a", "b", "z", "-", ".", " ", "9"), maxLength: 60 }),
				fc.array(fc.tuple(fc.nat(2), fc.nat(61)), { maxLength: 60 }),
			],
			(text, asked) => {
				const runs = new Runs(text);
				return asked.every(([c, from]) => {
					const cls = classes[c] ?? ALNUM;
					return runs.end(cls, from) === runEnd(cls, text, from);
				});
			},
			{ numRuns: 500 },
		);
	});
});

describe("quotedEnd: a quoted value runs to its closing quote", () => {
	// A generated password as password managers make them (symbols included), in a .env line as dotenv reads it.
	const line = 'DB_PASSWORD="Zq7Yx3&Wv9(Ut)X;k2,L[m]{P}a4\\Rs" # set by ops';
	const from = line.indexOf('"') + 1;

	it("runs over & ; , ( ) [ ] { } and a backslash to the matching quote", () => {
		expect(line.slice(from, quotedEnd(line, from, '"'))).toBe("Zq7Yx3&Wv9(Ut)X;k2,L[m]{P}a4\\Rs");
	});

	it("takes only the quote that opened the value for its end", () => {
		expect(quotedEnd("'Zq7Yx3Wv9'", 1, "'")).toBe(10);
		expect(quotedEnd("'Zq7Yx3\"Wv9'", 1, "'")).toBe(-1);
	});

	it("gives no end for a value with a blank, a line break or a cut mark before its closing quote", () => {
		for (const text of ['"Enter your password"', '"Zq7Yx3\nWv9"', '"Zq7Yx3\u2026"', '"Zq7Yx3\tWv9"'])
			expect(quotedEnd(text, 1, '"')).toBe(-1);
	});

	it("gives no end for an empty value, an unclosed one, or one longer than QUOTED_MAX", () => {
		expect(quotedEnd('""', 1, '"')).toBe(-1);
		expect(quotedEnd('"Zq7Yx3Wv9', 1, '"')).toBe(-1);
		expect(quotedEnd(`"${"a".repeat(QUOTED_MAX - 1)}"`, 1, '"')).toBe(QUOTED_MAX);
		expect(quotedEnd(`"${"a".repeat(QUOTED_MAX)}"`, 1, '"')).toBe(-1);
	});
});

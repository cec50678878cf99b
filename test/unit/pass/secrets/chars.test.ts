import { describe, expect, it } from "vitest";
import { AUTHORITY_END, charClass, isIn, isMember, TOKEN_END, VALUE_END } from "../../../../src/pass/secrets/chars.js";

const code = (c: string) => c.charCodeAt(0);

describe("character classes", () => {
	it("reads ranges and single characters, ASCII and past it", () => {
		const cls = charClass("a-c_\u2026");
		expect(["a", "b", "c", "_", "\u2026"].map((c) => isMember(cls, code(c)))).toEqual([true, true, true, true, true]);
		expect(["d", "-", "A", "\u2027"].map((c) => isMember(cls, code(c)))).toEqual([false, false, false, false]);
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

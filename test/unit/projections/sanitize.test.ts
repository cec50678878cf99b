import { describe, expect, it } from "vitest";
import { codePoints, cutWhole, headAndTail, safeJson, sanitize, sliceWhole } from "../../../src/projections/index.js";
import { sanitizeText } from "../../../src/projections/sanitize.js";

// Every cut of text goes through sliceWhole; every printed untrusted text through sanitize.

const EMOJI = "😀"; // two UTF-16 units
const HIGH = EMOJI.charAt(0);
const LOW = EMOJI.charAt(1);

describe("printing untrusted text", () => {
	it("shows a control at or under 0xff as \\x, above it as \\u, and keeps newlines and tabs", () => {
		expect(sanitize("a\u0000b\u001bc\u007f\u009b\u00ffd")).toBe("a\\x00b\\x1bc\\x7f\\x9b\u00ffd");
		expect(sanitize("\u202e\u2066\u061c")).toBe("\\u202e\\u2066\\u061c");
		expect(sanitize("line\nnext\tcell")).toBe("line\nnext\tcell");
	});

	it("reads a CRLF as a line break in text meant as lines, and shows a lone carriage return", () => {
		expect(sanitizeText("one\r\ntwo\rthree")).toBe("one\ntwo\\x0dthree");
		expect(sanitize("one\r\ntwo")).toBe("one\\x0d\ntwo");
	});

	it("escapes in JSON as \\u escapes that parse back to the same text", () => {
		const text = "a\u009bb\u202ec";
		const json = safeJson({ text });
		expect(json).toBe('{"text":"a\\u009bb\\u202ec"}');
		expect(JSON.parse(json)).toEqual({ text });
		expect(safeJson([1], 2)).toBe("[\n  1\n]");
	});
});

describe("cutting text on whole code points", () => {
	it("slices as slice does away from surrogate pairs, clamping the ends", () => {
		expect(sliceWhole("abcdef", 1, 4)).toBe("bcd");
		expect(sliceWhole("abcdef", 4)).toBe("ef");
		expect(sliceWhole("abc", -5, 99)).toBe("abc");
		expect(sliceWhole("abc", 2, 1)).toBe("");
		expect(sliceWhole("abc", 3, 3)).toBe("");
	});

	it("moves each end inward off the middle of a pair, so the piece is never longer than asked", () => {
		const text = `a${EMOJI}b${EMOJI}`; // a, high, low, b, high, low
		expect(sliceWhole(text, 0, 2)).toBe("a");
		expect(sliceWhole(text, 2)).toBe(`b${EMOJI}`);
		expect(sliceWhole(text, 1, 3)).toBe(EMOJI);
		expect(sliceWhole(text, 2, 5)).toBe("b");
		expect(sliceWhole(EMOJI, 1, 2)).toBe("");
		expect(sliceWhole(EMOJI, 0, 1)).toBe("");
	});

	it("leaves a lone half where it stands: only a whole pair is protected", () => {
		expect(sliceWhole(`${LOW}${LOW}x`, 1)).toBe(`${LOW}x`);
		expect(sliceWhole(`${HIGH}${HIGH}x`, 0, 1)).toBe(HIGH);
		expect(sliceWhole(`x${HIGH}`, 0, 1)).toBe("x");
	});

	it("shows a long text by its ends with what was left out counted, a short one whole", () => {
		expect(headAndTail("abcdef", 3, 3)).toBe("abcdef");
		expect(headAndTail("abcdefgh", 2, 3)).toBe("ab\n… 3 characters left out …\nfgh");
		expect(headAndTail("abcdefgh", 2, 3, (n) => `[${n}]`)).toBe("ab[3]fgh");
		expect(headAndTail(`a${EMOJI}bcd${EMOJI}e`, 2, 2, (n) => `[${n}]`)).toBe("a[7]e");
	});

	it("cuts a text over its max to a head ending in an ellipsis, within the max", () => {
		expect(cutWhole("abc", 3)).toBe("abc");
		expect(cutWhole("abcd", 3)).toBe("ab…");
		expect(cutWhole("abcd", 1)).toBe("…");
		expect(cutWhole("abcd", 0)).toBe("");
		expect(cutWhole(`a${EMOJI}`, 2)).toBe("a…");
	});

	it("counts an emoji as one code point", () => {
		expect([codePoints(""), codePoints("ab"), codePoints(`a${EMOJI}`)]).toEqual([0, 2, 2]);
	});
});

import { describe, expect, it } from "vitest";
import { codePoints, cutWhole, headAndTail, safeJson, sanitize, sliceWhole } from "../../../src/projections/index.js";

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

	it("shows each code point in the shortest escape that holds it: \\x to 0xff, \\u to 0xffff, \\u{} past it", () => {
		expect(sanitize("\u009f|\u0100|\u200b|\uffa0|\u{e0000}|\u{e0041}")).toBe(
			"\\x9f|\u0100|\\u200b|\\uffa0|\\u{e0000}|\\u{e0041}",
		);
	});

	it("keeps a ZWJ that joins two emoji, behind a variation selector or a skin tone too, and escapes every other", () => {
		const family = "\u{1f468}\u200d\u{1f469}";
		const flag = "\u{1f3f3}\ufe0f\u200d\u{1f308}";
		const coder = "\u{1f469}\u{1f3fd}\u200d\u{1f4bb}";
		const toned = "\u{1f469}\u{1f3fd}\ufe0f\u200d\u{1f4bb}";
		expect(sanitize(`${family} ${flag} ${coder} ${toned}`)).toBe(`${family} ${flag} ${coder} ${toned}`);
		// Between letters, after an emoji but before a letter, before an emoji but after a letter, at either end.
		expect(sanitize("a\u200db \u{1f468}\u200dx a\u200d\u{1f469} \u200d\u{1f469} \u{1f468}\u200d")).toBe(
			"a\\u200db \u{1f468}\\u200dx a\\u200d\u{1f469} \\u200d\u{1f469} \u{1f468}\\u200d",
		);
		// Three marks between the emoji and the ZWJ are more than a sequence holds.
		const far = "\u{1f469}\u{1f3fd}\ufe0f\ufe0f\u200d\u{1f4bb}";
		expect(sanitize(far)).toBe("\u{1f469}\u{1f3fd}\ufe0f\ufe0f\\u200d\u{1f4bb}");
		// A lone low surrogate before the ZWJ is no emoji, nor is a pictograph's high half alone.
		expect(sanitize("\udc00\u200d\u{1f469} \ud83d\u200d\u{1f469}")).toBe(
			"\udc00\\u200d\u{1f469} \ud83d\\u200d\u{1f469}",
		);
	});

	it("shows every carriage return, one before a line feed too, and keeps the line feed", () => {
		expect(sanitize("one\r\ntwo\rthree\r")).toBe("one\\x0d\ntwo\\x0dthree\\x0d");
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

	it("knows a pair by the surrogate ranges' very ends, and a low half after anything else for no pair", () => {
		for (const pair of ["\ud800\udc00", "\udbff\udfff", "\ud800\udfff", "\udbff\udc00"])
			expect(sliceWhole(pair, 1)).toBe("");
		expect(sliceWhole(`a${LOW}b`, 1)).toBe(`${LOW}b`);
		expect(sliceWhole(`\ud7ff${LOW}`, 1)).toBe(LOW);
		expect(sliceWhole(`${HIGH}\ue000`, 1)).toBe("\ue000");
	});

	it("never starts or ends a piece in a ZWJ, which would join nothing", () => {
		const family = "\u{1f468}\u200d\u{1f469}";
		expect(sliceWhole(family, 2)).toBe("\u{1f469}");
		expect(sliceWhole(family, 0, 3)).toBe("\u{1f468}");
		expect(sliceWhole("\u200d", 0)).toBe("");
		expect(sliceWhole("a\u200d\u200db", 1, 3)).toBe("");
		expect(sliceWhole(family, 0)).toBe(family);
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

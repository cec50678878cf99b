import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readable, WINDOW, words } from "../../../../src/adapters/recall/words.js";
import { params } from "../../../properties/laws.js";

describe("the words search indexes", () => {
	it("are read without escape sequences, as a terminal shows the text", () => {
		expect(words("\u001b[31mRED\u001b[0m alert")).toEqual(["red", "alert"]);
		expect(words("\u001b]0;TITLE\u0007done \u001b]8;;http://x\u001b\\link")).toEqual(["done", "link"]);
		expect(words("\u009b1mBOLD")).toEqual(["bold"]);
		expect(words("printf '\\x1b[32mgreen\\033[0m \\e[1mbright'")).toEqual(["printf", "green", "bright"]);
		expect(readable("a\u001b[2Jb\u001b(Bc")).toBe("abc");
	});

	it("are runs of letters and digits, lowercased, split again on Unicode word boundaries", () => {
		expect(words("wrap-ansi.ts tokensAfter")).toEqual(["wrap", "ansi", "ts", "tokensafter"]);
		expect(words("日本語のテキストを検索")).toEqual(["日本語", "の", "テキスト", "を", "検索"]);
		expect(words("नमस्ते दुनिया café")).toEqual(["नमस्ते", "दुनिया", "café"]);
	});

	it("take an emoji as a word of its own, modifiers and joined sequences whole", () => {
		expect(words("ship🚀it 👍🏽 👨‍👩‍👧!")).toEqual(["ship", "🚀", "it", "👍🏽", "👨‍👩‍👧"]);
	});

	it("leave an unterminated string escape at the line's end, not the text's", () => {
		expect(words("\u001b]0;no end\nnext line")).toEqual(["next", "line"]);
	});
});

const RUN = /[\p{L}\p{N}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u200d]+/gu;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const segmenter = new Intl.Segmenter("und", { granularity: "word" });

/** The segments of a text segmented whole. */
function segments(text: string): string[] {
	return [...segmenter.segment(text)].map((s) => s.segment);
}

/** What the words were before long runs were segmented in windows: each run of word characters segmented whole. */
function wholeRuns(text: string): string[] {
	return [...text.toLowerCase().matchAll(RUN)].flatMap(([run]) => segments(run));
}

/** Words of several scripts, written with and without spaces; none is longer than 8 code units. */
const word = fc.constantFrom(
	"Hello",
	"café",
	"naïve",
	"42",
	"привет",
	"Мир",
	"ёлка",
	"我们",
	"学习",
	"中文",
	"日本語",
	"テキスト",
	"の",
	"ไป",
	"โรงเรียน",
	"🚀",
	"👍🏽",
	"👨‍👩‍👧",
	"🇯🇵",
);
const separator = fc.constantFrom("", " ", "。", "、", ", ", "-", "\n");

describe("a long run of word characters, segmented a window at a time", () => {
	it("leaves ordinary text as it was: a run shorter than the window is segmented whole", () => {
		const text = fc
			.array(fc.tuple(word, separator), { maxLength: 90 })
			.map((parts) => parts.map(([w, s]) => w + s).join(""));
		fc.assert(
			fc.property(text, (t) => {
				expect(t.length).toBeLessThan(WINDOW);
				expect(words(t)).toEqual(wholeRuns(t));
			}),
			params({ numRuns: 300 }),
		);
	});

	it("splits a sentence repeated with no break, many windows long, as the sentence alone, repeated", () => {
		const sentence = "我们今天去学校学习中文";
		const run = sentence.repeat(500);
		expect(run.length).toBeGreaterThan(5 * WINDOW);
		expect(words(run)).toEqual(Array.from({ length: 500 }, () => segments(sentence)).flat());
	});

	it("cuts no emoji at a window's edge, wherever the edge falls, skin tones and joined sequences whole", () => {
		const emoji = "👍🏽👨‍👩‍👧🇯🇵🚀";
		for (let shift = 0; shift < 20; shift++) {
			const prefix = "é".repeat(shift);
			const got = words(prefix + emoji.repeat(200));
			expect(got).toEqual([...(shift ? [prefix] : []), ...Array.from({ length: 200 }, () => segments(emoji)).flat()]);
		}
	});

	it("loses, repeats and splits nothing: the words joined give the run back, every one well formed", () => {
		const run = fc.array(word, { minLength: 300, maxLength: 1500 }).map((ws) => ws.join(""));
		fc.assert(
			fc.property(run, (r) => {
				const got = words(r);
				expect(got.join("")).toBe(r.toLowerCase());
				for (const w of got) expect(w).not.toMatch(LONE_SURROGATE);
			}),
			params({ numRuns: 40 }),
		);
	});

	it("cuts a word longer than the window at the window's edge, never inside a surrogate pair", () => {
		for (const prefix of ["", "é"]) {
			const run = `${prefix}${"𝒜".repeat(1600)}`;
			const got = words(run);
			expect(got.length).toBeGreaterThan(1);
			expect(got.join("")).toBe(run);
			for (const w of got) expect(w).not.toMatch(LONE_SURROGATE);
		}
	});
});

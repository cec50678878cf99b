import { describe, expect, it } from "vitest";
import { readable, words } from "../../../../src/adapters/recall/words.js";

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

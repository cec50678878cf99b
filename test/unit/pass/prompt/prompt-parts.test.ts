import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { argsText, cut, headTail, worldLines } from "../../../../src/pass/prompt/index.js";
import { headAndTail, sliceWhole } from "../../../../src/projections/index.js";
import { params } from "../../../properties/laws.js";

describe("cut: a text on one line, cut at its bound", () => {
	it("given tabs, newlines and runs of spaces, then they are one space each and none at the ends", () => {
		expect(cut("\n\tnpm run build &&\n\n   npm test  \n", 100)).toBe("npm run build && npm test");
	});

	it("given a text of exactly the bound after flattening, then it is kept whole", () => {
		expect(cut(`${"a".repeat(9)}\n`, 9)).toBe("aaaaaaaaa");
		expect(cut("a".repeat(10), 10)).toBe("aaaaaaaaaa");
	});

	it("given one character more than the bound, then it is cut to the bound with an ellipsis", () => {
		expect(cut("abcdefghijk", 10)).toBe("abcdefghij…");
	});

	it("given an emoji across the bound, then the emoji is dropped whole, never split", () => {
		expect(cut(`${"a".repeat(9)}😀 and more`, 10)).toBe("aaaaaaaaa…");
	});
});

describe("headTail: a long text as its head and tail", () => {
	it("given exactly head + tail + 3 characters, then the text is kept whole", () => {
		const text = "0123456789-----abcde";
		expect(text.length).toBe(20);
		expect(headTail(text, 10, 7)).toBe(text);
	});

	it("given one character more, then it is its head, ' … ' and its tail", () => {
		expect(headTail("0123456789-----abcdef", 10, 7)).toBe("0123456789 … -abcdef");
	});

	it("given a long multi-line output, then it is flattened before it is cut", () => {
		expect(headTail("line one\nline two\n\tline three\nline four", 8, 9)).toBe("line one … line four");
	});

	it("given lines, then newlines inside are kept and only the ends trimmed", () => {
		expect(headTail("\n  first\nsecond  \n", 20, 20, true)).toBe("first\nsecond");
	});

	it("given emoji at both cuts, then neither is split", () => {
		expect(headTail(`ab😀${"x".repeat(20)}😀cd`, 3, 3)).toBe("ab … cd");
	});
});

describe("argsText: what a tool call is about", () => {
	it("given a bash call with a multi-line command, then it is the command", () => {
		expect(argsText({ command: "cd web &&\n\tnpm test", timeout: 60 })).toBe("cd web &&\n\tnpm test");
	});

	it("given a read call, then it is the path", () => {
		expect(argsText({ path: "src/main.ts", offset: 10 })).toBe("src/main.ts");
	});

	it("given a command that is not a string, then it is the arguments as JSON", () => {
		expect(argsText({ command: 42 })).toBe('{"command":42}');
		expect(argsText({ path: ["a.ts"] })).toBe('{"path":["a.ts"]}');
	});

	it("given arguments that are not an object, then they are JSON", () => {
		expect(argsText("ls -la")).toBe('"ls -la"');
		expect(argsText(null)).toBe("null");
		expect(argsText(["ls"])).toBe('["ls"]');
	});

	it("given no arguments at all, then it is empty", () => {
		expect(argsText(undefined)).toBe("");
	});

	it("given another tool's arguments, then they are JSON", () => {
		expect(argsText({ pattern: "TODO", glob: "*.ts" })).toBe('{"pattern":"TODO","glob":"*.ts"}');
	});
});

describe("worldLines: the World in three lines", () => {
	it("given a snapshot, then branch and HEAD, the status and the diff stat each on one line", () => {
		const world = {
			taken: true as const,
			branch: "feature/export",
			head: "3f2a9c1",
			status: " M src/a.ts\n?? notes.md\n",
			log: "3f2a9c1 add export",
			diffStat: " src/a.ts | 4 ++--\n 1 file changed",
		};
		expect(worldLines(world)).toEqual([
			"branch feature/export, HEAD 3f2a9c1",
			"M src/a.ts ?? notes.md",
			"src/a.ts | 4 ++-- 1 file changed",
		]);
	});

	it("given a long status and diff stat, then they are cut at 400 and 300 characters", () => {
		const status = " M src/file.ts\n".repeat(40);
		const diffStat = " src/file.ts | 2 +-\n".repeat(30);
		const [, shownStatus, shownStat] = worldLines({
			taken: true,
			branch: "main",
			head: "abc1234",
			status,
			log: "",
			diffStat,
		});
		expect(shownStatus).toBe(`${"M src/file.ts ".repeat(28)}M src/fi…`);
		expect(shownStat).toBe(`${"src/file.ts | 2 +- ".repeat(15)}src/file.ts | 2…`);
	});

	it("given no snapshot, then why", () => {
		expect(worldLines({ taken: false, reason: "not a git repository" })).toEqual([
			"(no snapshot: not a git repository)",
		]);
	});
});

// `cut` and `headTail` as they stood before they read only the ends of a long text (2026-12-07): the whole text put on
// one line first. The oracle.
const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();
const wholeCut = (text: string, max: number): string => {
	const line = oneLine(text);
	return line.length <= max ? line : `${sliceWhole(line, 0, max)}…`;
};
const wholeHeadTail = (text: string, head: number, tail: number): string => {
	const flat = oneLine(text);
	return flat.length <= head + tail + 3 ? flat : headAndTail(flat, head, tail, () => " … ");
};

describe("cut and headTail on a long text read its ends alone", () => {
	it("read on past a window whose line is only as long as what they keep", () => {
		// 300 x's then 300 blanks fill the first window of cut(…, 300): its line is the cut's length, the text longer.
		expect(cut(`${"x".repeat(300)}${" ".repeat(300)}${"y".repeat(10)}`, 300)).toBe(`${"x".repeat(300)}…`);
		// 203 x's and 205 blanks fill headTail's first window from the start: 203 is head + tail + 3, the line longer.
		const start = `${"x".repeat(203)}${" ".repeat(205)}${"y".repeat(50)}`;
		expect(headTail(start, 100, 100)).toBe(`${"x".repeat(100)} … ${"x".repeat(49)} ${"y".repeat(50)}`);
		// The last window (256 units) starts at the low half of a pair and its line is the tail's length: read on, the
		// pair is met, and the tail is not cut inside it.
		const end = `${"a".repeat(300)}${" ".repeat(300)}\ud83d\ude00b${" ".repeat(247)}${"c".repeat(7)}`;
		expect(headTail(end, 10, 10)).toBe(`${"a".repeat(10)} … b ccccccc`);
	});

	it("keep the line breaks of a text shown as lines, cut only past head + tail + 3 characters", () => {
		expect(headTail("abc\ndef", 2, 2, true)).toBe("abc\ndef");
		expect(headTail("abcd\ndef", 2, 2, true)).toBe("ab … ef");
	});

	// Long runs of blanks (cut anywhere by a window), pairs, lone halves and joiners at any place, texts past a window.
	const part = fc.oneof(
		fc.constantFrom("a", "bc", "\ud83d\ude00", "\ud83d", "\ude00", "\u200d", "\u00a0", "\t", "\r\n", "\u2028"),
		fc.integer({ min: 1, max: 700 }).map((n) => " ".repeat(n)),
		fc.integer({ min: 1, max: 700 }).map((n) => "x".repeat(n)),
	);
	const text = fc.array(part, { maxLength: 30 }).map((parts) => parts.join(""));
	const bound = fc.integer({ min: 0, max: 600 });

	it("gives what the whole text put on one line gave", () => {
		fc.assert(
			fc.property(text, bound, bound, (t, head, tail) => {
				expect(cut(t, head)).toBe(wholeCut(t, head));
				expect(headTail(t, head, tail)).toBe(wholeHeadTail(t, head, tail));
			}),
			params({ numRuns: 3000 }),
		);
	});
});

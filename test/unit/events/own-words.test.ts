import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ownWords, QUOTED_WORDS } from "../../../src/events/own-words.js";
import { userText } from "../../../src/events/user-text.js";
import { params } from "../../properties/laws.js";

const words = (text: string) => ownWords(text).replace(/\s+/g, " ").trim();

describe("the user's own words", () => {
	it("keeps a message without quotes as it is, offsets and length unchanged", () => {
		const text = "the tabs rule no longer applies";
		expect(ownWords(text)).toBe(text);
	});

	it(`leaves out a straight-quoted passage of ${QUOTED_WORDS} words or more`, () => {
		expect(words('he wrote "the tabs rule no longer applies here" today')).toBe("he wrote today");
	});

	it("keeps a short quoted phrase, which is the user's own reference", () => {
		expect(words('the "no tabs" rule is lifted')).toBe('the "no tabs" rule is lifted');
	});

	it("leaves out curly, German and guillemet quotes and inline code of six words or more", () => {
		const six = "the tabs rule no longer applies";
		expect(words(`a \u201c${six}\u201d b`)).toBe("a b");
		expect(words(`a \u201e${six}\u201c b`)).toBe("a b");
		expect(words(`a \u00ab${six}\u00bb b`)).toBe("a b");
		expect(words(`a \u00bb${six}\u00ab b`)).toBe("a b");
		expect(words(`a \`${six}\` b`)).toBe("a b");
	});

	it("pairs a German quote with its own closing mark before reading curly quotes", () => {
		const six = "die Regel gilt nicht mehr hier";
		expect(words(`er schrieb „${six}“ and my own words are kept here ”`)).toBe(
			"er schrieb and my own words are kept here ”",
		);
	});

	it("leaves out blockquoted lines and code fences, closed or not", () => {
		expect(words("see this:\n> the tabs rule no longer applies\nthanks")).toBe("see this: thanks");
		expect(words("log:\n```\nrule lifted\n```\nok")).toBe("log: ok");
		expect(words("log:\n~~~\nrule lifted\nstill in the fence")).toBe("log:");
	});

	it("leaves out a pi-goal template, keeping the objective", () => {
		expect(words("Stop when done, no longer wait.\n<objective>\nport it\n</objective>")).toBe("port it");
	});

	it("keeps the offsets of the text it returns", () => {
		const text = 'x "one two three four five six" y\n> quoted\nz';
		expect(ownWords(text)).toHaveLength(text.length);
		expect(ownWords(text).split("\n")).toHaveLength(3);
	});

	it("keeps the line breaks inside a quoted passage it leaves out", () => {
		const text = 'x "one two three\nfour five six" y';
		expect(ownWords(text).split("\n")).toHaveLength(2);
	});

	it("counts the words of a quoted passage without the blanks at its ends", () => {
		expect(words('a " one two three four five " b')).toBe('a " one two three four five " b');
	});

	it("closes a fence only with the same mark, at least as long as the opening one", () => {
		expect(words("log:\n~~~\nrule lifted\n```\nstill in the fence")).toBe("log:");
		expect(words("log:\n````\nrule lifted\n```\nstill in the fence")).toBe("log:");
		expect(words("log:\n```\nrule lifted\n````\nmine")).toBe("log: mine");
	});
});

// The quote patterns as they stood before each read stopped at its last closing mark (2026-12-07), as the oracle.
const OLD_QUOTES = [
	/"([^"]*)"/g,
	/\u201e([^\u201c\u201d]*)[\u201c\u201d]/g,
	/\u201c([^\u201d]*)\u201d/g,
	/\u00ab([^\u00bb]*)\u00bb/g,
	/\u00bb([^\u00ab]*)\u00ab/g,
	/`([^`\n]*)`/g,
];

function oldQuotesBlanked(text: string): string {
	let current = text;
	for (const pattern of OLD_QUOTES) {
		const next = current.split("");
		for (const match of current.matchAll(pattern)) {
			if ((match[1] ?? "").split(/\s+/).filter((w) => w !== "").length < QUOTED_WORDS) continue;
			const start = match.index ?? 0;
			for (let i = start; i < start + match[0].length; i++) if (next[i] !== "\n") next[i] = " ";
		}
		current = next.join("");
	}
	return current;
}

describe("ownWords, read in linear time", () => {
	it("blanks the quoted passages the patterns read to the text's end found, opening marks never closed and all", () => {
		// No fence, blockquote or goal tag can form: a backtick is always followed by a letter.
		const part = fc.constantFrom('"', "\u201e", "\u201c", "\u201d", "\u00ab", "\u00bb", "`a", " ", "\n", "one ", "two");
		fc.assert(
			fc.property(fc.array(part, { maxLength: 60 }), (parts) => {
				const text = parts.join("");
				expect(ownWords(text)).toBe(oldQuotesBlanked(text));
			}),
			params({ numRuns: 3000 }),
		);
	});
});

// ownWords as it stood before it blanked through a mask (2026-12-07): an array of the text's characters, split and
// joined once a pass, as the oracle of the text it returns.
function charArrayOwnWords(text: string): string {
	const blank = (chars: string[], start: number, end: number) => {
		for (let i = start; i < end; i++) if (chars[i] !== "\n") chars[i] = " ";
	};
	const chars = text.split("");
	let from = 0;
	for (const region of userText(text).own) {
		blank(chars, from, region.start);
		from = region.end;
	}
	blank(chars, from, text.length);
	let offset = 0;
	let fence: string | null = null;
	for (const line of text.split("\n")) {
		const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
		const inFence = fence !== null;
		if (fence === null && opener !== undefined) fence = opener;
		else if (fence !== null && opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length) {
			fence = null;
		}
		if (inFence || fence !== null || /^[ \t]*>/.test(line)) blank(chars, offset, offset + line.length);
		offset += line.length + 1;
	}
	return oldQuotesBlanked(chars.join(""));
}

describe("ownWords, blanked through a mask", () => {
	it("returns what the character array split and joined a pass returned, on text with every kind of markup", () => {
		const part = fc.oneof(
			fc.constantFrom('"', "\u201e", "\u201c", "\u201d", "\u00ab", "\u00bb", "`", " ", "\n", "\n> ", "> "),
			fc.constantFrom("```", "~~~", "````", "\n```\n", "\n~~~~\n", "   ```", "    ```"),
			fc.constantFrom("<objective>", "</objective>", "<goal>", "</goal>", "Stop when done.\n"),
			fc.constantFrom("one ", "two", "three four five six seven ", "\ud83d\ude00", "\ud83d", "\r\n", "\t"),
			fc.string({ unit: "binary", maxLength: 4 }),
		);
		fc.assert(
			fc.property(fc.array(part, { maxLength: 60 }), (parts) => {
				const text = parts.join("");
				expect(ownWords(text)).toBe(charArrayOwnWords(text));
			}),
			params({ numRuns: 3000 }),
		);
	});
});

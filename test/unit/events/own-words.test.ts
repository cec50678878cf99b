import { describe, expect, it } from "vitest";
import { ownWords, QUOTED_WORDS } from "../../../src/events/own-words.js";

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

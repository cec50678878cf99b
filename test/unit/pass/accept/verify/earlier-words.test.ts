import { describe, expect, it } from "vitest";
import type { UserMessage } from "../../../../../src/events/messages.js";
import { pickNeedsWords, pickWords, readerSentences } from "../../../../../src/pass/accept/verify/earlier-words.js";

const msg = (text: string): UserMessage => ({ ref: "u1", entryId: "e1", text });

describe("the words a standing pick records by itself", () => {
	it("is the whole message when it holds one stretch, whether or not that reads as a rule", () => {
		expect(pickWords(msg("  thanks, looks good  "))?.text).toBe("thanks, looks good");
	});

	it("is the first objective that reads as a rule, of a pi-goal message with several", () => {
		const goal = msg("<objective>ship the CLI</objective>\n<objective>never add dependencies</objective>");
		expect(pickWords(goal)?.text).toBe("never add dependencies");
	});

	it("is nothing for a pi-goal message none of whose objectives reads as a rule", () => {
		const goal = msg("<objective>ship the CLI</objective>\n<objective>write the docs</objective>");
		expect(pickWords(goal)).toBeUndefined();
		expect(pickNeedsWords(goal)).toBe(false);
	});

	it("is nothing for a blank message, which needs no words either", () => {
		expect(pickWords(msg("   "))).toBeUndefined();
		expect(pickNeedsWords(msg("   "))).toBe(false);
	});
});

describe("a standing pick that needs the rule's exact words", () => {
	it("is one over 600 characters, not one of exactly 600", () => {
		expect(pickNeedsWords(msg(`never ${"x".repeat(594)}`))).toBe(false);
		expect(pickNeedsWords(msg(`never ${"x".repeat(595)}`))).toBe(true);
	});

	it("is measured without the blanks around it", () => {
		const padded = msg(`${"\n".repeat(400)}never ${"x".repeat(394)}`);
		expect(pickNeedsWords(padded)).toBe(false);
		expect(pickWords(padded)?.text).toBe(padded.text.trim());
	});
});

describe("the reader's sentences of a standing pick", () => {
	const filler = "the rest of this message is a long paste of notes about the build. ".repeat(10);

	it("are the sentences a pick over 600 characters records, once each, and nothing of the paste around them", () => {
		const long = msg(`Never push to main. ${filler}Always run the linter first. Never push to main.`);
		expect([...readerSentences(long)]).toEqual(["Never push to main.", "Always run the linter first."]);
	});

	it("are none for a pick recorded whole, though its words are a rule", () => {
		expect([...readerSentences(msg("Never push to main."))]).toEqual([]);
	});
});

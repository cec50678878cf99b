import { describe, expect, it } from "vitest";
import { ownWords } from "../../../src/events/own-words.js";
import { contentWords, readWithdrawal, withdrawsWords } from "../../../src/events/withdrawal.js";

/** The lift check as acceptance runs it: the whole message, in the user's own words, against the rule's words. */
const liftPasses = (message: string, rule: string): boolean =>
	withdrawsWords(readWithdrawal(ownWords(message)), contentWords(rule));

describe("the lift check", () => {
	it.each([
		["the DRY: prefix rule is lifted", "every dry-run line must start with DRY:"],
		["tabs no longer matter", "never use tabs"],
		["the rule about tabs doesn't apply anymore", "never use tabs"],
		["indent with spaces instead of tabs", "always indent with tabs"],
		["forget the changelog rule", "always update the changelog"],
		["there is no need to squash commits", "squash commits before pushing"],
	])("passes %j against %j: it withdraws and shares a word", (message, rule) => {
		expect(liftPasses(message, rule)).toBe(true);
	});

	it("refuses a permission, which is a one-off and not a lift", () => {
		expect(liftPasses("you may push to main now", "never push to main")).toBe(false);
		expect(liftPasses("go ahead and push to main this time", "never push to main")).toBe(false);
	});

	it("refuses a withdrawal that shares no word with the rule it names", () => {
		expect(liftPasses("the tabs rule no longer applies", "never add dependencies")).toBe(false);
	});

	it("refuses a message that shares words but withdraws nothing", () => {
		expect(liftPasses("use tabs in the Makefile", "never use tabs")).toBe(false);
	});

	it("counts 'instead of' only before the rule's own words", () => {
		expect(liftPasses("use tabs instead of npm", "never use tabs")).toBe(false);
		expect(liftPasses("indent with spaces instead of tabs", "never use tabs")).toBe(true);
	});

	it("reads the words after each 'instead of' or 'rather than' up to the end of its clause", () => {
		const read = readWithdrawal("use pnpm instead of npm. spaces rather than tabs; ok");
		expect(read.phrase).toBe(false);
		expect(read.instead).toEqual([new Set(["npm"]), new Set(["tab"])]);
	});

	it("does not read 'don't forget' or 'no longer than' as withdrawals", () => {
		expect(liftPasses("don't forget the changelog", "always update the changelog")).toBe(false);
		expect(liftPasses("keep functions no longer than 40 lines", "functions stay under 40 lines")).toBe(false);
	});

	it("judges only the user's own words: a quoted or pasted withdrawal withdraws nothing", () => {
		const pasted = 'the bot said "the rule about tabs no longer applies here" but I disagree';
		expect(liftPasses(pasted, "never use tabs")).toBe(false);
		expect(liftPasses("from the log:\n> tabs rule lifted\nkeep going", "never use tabs")).toBe(false);
		expect(liftPasses("```\ntabs rule lifted\n```", "never use tabs")).toBe(false);
	});

	it("shares a word across plural and possessive forms, but not through stop words", () => {
		expect(contentWords("Tabs and the user's files, dependencies")).toEqual(
			new Set(["tab", "user", "file", "dependency"]),
		);
		expect(withdrawsWords(readWithdrawal("the rule no longer applies"), contentWords("this rule applies always"))).toBe(
			false,
		);
	});

	it("reads no withdrawal in a message with no phrase and no 'instead of'", () => {
		const read = readWithdrawal("use tabs in the Makefile");
		expect(read.phrase).toBe(false);
		expect(read.instead).toEqual([]);
	});

	it("reads a typographic apostrophe as a plain one in a withdrawal phrase", () => {
		expect(readWithdrawal("the tabs rule doesn\u2019t apply here").phrase).toBe(true);
	});
});

describe("content words", () => {
	it("stems only a plural long enough to be one: 'lies' meets 'lie', 'gas' stays whole", () => {
		expect(contentWords("lies")).toEqual(new Set(["lie"]));
		expect(contentWords("gas bus")).toEqual(new Set(["gas", "bus"]));
	});

	it("keeps the double s of a word ending in 'ss'", () => {
		expect(contentWords("class glass")).toEqual(new Set(["class", "glass"]));
	});

	it("keeps a name with an apostrophe inside it as one word", () => {
		expect(contentWords("O'Sullivan")).toEqual(new Set(["o'sullivan"]));
	});

	it("leaves out stop words written with a typographic apostrophe", () => {
		expect(contentWords("don\u2019t doesn\u2019t")).toEqual(new Set());
	});

	it("leaves out a stop word even where its stem is not one, and a word whose stem is one", () => {
		expect(contentWords("this does")).toEqual(new Set());
		expect(contentWords("musts")).toEqual(new Set());
	});

	it("leaves out single letters but keeps single digits", () => {
		expect(contentWords("x 2 ab")).toEqual(new Set(["2", "ab"]));
	});

	it("finds no words in text without letters or digits", () => {
		expect(contentWords("-- !! ...")).toEqual(new Set());
	});
});

import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { cleanWords, ruleWords } from "../../../../../src/pass/accept/verify/rule-words.js";
import { userMessage } from "../../../../support/users.js";

const filler = (chars: number) =>
	"lorem ipsum dolor sit amet "
		.repeat(Math.ceil(chars / 27))
		.slice(0, chars)
		.trim();

function recorded(result: ReturnType<typeof ruleWords>) {
	if (E.isLeft(result)) throw new Error(`refused: ${JSON.stringify(result.left)}`);
	return { text: result.right.text, source: result.right.source.ref };
}

describe("rule words copied by code", () => {
	it("keeps a message of at most 300 characters whole even when the model gave words", () => {
		const m = userMessage(3, "don't hard-code it, read the port from the config");
		expect(recorded(ruleWords(m, "don't hard-code it", [m]))).toEqual({ text: m.text, source: "u3" });
	});

	it("keeps a short message whole when no words are given", () => {
		const m = userMessage(1, "  never add dependencies \n");
		expect(recorded(ruleWords(m, undefined, [m]))).toEqual({ text: "never add dependencies", source: "u1" });
	});

	it("uses verified words for a message between 300 and 600 characters", () => {
		const m = userMessage(2, `${filler(350)}. Never push to main. ${filler(100)}`);
		expect(recorded(ruleWords(m, "Never push to main.", [m])).text).toBe("Never push to main.");
	});

	it("keeps a 300 to 600 character message whole when its words do not verify on word boundaries", () => {
		const m = userMessage(2, `${filler(350)}. Never push to main. ${filler(100)}`);
		expect(recorded(ruleWords(m, "ever push to main", [m])).text).toBe(m.text.trim());
	});

	it("requires the rule's exact words for a message over 600 characters", () => {
		const m = userMessage(4, `${filler(700)}. Tests go under tests/.`);
		expect(ruleWords(m, undefined, [m])).toEqual(E.left({ kind: "defect", code: "words-missing" }));
		expect(recorded(ruleWords(m, "Tests go under tests/.", [m])).text).toBe("Tests go under tests/.");
	});

	it("sends back words of a long message that start or end inside a word", () => {
		const m = userMessage(4, `${filler(700)}. Tests go under tests/.`);
		expect(ruleWords(m, "ests go under tests/.", [m])).toEqual(E.left({ kind: "defect", code: "words-inside-word" }));
	});

	it("binds a quote cited under the wrong message to the newest user message that holds it", () => {
		const branch = [
			userMessage(1, "never use tabs"),
			userMessage(2, "ok"),
			userMessage(3, "I said it again: never use tabs"),
			userMessage(4, "go on"),
		];
		expect(recorded(ruleWords(branch[3]!, "never use tabs", branch))).toEqual({
			text: "I said it again: never use tabs",
			source: "u3",
		});
	});

	it("rejects text no user wrote, even for a short message", () => {
		const m = userMessage(5, "run the tests");
		expect(ruleWords(m, "never use tabs", [m])).toEqual(E.left({ kind: "defect", code: "words-unwritten" }));
	});

	it("quotes a pi-goal message only inside its goal tags, never its template", () => {
		const goal = userMessage(
			6,
			"Keep working; no longer stop early.\n<objective>\nship the CLI without new dependencies\n</objective>",
		);
		expect(recorded(ruleWords(goal, undefined, [goal])).text).toBe("ship the CLI without new dependencies");
		expect(ruleWords(goal, "no longer stop early", [goal])).toEqual(
			E.left({ kind: "defect", code: "words-unwritten" }),
		);
	});

	it("records nothing from a blank message", () => {
		const m = userMessage(7, "   ");
		expect(ruleWords(m, undefined, [m])).toEqual(E.left({ kind: "drop", reason: "empty-message" }));
	});

	it("takes off surrounding whitespace and one pair of wrapping quotes from the model's words", () => {
		expect(cleanWords('  "never use tabs" ')).toBe("never use tabs");
		expect(cleanWords("\u201cnever use tabs\u201d")).toBe("never use tabs");
		expect(cleanWords('say "hi"')).toBe('say "hi"');
	});

	it("keeps words that open with a quoted word but go on past its closing quote as given", () => {
		expect(cleanWords('"never" use tabs')).toBe('"never" use tabs');
	});

	it("takes the blanks inside the wrapping quotes off with them", () => {
		expect(cleanWords('" never use tabs "')).toBe("never use tabs");
	});

	it("keeps a pair of quotes with nothing but blanks inside as given, since there are no words to unwrap", () => {
		expect(cleanWords('""')).toBe('""');
		expect(cleanWords('" "')).toBe('" "');
	});
});

describe("rule words: the length rules at their edges", () => {
	it("keeps a message of exactly 600 characters whole when no words are given", () => {
		const m = userMessage(1, `${"word ".repeat(119)}words`);
		expect(m.text).toHaveLength(600);
		expect(recorded(ruleWords(m, undefined, [m])).text).toBe(m.text);
	});

	it("keeps a message of exactly 300 characters whole when the model gave some of its words", () => {
		const m = userMessage(1, `${"word ".repeat(55)}words Never push to main.`);
		expect(m.text).toHaveLength(300);
		expect(recorded(ruleWords(m, "Never push to main.", [m])).text).toBe(m.text);
	});

	it("measures a message without the blanks around it: leading blank lines do not make it long", () => {
		const short = userMessage(1, `${"\n".repeat(250)}${filler(200)} Never push to main.`);
		expect(recorded(ruleWords(short, "Never push to main.", [short])).text).toBe(short.text.trim());
		const medium = userMessage(2, `${"\n".repeat(400)}${filler(500)}`);
		expect(recorded(ruleWords(medium, undefined, [medium])).text).toBe(medium.text.trim());
	});
});

describe("rule words from a pi-goal message with two objectives", () => {
	const goal = userMessage(
		8,
		"Keep working.\n<objective>\nship the CLI without new dependencies\n</objective>\n<goal>keep the tests green</goal>",
	);

	it("requires the rule's words, since neither objective alone is the whole message", () => {
		expect(ruleWords(goal, undefined, [goal])).toEqual(E.left({ kind: "defect", code: "words-missing" }));
	});

	it("records exactly the words given, not the whole objective that holds them", () => {
		expect(recorded(ruleWords(goal, "without new dependencies", [goal])).text).toBe("without new dependencies");
	});
});

describe("rule words bound to the message that holds them", () => {
	it("takes words the labelled message holds from that message, though a newer one holds them too", () => {
		const branch = [userMessage(1, "never use tabs, indent with spaces"), userMessage(2, "again: never use tabs")];
		expect(recorded(ruleWords(branch[0]!, "never use tabs", branch)).source).toBe("u1");
	});

	it("binds a retyped quote cited under the wrong message to the message that holds it loosely", () => {
		const branch = [userMessage(1, "call it \u201cmain-new\u201d from  now  on"), userMessage(2, "go on")];
		expect(recorded(ruleWords(branch[1]!, 'call it "main-new" from now on', branch))).toEqual({
			text: "call it \u201cmain-new\u201d from  now  on",
			source: "u1",
		});
	});

	it("finds a quote cited under the wrong message in the oldest message of the branch", () => {
		const branch = [userMessage(1, "never use tabs"), userMessage(2, "ok"), userMessage(3, "go on")];
		expect(recorded(ruleWords(branch[2]!, "never use tabs", branch))).toEqual({ text: "never use tabs", source: "u1" });
	});
});

describe("rule words a model retyped, or found nowhere", () => {
	it("finds words whose whitespace or quote marks the model changed, and records the user's characters", () => {
		const m = userMessage(4, `${filler(350)}. Call it \u201cmain-new\u201d  and keep the old one. ${filler(100)}`);
		expect(recorded(ruleWords(m, 'Call it "main-new" and keep the old one.', [m])).text).toBe(
			"Call it \u201cmain-new\u201d  and keep the old one.",
		);
	});

	it("keeps a short message whole when its retyped words collapse its double space", () => {
		const m = userMessage(6, "this plan must be written so that you can starta  new session");
		expect(recorded(ruleWords(m, "you can starta new session", [m]))).toEqual({ text: m.text, source: "u6" });
	});

	it("in single mode, ignores words found nowhere for a message of at most 300 characters and records it whole", () => {
		const m = userMessage(5, "run the tests before every commit");
		expect(recorded(ruleWords(m, "never use tabs", [m], true))).toEqual({ text: m.text, source: "u5" });
		expect(ruleWords(m, "never use tabs", [m])).toEqual(E.left({ kind: "defect", code: "words-unwritten" }));
	});

	it("still binds words that stand in another user message to that message", () => {
		const other = userMessage(2, "never use tabs");
		const m = userMessage(5, "as I said before");
		expect(recorded(ruleWords(m, "never use tabs", [other, m], true))).toEqual({
			text: "never use tabs",
			source: "u2",
		});
	});

	it("still sends back words found nowhere for a longer message", () => {
		const m = userMessage(7, `${filler(350)}. Never push to main.`);
		expect(ruleWords(m, "never use tabs", [m], true)).toEqual(E.left({ kind: "defect", code: "words-unwritten" }));
	});
});

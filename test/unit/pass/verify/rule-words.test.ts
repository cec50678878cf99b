import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import type { UserMessage } from "../../../../src/events/messages.js";
import { cleanWords, ruleWords } from "../../../../src/pass/verify/rule-words.js";

const msg = (n: number, text: string): UserMessage => ({ ref: `u${n}`, entryId: `e${n}`, text });
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
		const m = msg(3, "don't hard-code it, read the port from the config");
		expect(recorded(ruleWords(m, "don't hard-code it", [m]))).toEqual({ text: m.text, source: "u3" });
	});

	it("keeps a short message whole when no words are given", () => {
		const m = msg(1, "  never add dependencies \n");
		expect(recorded(ruleWords(m, undefined, [m]))).toEqual({ text: "never add dependencies", source: "u1" });
	});

	it("uses verified words for a message between 300 and 600 characters", () => {
		const m = msg(2, `${filler(350)}. Never push to main. ${filler(100)}`);
		expect(recorded(ruleWords(m, "Never push to main.", [m])).text).toBe("Never push to main.");
	});

	it("keeps a 300 to 600 character message whole when its words do not verify on word boundaries", () => {
		const m = msg(2, `${filler(350)}. Never push to main. ${filler(100)}`);
		expect(recorded(ruleWords(m, "ever push to main", [m])).text).toBe(m.text.trim());
	});

	it("requires the rule's exact words for a message over 600 characters", () => {
		const m = msg(4, `${filler(700)}. Tests go under tests/.`);
		expect(ruleWords(m, undefined, [m])).toEqual(E.left({ kind: "defect", code: "words-missing" }));
		expect(recorded(ruleWords(m, "Tests go under tests/.", [m])).text).toBe("Tests go under tests/.");
	});

	it("sends back words of a long message that start or end inside a word", () => {
		const m = msg(4, `${filler(700)}. Tests go under tests/.`);
		expect(ruleWords(m, "ests go under tests/.", [m])).toEqual(E.left({ kind: "defect", code: "words-inside-word" }));
	});

	it("binds a quote cited under the wrong message to the newest user message that holds it", () => {
		const branch = [msg(1, "never use tabs"), msg(2, "ok"), msg(3, "I said it again: never use tabs"), msg(4, "go on")];
		expect(recorded(ruleWords(branch[3]!, "never use tabs", branch))).toEqual({
			text: "I said it again: never use tabs",
			source: "u3",
		});
	});

	it("rejects text no user wrote, even for a short message", () => {
		const m = msg(5, "run the tests");
		expect(ruleWords(m, "never use tabs", [m])).toEqual(E.left({ kind: "defect", code: "words-unwritten" }));
	});

	it("quotes a pi-goal message only inside its goal tags, never its template", () => {
		const goal = msg(
			6,
			"Keep working; no longer stop early.\n<objective>\nship the CLI without new dependencies\n</objective>",
		);
		expect(recorded(ruleWords(goal, undefined, [goal])).text).toBe("ship the CLI without new dependencies");
		expect(ruleWords(goal, "no longer stop early", [goal])).toEqual(
			E.left({ kind: "defect", code: "words-unwritten" }),
		);
	});

	it("records nothing from a blank message", () => {
		const m = msg(7, "   ");
		expect(ruleWords(m, undefined, [m])).toEqual(E.left({ kind: "drop", reason: "empty-message" }));
	});

	it("takes off surrounding whitespace and one pair of wrapping quotes from the model's words", () => {
		expect(cleanWords('  "never use tabs" ')).toBe("never use tabs");
		expect(cleanWords("\u201cnever use tabs\u201d")).toBe("never use tabs");
		expect(cleanWords('say "hi"')).toBe('say "hi"');
	});
});

import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { jsonObjectIn, MAX_REPLY_CHARS } from "../../../../src/pass/answer/json-in-text.js";

const found = (text: string) => {
	const result = jsonObjectIn(text, ["labels"]);
	return E.isRight(result) ? result.right : result.left.code;
};

describe("the JSON object in a model reply", () => {
	it("reads a bare object", () => {
		expect(found('{"labels": []}')).toEqual({ labels: [] });
	});

	it("reads an object in a ```json fence with prose around it", () => {
		expect(found('Here it is:\n```json\n{"labels": [1]}\n```\nDone.')).toEqual({ labels: [1] });
	});

	it.each(["```\n", "```json\n", "``` \t json \t\r\n", "```jsonc  \n", "```\t\n"])(
		"reads the object in a fence opened by %j",
		(open) => {
			// The fenced object differs from the one after the fence, so only a fence read as one gives it.
			expect(found(`${open}{"labels": [1]}\n\`\`\`\n{"labels": [2]}`)).toEqual({ labels: [1] });
		},
	);

	it("reads no fence opened by a word other than json, nor by blanks that a word ends", () => {
		// Read as fences, each would give the object inside it before the one that comes first.
		expect(found('{"labels": [2]}\n```yaml\n{"labels": [1]}\n```')).toEqual({ labels: [2] });
		expect(found(`{"labels": [3]}\n\`\`\`${" ".repeat(40)}x\n{"labels": [4]}\n\`\`\``)).toEqual({ labels: [3] });
	});

	it("reads an object in prose, braces inside strings included", () => {
		expect(found('Sure! {"labels": ["a } b { c"]} hope that helps')).toEqual({ labels: ["a } b { c"] });
	});

	it("prefers the object that holds an answer key over an earlier one that does not", () => {
		expect(found('I considered {"x": 1} first, then {"labels": []}')).toEqual({ labels: [] });
	});

	it("falls back to the first object when none holds an answer key", () => {
		expect(found('{"x": 1} and {"y": 2}')).toEqual({ x: 1 });
	});

	it("refuses a reply with no JSON object, or with one that does not parse", () => {
		expect(found("I cannot do that.")).toBe("no-json");
		expect(found('{"labels": [}')).toBe("json-invalid");
		expect(found("[1, 2]")).toBe("no-json");
	});

	it("refuses an object holding __proto__, constructor or prototype keys, at any depth", () => {
		expect(found('{"__proto__": {"polluted": true}, "labels": []}')).toBe("forbidden-key");
		expect(found('{"labels": [{"constructor": 1}]}')).toBe("forbidden-key");
		expect(found('{"labels": [], "x": {"prototype": 1}}')).toBe("forbidden-key");
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it("never throws on hostile text", () => {
		for (const text of ["{".repeat(5000), `${'{"a":'.repeat(3000)}1`, "\u0000{\uFFFF}", '"\\'] as const) {
			expect(() => jsonObjectIn(text, ["labels"])).not.toThrow();
		}
	});

	it.each([["```json\n"], ["``` json\n"], ["```JSON \n"], ["```\n"], ["```jsonc\r\n"]])(
		"prefers the fenced block %j over a draft in the prose before it",
		(fence) => {
			const reply = `My first draft was {"labels": ["draft"]}, but here is the answer:\n${fence}{"labels": ["final"]}\n\`\`\`\nDone.`;
			expect(found(reply)).toEqual({ labels: ["final"] });
		},
	);

	it("reads nested objects and escaped quotes in prose", () => {
		expect(found('Here: {"labels": [{"msg": "u1", "label": "rule"}]} done')).toEqual({
			labels: [{ msg: "u1", label: "rule" }],
		});
		expect(found('Sure: {"labels": ["say \\"}\\" please"]} ok')).toEqual({ labels: ['say "}" please'] });
	});

	it("reads past a brace in the prose that never closes", () => {
		expect(found('Each label is {msg, label. The answer: {"labels": []}')).toEqual({ labels: [] });
	});

	it("takes the whole object, not an answer-like object inside it", () => {
		expect(found('{"answer": {"labels": []}}')).toEqual({ answer: { labels: [] } });
	});

	it("takes an object holding one answer key of several", () => {
		const result = jsonObjectIn('{"x": 1} then {"labels": []}', ["labels", "narrative"]);
		expect(result).toEqual(E.right({ labels: [] }));
	});

	it("tries at most 20 braces as the start of an object", () => {
		expect(found(`${"{x} ".repeat(19)}{"labels": []}`)).toEqual({ labels: [] });
		expect(found(`${"{x} ".repeat(20)}{"labels": []}`)).toBe("json-invalid");
	});

	it("searches only the first MAX_REPLY_CHARS characters of a runaway reply", () => {
		const prose = "word ".repeat(MAX_REPLY_CHARS / 5);
		expect(found(`${prose}{"labels": []}`)).toBe("no-json");
		expect(found(`${prose.slice(14)}{"labels": []}`)).toEqual({ labels: [] });
	});

	it("says what is wrong in one line for the retry note", () => {
		const defectOf = (text: string) => {
			const result = jsonObjectIn(text, ["labels"]);
			return E.isLeft(result) ? result.left : "found";
		};
		expect(defectOf('{"labels": [], "constructor": 1}')).toEqual({
			code: "forbidden-key",
			msg: null,
			note: "the JSON holds a key named __proto__, constructor or prototype",
		});
		expect(defectOf('{"labels": [}')).toEqual({
			code: "json-invalid",
			msg: null,
			note: "the answer's JSON does not parse: return one JSON object",
		});
		expect(defectOf("No changes.")).toEqual({
			code: "no-json",
			msg: null,
			note: "the answer holds no JSON object: return one JSON object",
		});
	});
});

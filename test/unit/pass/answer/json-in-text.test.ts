import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { jsonObjectIn } from "../../../../src/pass/answer/json-in-text.js";

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
});

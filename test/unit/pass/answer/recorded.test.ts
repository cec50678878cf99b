import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { expect, it } from "vitest";
import { ANSWER_BOUNDS, readAnswer, readRelaxedAnswer } from "../../../../src/pass/answer/answer.js";
import { CUT_MARK, repairAnswer } from "../../../../src/pass/answer/repair.js";
import { describeShared, repoRoot } from "../../../support/shared.js";

// A real model's answer (../shared/fixtures/model-answers, see its README), read from ../shared, never copied here.
const answerText = (dir: string, span: number) =>
	readFileSync(resolve(repoRoot, "../shared/fixtures/model-answers", dir, `longhaul-span${span}.answer.json`), "utf8");

describeShared("a real model's answer past the schema's bounds", () => {
	const text = answerText("large-session", 4);
	// The reply as JSON gives it, to compare with: 21 values and a narrative of 398 characters.
	const decoded = t.type({ values: t.array(t.unknown), narrative: t.string }).decode(JSON.parse(text));
	if (E.isLeft(decoded)) throw new Error("the recorded answer has no values and narrative");
	const given = decoded.right;

	it("is refused by the strict reading, naming both bounds it runs past", () => {
		expect(readAnswer(text)).toEqual(
			E.left({
				code: "schema",
				msg: null,
				note:
					`the answer does not fit the schema: at values: expected a list of at most ${ANSWER_BOUNDS.values} items; ` +
					`at narrative: expected a string of at most ${ANSWER_BOUNDS.narrative} characters`,
			}),
		);
	});

	it("is read relaxed and repaired: the 21st value left out, the narrative cut at a word with the cut mark", () => {
		const read = readRelaxedAnswer(text);
		if (E.isLeft(read)) throw new Error(read.left.note);
		const { answer, cuts } = repairAnswer(read.right);
		expect(cuts).toEqual([
			{ item: `values[${ANSWER_BOUNDS.values}]`, reason: "past-count" },
			{ item: "narrative", reason: "cut-text" },
		]);
		expect(answer.values).toEqual(given.values.slice(0, ANSWER_BOUNDS.values));
		// The word that crosses the bound, "updated", goes with the comma before it.
		expect(answer.narrative).toBe(
			`${given.narrative.slice(0, given.narrative.lastIndexOf(", updated", 300))}${CUT_MARK}`,
		);
		expect(answer.narrative?.length).toBeLessThanOrEqual(ANSWER_BOUNDS.narrative);
		expect({ ...answer, values: [], narrative: "" }).toEqual({ ...read.right, values: [], narrative: "" });
	});
});

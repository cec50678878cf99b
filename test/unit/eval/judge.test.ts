import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import { judgePrompt, readVerdict } from "../../../src/eval/judge.js";
import type { Reference } from "../../../src/eval/probes.js";
import { RULE_DEFINITION } from "../../../src/pass/prompt/index.js";

const reference: Reference = {
	users: [
		{ msg: "u1", text: "never push" },
		{ msg: "u2", text: "run it" },
		{ msg: "u3", text: "the export must write one line per order" },
	],
	openErrors: [{ id: "E1", head: "boom" }],
	next: { user: "deploy", reply: "deploying" },
	values: [{ kind: "port", text: "8787" }],
};

describe("score's judge", () => {
	it("reads a verdict, counting only ids the reference holds and rules the judge found in force", () => {
		const verdict = JSON.stringify({
			rulesInForce: ["u1", "u9"],
			requirements: ["u3", "u1"],
			X: { rulesKept: ["u1", "u2", "u9"], requirementsKept: ["u3"], errorsNamed: ["E1", "E7"], next: "yes" },
			Y: { rulesKept: [], requirementsKept: ["u2"], errorsNamed: [], next: "partly" },
			Z: { rulesKept: ["u1"], requirementsKept: [], errorsNamed: [], next: "no" },
		});
		const [x, y, z] = readVerdict(reference, `Here: ${verdict}`, ["port 8787", "no idea", "never push"]);
		expect(x).toEqual({
			rulesInForce: ["u1"],
			rulesKept: ["u1"],
			requirements: ["u3"],
			requirementsKept: ["u3"],
			errorsOpen: 1,
			errorsNamed: 1,
			valuesReused: 1,
			valuesRecalled: 1,
			next: "yes",
		});
		expect(y).toMatchObject({ rulesKept: [], requirementsKept: [], valuesRecalled: 0, next: "partly" });
		expect(z).toMatchObject({ rulesKept: ["u1"], requirements: ["u3"], next: "no" });
	});

	it("a verdict that grades one answer and not another leaves only that one unjudged", () => {
		const verdict = JSON.stringify({
			rulesInForce: ["u1"],
			requirements: [],
			X: { rulesKept: ["u1"], requirementsKept: [], errorsNamed: [], next: "yes" },
			Y: { rulesKept: ["u1"], next: "yes" },
		});
		const [x, y] = readVerdict(reference, verdict, ["never push", "never push"]);
		expect(x).toMatchObject({ rulesKept: ["u1"], next: "yes" });
		expect(y).toMatchObject({ rulesInForce: [], rulesKept: [], next: "unjudged" });
	});

	it("an unreadable verdict leaves the judged parts unjudged and still checks values by code", () => {
		const [x] = readVerdict(reference, "I think X is better.", ["8787", ""]);
		expect(x).toMatchObject({ rulesInForce: [], valuesRecalled: 1, next: "unjudged" });
	});

	it("the judge is given the summarizer's definition of a rule, and requirements apart from rules", () => {
		const prompt = judgePrompt(reference, ["a", "b", "c"]);
		expect(prompt.system).toContain(`at this point (not one a later message withdrew).\n  ${RULE_DEFINITION}\n`);
		expect(prompt.system).toMatch(/requirementsKept: those of requirements the answer states anywhere in it/);
		const user = t.type({ answers: t.record(t.string, t.string) }).decode(JSON.parse(prompt.user));
		expect(E.isRight(user) && user.right.answers).toEqual({ X: "a", Y: "b", Z: "c" });
	});
});

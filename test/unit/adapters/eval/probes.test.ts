import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import { judgePrompt, type Reference, readVerdict, referenceAt } from "../../../../src/adapters/eval/probes.js";
import { branchOf, readTranscript } from "../../../../src/events/index.js";
import { RULE_DEFINITION } from "../../../../src/pass/prompt/index.js";
import { assistant, compaction, result, user, v1Text } from "./v1-transcript.js";

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

describe("score's probes", () => {
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

	it("the reference holds the user's messages, the commands still failing, and what happened next", () => {
		const text = v1Text([
			user("never push to main"),
			assistant("", [
				["c1", "bash", { command: "npm test" }],
				["c2", "bash", { command: "npm run lint" }],
			]),
			result("c1", "bash", "1 failed\n\nCommand exited with code 1", true),
			result("c2", "bash", "2 problems\n\nCommand exited with code 1", true),
			assistant("", [["c3", "bash", { command: "npm test" }]]),
			result("c3", "bash", "9 passed"),
			compaction("summary", 5),
			user("fix the lint errors"),
			assistant("Fixing them now."),
		]);
		const branch = branchOf(readTranscript(text).entries).entries;
		const at = branch.findIndex((e) => e.type === "compaction");
		const ref = referenceAt(branch, at, []);
		expect(ref.users).toEqual([{ msg: "u1", text: "never push to main" }]);
		expect(ref.openErrors.map((e) => e.head)).toEqual(["2 problems\n\nCommand exited with code 1"]);
		expect(ref.next).toEqual({ user: "fix the lint errors", reply: "Fixing them now." });
	});
});

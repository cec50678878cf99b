import { describe, expect, it } from "vitest";
import { type Reference, readVerdict, referenceAt } from "../../../../src/adapters/eval/probes.js";
import { branchOf, readTranscript } from "../../../../src/events/index.js";
import { assistant, compaction, result, user, v1Text } from "./v1-transcript.js";

const reference: Reference = {
	users: [
		{ msg: "u1", text: "never push" },
		{ msg: "u2", text: "run it" },
	],
	openErrors: [{ id: "E1", head: "boom" }],
	next: { user: "deploy", reply: "deploying" },
	values: [{ kind: "port", text: "8787" }],
};

describe("score's probes", () => {
	it("reads a verdict, counting only ids the reference holds and rules the judge found in force", () => {
		const verdict = JSON.stringify({
			rulesInForce: ["u1", "u9"],
			X: { rulesKept: ["u1", "u2", "u9"], errorsNamed: ["E1", "E7"], next: "yes" },
			Y: { rulesKept: [], errorsNamed: [], next: "partly" },
		});
		const [x, y] = readVerdict(reference, `Here: ${verdict}`, "port 8787", "no idea");
		expect(x).toEqual({
			rulesInForce: 1,
			rulesKept: 1,
			errorsOpen: 1,
			errorsNamed: 1,
			valuesReused: 1,
			valuesRecalled: 1,
			next: "yes",
		});
		expect(y).toMatchObject({ rulesKept: 0, valuesRecalled: 0, next: "partly" });
	});

	it("an unreadable verdict leaves the judged parts unjudged and still checks values by code", () => {
		const [x] = readVerdict(reference, "I think X is better.", "8787", "");
		expect(x).toMatchObject({ rulesInForce: 0, valuesRecalled: 1, next: "unjudged" });
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

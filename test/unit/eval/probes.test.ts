import { describe, expect, it } from "vitest";
import { referenceAt } from "../../../src/eval/probes.js";
import { branchOf, readTranscript } from "../../../src/events/index.js";
import { assistant, compaction, result, user, v1Text } from "../../support/v1-transcript.js";

describe("score's probes", () => {
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

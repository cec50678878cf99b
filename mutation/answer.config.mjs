// Mutation testing of the answer's reading and repair (src/pass/answer), against the tests that exercise it:
// `npx stryker run mutation/answer.config.mjs` (Node >= 22; docs/evaluation.md, Mutation).
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/pass/answer/**/*.ts"],
	testFiles: [
		"test/unit/pass/answer/**/*.test.ts",
		"test/properties/answer.test.ts",
		"test/unit/pass/conversation/single.test.ts",
		"test/unit/adapters/pass/recorded-answers.test.ts",
	],
	concurrency: 1,
	incrementalFile: "reports/stryker-answer.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-answer.json" },
};

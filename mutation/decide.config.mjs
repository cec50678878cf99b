// Mutation testing of the pass's decision (src/pass/decide), against the tests that exercise it:
// `npx stryker run mutation/decide.config.mjs` (Node >= 22; docs/evaluation.md, Mutation).
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/pass/decide/**/*.ts"],
	testFiles: [
		"test/unit/pass/decide/**/*.test.ts",
		"test/unit/adapters/pass/run-pass.test.ts",
		"test/unit/adapters/pass/run-pass-takeover.test.ts",
	],
	concurrency: 1,
	incrementalFile: "reports/stryker-decide.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-decide.json" },
};

// Mutation testing of the span and its chunks (src/pass/span), against the tests that exercise it:
// `npx stryker run mutation/span.config.mjs` (Node >= 22; docs/evaluation.md, Mutation).
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/pass/span/**/*.ts"],
	testFiles: [
		"test/unit/pass/span/**/*.test.ts",
		"test/properties/span.test.ts",
		"test/unit/adapters/pass/run-pass.test.ts",
	],
	concurrency: 1,
	incrementalFile: "reports/stryker-span.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-span.json" },
};

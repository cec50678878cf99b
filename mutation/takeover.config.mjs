// Mutation testing of the takeover and its reader (src/pass/takeover, src/pass/reader), against the tests that exercise it:
// `npx stryker run mutation/takeover.config.mjs` (Node >= 22; docs/evaluation.md, Mutation).
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/pass/takeover/**/*.ts", "src/pass/reader/**/*.ts"],
	testFiles: [
		"test/unit/pass/takeover/**/*.test.ts",
		"test/unit/pass/reader/**/*.test.ts",
		"test/unit/adapters/pass/run-pass-takeover.test.ts",
		"test/unit/adapters/pass/takeover-failing-model.test.ts",
	],
	concurrency: 1,
	incrementalFile: "reports/stryker-takeover.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-takeover.json" },
};

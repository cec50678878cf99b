// Mutation testing of the reducer and the fold (src/reducers), against the tests that exercise it:
// `npx stryker run mutation/reducers.config.mjs` (Node >= 22; docs/evaluation.md, Mutation).
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/reducers/**/*.ts"],
	testFiles: [
		"test/unit/reducers/**/*.test.ts",
		"test/properties/core.test.ts",
		"test/properties/core-model.test.ts",
		"test/properties/forged-rules.test.ts",
		"test/unit/adapters/cli/state-cli.test.ts",
	],
	concurrency: 1,
	incrementalFile: "reports/stryker-reducers.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-reducers.json" },
};

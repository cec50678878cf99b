// Mutation testing of the projections (src/projections), against the tests that exercise it:
// `npx stryker run mutation/projections.config.mjs` (Node >= 22; docs/evaluation.md, Mutation).
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/projections/**/*.ts"],
	testFiles: [
		"test/unit/projections/**/*.test.ts",
		"test/properties/core-views.test.ts",
		"test/properties/core-recall.test.ts",
		"test/properties/summary.test.ts",
		"test/hostile/terminal.test.ts",
		"test/unit/adapters/cli/state-cli.test.ts",
	],
	concurrency: 1,
	incrementalFile: "reports/stryker-projections.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-projections.json" },
};

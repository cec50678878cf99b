// Mutation testing of the events and their codecs (src/events), against the tests that exercise it:
// `npx stryker run mutation/events.config.mjs` (Node >= 22; docs/evaluation.md, Mutation).
// With the project's vitest settings, as a test run has them. Most of this folder is codecs built when a module
// loads; the runner keeps loaded modules between mutants all the same, so those mutants never take effect:
// `node mutation/score.mjs reports/mutation-events.json` counts them apart (docs/evaluation.md, Mutation).
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	vitest: { related: false, configFile: "vitest.config.ts" },
	mutate: ["src/events/**/*.ts"],
	testFiles: [
		"test/unit/events/**/*.test.ts",
		"test/unit/reducers/**/*.test.ts",
		"test/unit/adapters/cli/session-file.test.ts",
		"test/properties/core.test.ts",
		"test/properties/transcript.test.ts",
		"test/properties/core-codecs.test.ts",
		"test/properties/fast-codec.test.ts",
		"test/hostile/transcript.test.ts",
	],
	concurrency: 1,
	incrementalFile: "reports/stryker-events.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-events.json" },
};

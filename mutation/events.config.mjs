// Mutation testing of the events and their codecs (src/events), against the tests that exercise it:
// `npx stryker run mutation/events.config.mjs` (Node >= 22; docs/evaluation.md, Mutation).
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/events/**/*.ts"],
	testFiles: [
		"test/unit/events/**/*.test.ts",
		"test/unit/reducers/fold.test.ts",
		"test/properties/core-codecs.test.ts",
		"test/properties/fast-codec.test.ts",
		"test/hostile/transcript.test.ts",
		"test/properties/core.test.ts",
	],
	concurrency: 1,
	incrementalFile: "reports/stryker-events.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-events.json" },
};

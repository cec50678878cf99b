// Mutation testing of the prompt (src/pass/prompt), against the tests that exercise it:
// `npx stryker run mutation/prompt.config.mjs` (Node >= 22; docs/evaluation.md, Mutation).
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/pass/prompt/**/*.ts"],
	testFiles: [
		"test/unit/pass/prompt/**/*.test.ts",
		"test/unit/adapters/pass/**/*.test.ts",
		"test/unit/adapters/redact/pass-redaction.test.ts",
		"test/properties/redact.test.ts",
	],
	concurrency: 1,
	incrementalFile: "reports/stryker-prompt.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-prompt.json" },
};

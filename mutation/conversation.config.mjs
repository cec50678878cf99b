// Mutation testing of the conversation decider (src/pass/conversation), against the tests that exercise it:
// `npx stryker run mutation/conversation.config.mjs` (Node >= 22; docs/evaluation.md, Mutation).
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/pass/conversation/**/*.ts"],
	testFiles: [
		"test/unit/pass/conversation/**/*.test.ts",
		"test/unit/adapters/pass/**/*.test.ts",
		"test/unit/adapters/redact/pass-redaction.test.ts",
		"test/properties/turns.test.ts",
	],
	concurrency: 1,
	incrementalFile: "reports/stryker-conversation.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-conversation.json" },
};

// Mutation testing of acceptance and its checks (src/pass/accept), against the tests that exercise it:
// `npx stryker run mutation/accept.config.mjs` (Node >= 22; docs/evaluation.md, Mutation).
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/pass/accept/**/*.ts"],
	testFiles: [
		"test/unit/pass/accept/**/*.test.ts",
		"test/properties/answer.test.ts",
		"test/properties/words.test.ts",
		"test/unit/pass/conversation/**/*.test.ts",
		"test/unit/adapters/pass/**/*.test.ts",
		"test/unit/adapters/redact/**/*.test.ts",
		"test/properties/redact.test.ts",
		"test/unit/pass/takeover/**/*.test.ts",
		"test/unit/pass/reader/**/*.test.ts",
	],
	concurrency: 1,
	incrementalFile: "reports/stryker-accept.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-accept.json" },
};

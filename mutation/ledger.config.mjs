// Mutation testing of the ledger of commands and errors (src/pass/ledger), against the tests that exercise it:
// `npx stryker run mutation/ledger.config.mjs` (Node >= 22; docs/evaluation.md, Mutation).
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/pass/ledger/**/*.ts"],
	testFiles: ["test/unit/pass/ledger/**/*.test.ts", "test/properties/ledger.test.ts"],
	concurrency: 1,
	incrementalFile: "reports/stryker-ledger.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-ledger.json" },
};

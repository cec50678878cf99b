// Mutation testing of the secret finders (src/pass/secrets) and the redactor that drives them (src/adapters/redact),
// against the tests that exercise them: `npx stryker run mutation/secrets.config.mjs` (Node >= 22; docs/evaluation.md,
// Mutation).
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/pass/secrets/**/*.ts", "src/adapters/redact/**/*.ts"],
	// The corpus and real-transcript tests run whole passes: with them a mutant takes seconds and the folder hours.
	testFiles: [
		"test/unit/pass/secrets/**/*.test.ts",
		"test/unit/adapters/redact/redactor.test.ts",
		"test/unit/adapters/redact/chunks.test.ts",
		"test/unit/adapters/redact/copies.test.ts",
		"test/unit/adapters/redact/json.test.ts",
		"test/unit/adapters/redact/prefilter.test.ts",
		"test/unit/adapters/redact/secretlint.test.ts",
		"test/unit/adapters/redact/span.test.ts",
		"test/properties/redact.test.ts",
	],
	concurrency: 1,
	incrementalFile: "reports/stryker-secrets.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-secrets.json" },
};

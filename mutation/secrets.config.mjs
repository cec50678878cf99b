// Mutation testing of the secret finders (src/pass/secrets) and the redactor that drives them (src/adapters/redact),
// against the tests that exercise them: `npx stryker run mutation/secrets.config.mjs` (Node >= 22; docs/evaluation.md,
// Mutation). The corpus test draws a new seed each run; REDACT_CORPUS_SEED fixes it, so every mutant meets the same
// secrets.
import base from "../stryker.config.mjs";

process.env.REDACT_CORPUS_SEED ??= "1011841285";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/pass/secrets/**/*.ts", "src/adapters/redact/**/*.ts"],
	testFiles: [
		"test/unit/pass/secrets/**/*.test.ts",
		"test/unit/adapters/redact/**/*.test.ts",
		"test/properties/redact.test.ts",
	],
	concurrency: 1,
	incrementalFile: "reports/stryker-secrets.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-secrets.json" },
};

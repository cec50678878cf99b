// Mutation testing of the pure core and the pass's checks (`npm run test:mutation`, Node >= 22). The configs in
// mutation/ score one folder each against the tests that exercise it, with these settings.
// Only the fast unit and property tests of these folders (and the redactor's, which hold secrets.ts's real tests)
// run against each mutant; e2e and hostile suites do not.
// Properties run 20 cases a mutant rather than 100 (FC_RUNS, see test/properties/laws.ts): the examples carry the
// kills, and five times the cases made the run five times longer on this two-core machine.
process.env.FC_RUNS ??= "20";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	testRunner: "vitest",
	vitest: { related: false, configFile: "vitest.mutation.config.mjs" },
	coverageAnalysis: "perTest",
	mutate: [
		"src/events/**/*.ts",
		"src/reducers/**/*.ts",
		"src/projections/**/*.ts",
		"src/pass/accept/verify/**/*.ts",
		"src/pass/conversation/**/*.ts",
	],
	testFiles: [
		"test/unit/events/**/*.test.ts",
		"test/unit/reducers/**/*.test.ts",
		"test/unit/projections/**/*.test.ts",
		"test/unit/pass/accept/verify/**/*.test.ts",
		"test/unit/adapters/cli/state-cli.test.ts",
		"test/hostile/terminal.test.ts",
		"test/properties/core.test.ts",
		"test/properties/core-codecs.test.ts",
		"test/properties/core-recall.test.ts",
		"test/properties/core-views.test.ts",
		"test/properties/core-model.test.ts",
		"test/properties/fast-codec.test.ts",
		"test/unit/pass/decide/decide.test.ts",
		"test/unit/pass/takeover/takeover.test.ts",
		"test/unit/pass/span/span.test.ts",
		"test/unit/pass/ledger/ledger.test.ts",
		"test/unit/pass/accept/accept.test.ts",
		"test/hostile/transcript.test.ts",
		"test/unit/adapters/redact/**/*.test.ts",
		"test/properties/redact.test.ts",
		"test/unit/pass/conversation/**/*.test.ts",
		"test/unit/adapters/pass/turns.test.ts",
		"test/unit/adapters/pass/diff-rules.test.ts",
		"test/properties/turns.test.ts",
	],
	// Static mutants (module-level constants) need every test per mutant; they are left out of the score for time.
	ignoreStatic: true,
	concurrency: 2,
	incremental: true,
	incrementalFile: "reports/stryker-incremental.json",
	tempDirName: ".stryker-tmp",
	reporters: ["clear-text", "progress", "html"],
	htmlReporter: { fileName: "reports/mutation/index.html" },
	clearTextReporter: { allowColor: false, logTests: false },
	thresholds: { high: 90, low: 85, break: 85 },
};

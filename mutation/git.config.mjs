// Mutation testing of the World's git (src/adapters/git) against its tests: `npx stryker run mutation/git.config.mjs`
// (Node >= 22; docs/evaluation.md, Mutation). The tests start real git and a real shell, so a mutant takes seconds.
import base from "../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	...base,
	mutate: ["src/adapters/git/**/*.ts"],
	testFiles: ["test/unit/adapters/git/**/*.test.ts"],
	incrementalFile: "reports/stryker-git.json",
	reporters: ["clear-text", "progress", "json"],
	jsonReporter: { fileName: "reports/mutation-git.json" },
};

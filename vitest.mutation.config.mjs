// The vitest settings Stryker runs with (`stryker.config.mjs`): the project's, but modules are kept between test
// files and runs. Safe here because Stryker leaves static mutants out, so a mutant is switched on at run time.
import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		isolate: false,
		testTimeout: 60_000,
		hookTimeout: 60_000,
	},
});

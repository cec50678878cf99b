import { defineConfig } from "vitest/config";

// The in-pi suite: every test file that drives a real pi session through test/support/pi-harness.ts. Here pi 1.x is
// the default (`npm run test:pi1`, Node >= 22.19; pi 1.x does not load on Node 20): LONGHAUL_PI=1 makes the harness
// start `@earendil-works/pi-coding-agent`, LONGHAUL_PI=0 pi 0.73.1. LONGHAUL_PI_PROVIDER=extension serves the model
// from an extension's own provider stream instead of pi-ai's registry. `npm test` runs these files under pi 0.73.1.
export default defineConfig({
	test: {
		include: [
			"test/e2e/core-model.test.ts",
			"test/e2e/extension.test.ts",
			"test/e2e/extension-provider.test.ts",
			"test/e2e/harness.test.ts",
			"test/e2e/pi-material.test.ts",
			"test/e2e/recall.test.ts",
			"test/e2e/redaction.test.ts",
			"test/e2e/redaction-attacks.test.ts",
			"test/e2e/redaction-rule-secret.test.ts",
			"test/e2e/takeover-cut.test.ts",
			"test/hostile/concurrency.test.ts",
			"test/hostile/injection.test.ts",
			"test/hostile/log.test.ts",
			"test/hostile/model-faults.test.ts",
			"test/hostile/repository.test.ts",
		],
		env: { LONGHAUL_PI: process.env.LONGHAUL_PI ?? "1" },
		globalSetup: ["test/support/run-temp-root.ts"],
		testTimeout: 60_000,
		hookTimeout: 60_000,
	},
});

import { describe, expect, it } from "vitest";
import { runDemoCli } from "../../../src/eval/demo-cli.js";
import { isTerminalSafe } from "../../../src/projections/index.js";
import { repoRoot } from "../../support/shared.js";

describe("npm run demo", () => {
	it("replays the demo transcript and prints a state with the demo's rules, its lift and its open error", async () => {
		const run = await runDemoCli([], { root: repoRoot, now: () => performance.now() });
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		expect(run.stdout).toContain("FAKED: the model.");
		expect(run.stdout).toMatch(/^compactions by pi +1$/m);
		expect(run.stdout).toMatch(/^compactions by Longhaul +2$/m);
		expect(run.stdout).toMatch(/^handler errors +0$/m);
		const state = run.stdout.slice(run.stdout.indexOf("# Session state (Longhaul)"));
		const rules = state.slice(state.indexOf("## Rules in force"), state.indexOf("## Decisions"));
		expect(rules).toContain("> Don't log request bodies anywhere, they can hold card numbers.");
		// u4's commit rule was lifted by u7, so it is not in force.
		expect(rules).not.toContain("commit after every green test run");
		expect(state).toMatch(/^- R\d+ \(u4\) lifted by u7: Now the limiter itself/m);
		expect(state).toContain("AWS_REGION: unbound variable");
		expect(state).toContain("Foreign compactions (not Longhaul's): 1");
		expect(isTerminalSafe(run.stdout)).toBe(true);
	});

	it("takes no arguments", async () => {
		const run = await runDemoCli(["--json"], { root: repoRoot, now: () => 0 });
		expect(run.code).toBe(2);
	});
});

import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runFactsCli } from "../../../src/eval/facts-cli.js";
import { runReplayCli } from "../../../src/eval/replay-cli.js";
import { copyShared, describeShared, repoRoot, sharedTranscripts } from "../../support/shared.js";

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describeShared("replay and facts on the real transcripts in ../shared", () => {
	it("replays both v1 files with zero handler errors and no fallback, leaving their bytes unchanged", async () => {
		const files = readdirSync(sharedTranscripts)
			.filter((name) => name.endsWith(".jsonl"))
			.map(copyShared);
		const before = files.map(sha);
		const out = mkdtempSync(join(tmpdir(), "longhaul-replay-shared-"));
		const run = await runReplayCli([...files, "--out", out], { root: repoRoot, now: () => performance.now() });
		expect(run.code).toBe(0);
		expect(run.stdout).toMatch(/^handler errors +0 +0$/m);
		expect(run.stdout).toMatch(/^fallbacks +0 +0$/m);
		expect(run.stdout).toMatch(/^compactions pi refused +0 +0$/m);
		expect(files.map(sha)).toEqual(before);
		const facts = runFactsCli([...files, ...readdirSync(out).map((name) => join(out, name))], { root: repoRoot });
		expect(facts.code).toBe(0);
		expect(facts.stdout).toMatch(/^pi +2 /m);
		expect(facts.stdout).toMatch(/^longhaul +[1-9][0-9]* /m);
	});
});

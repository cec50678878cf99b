import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runStateCli } from "../../../src/adapters/cli/state-cli.js";
import { runReplayCli } from "../../../src/eval/replay-cli.js";
import { copyShared, describeShared, repoRoot } from "../../support/shared.js";

/*
 * (docs/contracts.md, Stored sessions and ids), on sessions Longhaul wrote: each real transcript in ../shared replayed
 * through Longhaul inside pi (`longhaul replay FILE --out DIR`, the faux model, every compaction Longhaul's), then
 * `longhaul state FILE --json` on the session the replay wrote. The replayed files differ run to run (pi's entry ids
 * and timestamps, the temp cwd, faux's API name, each pass's `ms`), but none of that reaches `state --json`, which is
 * the same bytes on every run; its sha256 is pinned here (the output holds the transcripts' words, which may not be
 * committed). Made again for issue 20's open errors, the one change meant: a failed edit fixed by a later edit of its
 * file, an aborted command no error, the session's model failing a `model-failed` of its own (before-compaction: 4 open
 * errors to 0, 3 fixed to 6; large-session: 6 open to 3, and `modelFailures` [terminated]); every other key the same
 * bytes. docs/architecture.md says when and how to make them again.
 */

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describeShared("the real transcripts replayed through Longhaul give the same state --json", () => {
	it.each([
		["before-compaction.jsonl", "e152188a9e6a7190add9baa62a1071f352d9185d4c2ec5da14904589e206cb7b"],
		["large-session.jsonl", "3af8825b7907b79cccea4456d46c687f46ba3cd59e37313caeecd5db3293d69a"],
	])(
		"%s",
		async (name, jsonSha) => {
			const out = mkdtempSync(join(tmpdir(), "longhaul-replayed-state-"));
			const replay = await runReplayCli([copyShared(name), "--out", out], { root: repoRoot, now: () => 0 });
			expect(replay.code).toBe(0);
			const written = readdirSync(out);
			expect(written).toHaveLength(1);
			const state = await runStateCli([join(out, written[0] ?? ""), "--json"], {});
			expect(state.code).toBe(0);
			expect(sha(state.stdout)).toBe(jsonSha);
		},
		180_000,
	);
});

import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runStateCli } from "../../../src/adapters/cli/state-cli.js";
import { runReplayCli } from "../../../src/adapters/eval/replay-cli.js";
import { copyShared, describeShared, repoRoot } from "../../support/shared.js";

/*
 * SPEC 8.7, on sessions Longhaul wrote: each real transcript in ../shared replayed through Longhaul inside pi
 * (`longhaul replay FILE --out DIR`, the faux model, every compaction Longhaul's), then `longhaul state FILE --json`
 * on the session the replay wrote. The replayed files differ run to run (pi's entry ids and timestamps, the temp
 * cwd, faux's API name, each pass's `ms`), but none of that reaches `state --json`, which is the same bytes on every
 * run; its sha256 is pinned here (the output holds the transcripts' words, which may not be committed). The digests
 * were made by 2cb1861, before the core was reshaped as a decider; docs/architecture.md says when and how to make
 * them again.
 */

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describeShared("the real transcripts replayed through Longhaul give the same state --json", () => {
	it.each([
		["before-compaction.jsonl", "58550320aee62a26645f03add17ba7236392123bcc5d90bf83ad9d646bd462d6"],
		["large-session.jsonl", "90c96a045ee83c475768dd87955e069acf540abb534d0f74badb6ecf129eedab"],
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

import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runStateCli } from "../../../src/adapters/cli/state-cli.js";
import { foldTranscript } from "../../../src/reducers/index.js";
import { copyShared, hasShared, repoRoot } from "../../support/shared.js";
import { storedSessionText } from "../../support/stored-session.js";

/*
 * (docs/contracts.md, Stored sessions and ids): sessions stored with stateFormat 1 fold to the same state, byte for
 * byte. The expected outputs were made by the fold as it was before events carried their ids (commit 865b150): golden
 * files for the project's own transcripts, and only sha256 digests for the real ones in ../shared, which may not be
 * committed. The `--json` golden files were made again after issue 14, which names its change of the values view
 * (docs/contracts.md, Values in the summary); the folded States (`*.fold.txt`) are still those of 865b150. The e2e
 * sessions (`e2e-*.jsonl`, three scenarios played in a real pi session with Longhaul by
 * test/support/make-golden-sessions.ts) and their `state --json` outputs (`e2e-*.state.txt`) were made by 2cb1861,
 * before the core was reshaped as a decider; the real transcripts replayed through Longhaul are pinned in
 * test/e2e/eval/replayed-state.test.ts. docs/architecture.md says when and how to make them again.
 */

const golden = (name: string) => readFileSync(join(repoRoot, "test/fixtures/golden", name), "utf8");
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** `state FILE --json` as the CLI prints it, and the whole folded State (counters and closes included). */
async function outputs(path: string): Promise<{ json: string; fold: string }> {
	const cli = await runStateCli([path, "--json"], {});
	expect(cli.code).toBe(0);
	return { json: cli.stdout, fold: `${JSON.stringify(foldTranscript(readFileSync(path, "utf8")).state, null, 2)}\n` };
}

describe("stored sessions fold to the same state, byte for byte (docs/contracts.md, Stored sessions and ids)", () => {
	it("the demo transcript", async () => {
		const got = await outputs(join(repoRoot, "test/fixtures/demo/demo.jsonl"));
		expect(got.json).toBe(golden("demo.state.txt"));
		expect(got.fold).toBe(golden("demo.fold.txt"));
	});

	it("a stored session with every event kind and every case the reducer decides", async () => {
		const path = join(mkdtempSync(join(tmpdir(), "longhaul-stored-")), "stored.jsonl");
		writeFileSync(path, storedSessionText());
		const got = await outputs(path);
		expect(got.json).toBe(golden("stored-session.state.txt"));
		expect(got.fold).toBe(golden("stored-session.fold.txt"));
	});

	it.each(["rules-notes-errors", "tree", "fork", "takeover"])("the e2e session %s", async (name) => {
		const cli = await runStateCli([join(repoRoot, `test/fixtures/golden/e2e-${name}.jsonl`), "--json"], {});
		expect(cli.code).toBe(0);
		expect(cli.stdout).toBe(golden(`e2e-${name}.state.txt`));
	});

	describe.skipIf(!hasShared)("the real transcripts in ../shared (skipped where ../shared is absent)", () => {
		it.each([
			[
				"before-compaction.jsonl",
				"b3e8003e844f233981d389f16fdf0b1adb5f8b9afa3a3d9f873dd05749030b04",
				"afc7c84b64cebff2c2ed02a01624a06a85845710aa4f6e7ef50c573c4c4799ee",
			],
			[
				"large-session.jsonl",
				"10c1a773d426c24214a58ce00904f15f8606830c71db2d6cc13b808fdc514645",
				"9bb9a02867b4677bfb588f8f2fa550359146d33395c682eb836cb5f212895bfd",
			],
		])("%s", async (name, jsonSha, foldSha) => {
			const path = copyShared(name);
			const cli = await runStateCli([path, "--json"], {});
			expect(cli.code).toBe(0);
			expect(sha(cli.stdout)).toBe(jsonSha);
			expect(sha(JSON.stringify(foldTranscript(readFileSync(path, "utf8")).state))).toBe(foldSha);
		});
	});
});

import { resolve } from "node:path";
import type { CliResult } from "../src/adapters/cli/state-cli.js";
import { repoRoot } from "../src/eval/repo-root.js";
import { factsBench } from "./facts-bench.js";
import { foldBench } from "./fold-bench.js";
import { longSessionBench } from "./long-session-bench.js";
import { passBench } from "./pass-bench.js";
import { previewBench } from "./preview-bench.js";
import { factsScaleBench, longLineBench } from "./read-bench.js";
import { readerBench } from "./reader-bench.js";
import { recallBench } from "./recall-bench.js";
import { redactBench } from "./redact-bench.js";
import { sessionCountsBench } from "./session-counts-bench.js";
import { npmStateBench, stateBench } from "./state-bench.js";
import { endsOnlyBench, strangersTextBench } from "./strangers-text-bench.js";

/** `longhaul bench` (`npm run bench`): prints each figure as it is measured; takes no arguments. */
export async function runBench(argv: readonly string[]): Promise<CliResult> {
	if (argv.length > 0) return { stdout: "", stderr: "usage: longhaul bench (npm run bench)\n", code: 2 };
	const root = repoRoot();
	const shared = resolve(root, "../shared/fixtures/transcripts");
	process.stdout.write(
		"Longhaul benchmarks (docs/contracts.md, Performance targets): ratios against baselines measured in this same run, and absolute rates where a target sets one\n",
	);
	foldBench();
	stateBench(root, resolve(shared, "before-compaction.jsonl"));
	npmStateBench(root, resolve(shared, "before-compaction.jsonl"));
	previewBench(root, resolve(shared, "before-compaction.jsonl"));
	longLineBench(root);
	factsScaleBench();
	await redactBench(
		await passBench([resolve(shared, "before-compaction.jsonl"), resolve(shared, "large-session.jsonl")]),
	);
	await longSessionBench(root);
	await recallBench(resolve(shared, "before-compaction.jsonl"));

	await factsBench(root, [
		resolve(shared, "before-compaction.jsonl"),
		resolve(shared, "large-session.jsonl"),
		resolve(root, "test/fixtures/demo/demo.jsonl"),
	]);
	readerBench(resolve(root, "test/fixtures/reader-corpus"), shared);
	strangersTextBench();
	endsOnlyBench();
	sessionCountsBench();
	return { stdout: "", stderr: "", code: 0 };
}

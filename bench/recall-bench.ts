import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compactedPassages } from "../src/adapters/recall/passages.js";
import { searchPassages } from "../src/adapters/recall/search.js";
import { foldTranscript } from "../src/reducers/index.js";
import { median, timeRuns } from "./measure.js";

/** Words of an error line in the part of before-compaction.jsonl that pi's compactions removed. */
const QUERY = "tokensAfter does not exist";

/**
 * `longhaul_recall({ query })` over the branch of a transcript (its passages, the index built afresh, the search),
 * as a ratio to folding the same branch, side by side in this process. SPEC 8.4 sets no target; it is reported.
 */
export function recallBench(transcript: string): void {
	if (!existsSync(transcript)) {
		process.stdout.write(
			"skip recall query vs fold: ../shared/fixtures/transcripts/before-compaction.jsonl is absent\n",
		);
		return;
	}
	const dir = mkdtempSync(join(tmpdir(), "longhaul-recall-bench-"));
	try {
		const copy = join(dir, "transcript.jsonl");
		copyFileSync(transcript, copy);
		const text = readFileSync(copy, "utf8");
		const folded = foldTranscript(text);
		const passages = compactedPassages(folded);
		const fold: number[] = [];
		const recall: number[] = [];
		for (let i = 0; i < 5; i++) {
			fold.push(...timeRuns(1, () => foldTranscript(text)));
			recall.push(...timeRuns(1, () => searchPassages(QUERY, compactedPassages(folded))));
		}
		const ratio = median(recall) / median(fold);
		const figure = `${ratio.toFixed(2)}x (${median(recall).toFixed(0)} vs ${median(fold).toFixed(0)} ms)`;
		const name = `recall query, ${passages.length} compacted passages`;
		process.stdout.write(`info ${name.padEnd(44)} ${figure.padEnd(34)} ratio to its fold; no target set\n`);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

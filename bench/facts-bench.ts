import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { readSessionFile } from "../src/adapters/cli/session-file.js";
import { runFactsCli } from "../src/eval/facts-cli.js";
import { replayTranscript } from "../src/eval/replay.js";

// (docs/contracts.md, Performance targets), facts per transcript: each transcript's recorded compactions beside a
// replay of it through a real pi session (only the model faked) in which the other compactor compacts at the same cuts.
// A transcript without compactions is first replayed with pi's own compaction every 20 user turns, which records pi's
// cuts.

const EVERY = 20;

/** The facts table of one transcript against its replay by the other compactor. */
async function factsOf(root: string, path: string, dir: string): Promise<string> {
	const text = readSessionFile(path);
	if (E.isLeft(text)) return `skip facts ${basename(path)}: ${text.left}\n`;
	const base = { extensionPath: root, every: EVERY, diff: "stand-in" as const };
	const hasCompactions = text.right.includes('"type":"compaction"');
	const recorded = hasCompactions
		? text.right
		: (await replayTranscript(text.right, { ...base, compactors: "pi" })).jsonl;
	const byLonghaul = !recorded.includes('"longhaul":true');
	const replayed = await replayTranscript(recorded, { ...base, compactors: byLonghaul ? "longhaul" : "pi" });
	const name = basename(path, ".jsonl");
	const recordedPath = join(dir, `${name}.jsonl`);
	const replayPath = join(dir, `${name}.${byLonghaul ? "longhaul" : "pi"}-replay.jsonl`);
	writeFileSync(recordedPath, recorded);
	writeFileSync(replayPath, replayed.jsonl);
	const facts = runFactsCli([recordedPath, "--replayed", replayPath], { root });
	const how = hasCompactions ? "" : ` (no compaction recorded: pi's own every ${EVERY} user turns, replayed first)`;
	return `${name}${how}:\n${facts.stdout}${facts.stderr}`;
}

/** Prints the facts table of each transcript that exists. */
export async function factsBench(root: string, transcripts: readonly string[]): Promise<void> {
	process.stdout.write(
		"\nFacts per transcript (npm run facts -- RECORDED --replayed REPLAY), compactors at the same cuts:\n",
	);
	const dir = mkdtempSync(join(tmpdir(), "longhaul-bench-facts-"));
	try {
		for (const path of transcripts) {
			if (!existsSync(path)) {
				process.stdout.write(`skip facts: ${path} is absent\n`);
				continue;
			}
			process.stdout.write(await factsOf(root, path, dir));
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

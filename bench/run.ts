import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runFactsCli } from "../src/adapters/eval/facts-cli.js";
import { foldBench } from "./fold-bench.js";
import { passBench } from "./pass-bench.js";
import { redactBench } from "./redact-bench.js";
import { stateBench } from "./state-bench.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const shared = resolve(root, "../shared/fixtures/transcripts");

process.stdout.write(
	"Longhaul benchmarks (SPEC 6): ratios against baselines measured in this same run, and absolute rates where SPEC 6 sets one\n",
);
foldBench();
stateBench(resolve(shared, "before-compaction.jsonl"));
await redactBench(
	await passBench([resolve(shared, "before-compaction.jsonl"), resolve(shared, "large-session.jsonl")]),
);

const bundled = [
	resolve(shared, "before-compaction.jsonl"),
	resolve(shared, "large-session.jsonl"),
	resolve(root, "test/fixtures/demo/demo.jsonl"),
];
const facts = runFactsCli(
	bundled.filter((path) => existsSync(path)),
	{ root },
);
process.stdout.write(
	`\nValues reused after a compaction, and how many each compactor's summary kept (npm run facts):\n${facts.stdout}`,
);

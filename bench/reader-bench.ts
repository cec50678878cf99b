import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { branchOf, readTranscript, userMessages } from "../src/events/index.js";
import { readsAsStandingRule } from "../src/pass/reader/index.js";
import { report } from "./measure.js";
import { type Labeled, readCorpus, readTranscriptLabels, type Score, score } from "./reader-corpus.js";

const PRECISION = 0.95;
const RECALL = 0.9;

function counts(s: Score<Labeled>): string {
	return `(${s.rows} rows: ${s.truePositives} tp, ${s.falsePositives} fp, ${s.falseNegatives} fn)`;
}

/** The corpus's two splits: the holdout held to the targets, the tune split for information (its misses listed). */
function corpusBench(path: string, verbose: boolean): void {
	const { rows, bad } = readCorpus(readFileSync(path, "utf8"));
	process.stdout.write(`\nThe standing-rule reader on its labeled corpus (${rows.length} rows):\n`);
	if (bad.length > 0) process.stdout.write(`MISS corpus lines that do not decode: ${bad.join(", ")}\n`);
	for (const split of ["holdout", "tune"] as const) {
		const s = score(
			rows.filter((row) => row.split === split),
			readsAsStandingRule,
		);
		const held = split === "holdout";
		const target = (at: number) => (held ? `>= ${at}` : "info");
		report(
			`reader ${split} precision ${counts(s)}`,
			s.precision.toFixed(3),
			target(PRECISION),
			!held || s.precision >= PRECISION,
		);
		report(`reader ${split} recall`, s.recall.toFixed(3), target(RECALL), !held || s.recall >= RECALL);
		if (verbose && !held) {
			for (const row of s.wrong) {
				process.stdout.write(`  ${row.label === "standing" ? "fn" : "fp"} ${JSON.stringify(row.text)}\n`);
			}
		}
	}
}

/** Every user message of the real transcripts present, labeled by ref; for information (written by a real user). */
function transcriptsBench(labelsPath: string, transcripts: string): void {
	const labels = existsSync(labelsPath) ? readTranscriptLabels(readFileSync(labelsPath, "utf8")) : undefined;
	if (labels === undefined) {
		process.stdout.write(`MISS ${labelsPath} is absent or does not decode\n`);
		return;
	}
	for (const [name, labeled] of Object.entries(labels)) {
		const path = join(transcripts, name);
		if (!existsSync(path)) {
			process.stdout.write(`skip reader on ${name}: ../shared is absent\n`);
			continue;
		}
		const users = userMessages(branchOf(readTranscript(readFileSync(path, "utf8")).entries).entries);
		const rows = users.map((u) => ({ text: u.text, label: u.ref in labeled.standing ? "standing" : "not" }) as const);
		const s = score(rows, readsAsStandingRule);
		report(
			`reader on ${name} ${counts(s)}`,
			`precision ${s.precision.toFixed(3)}, recall ${s.recall.toFixed(3)}`,
			"info",
			true,
		);
	}
}

/**
 * The standing-rule reader on its labeled corpus (`dir`/corpus.jsonl): precision and recall on the holdout third
 * (never used for tuning, held to the targets) and on the tune split for information; then on the real transcripts
 * in `transcripts`, labeled by ref in `dir`/transcripts.json. `verbose` lists the tune split's misses.
 */
export function readerBench(dir: string, transcripts: string, verbose = false): void {
	const corpus = join(dir, "corpus.jsonl");
	if (!existsSync(corpus)) {
		process.stdout.write(`skip reader benchmark: ${corpus} is absent\n`);
		return;
	}
	corpusBench(corpus, verbose);
	transcriptsBench(join(dir, "transcripts.json"), transcripts);
}

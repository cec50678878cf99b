import { existsSync, readFileSync } from "node:fs";
import { readsAsStandingRule } from "../src/pass/standing-rules.js";
import { report } from "./measure.js";
import { readCorpus, score } from "./reader-corpus.js";

const PRECISION = 0.95;
const RECALL = 0.9;

/**
 * The standing-rule reader on its labeled corpus: precision and recall on the holdout third (never used for tuning,
 * held to the targets) and on the tune split for information. `verbose` lists the rows read wrongly.
 */
export function readerBench(corpusPath: string, verbose = false): void {
	if (!existsSync(corpusPath)) {
		process.stdout.write(`skip reader benchmark: ${corpusPath} is absent\n`);
		return;
	}
	const { rows, bad } = readCorpus(readFileSync(corpusPath, "utf8"));
	process.stdout.write(`\nThe standing-rule reader on its labeled corpus (${rows.length} rows):\n`);
	if (bad.length > 0) process.stdout.write(`MISS corpus lines that do not decode: ${bad.join(", ")}\n`);
	for (const split of ["holdout", "tune"] as const) {
		const s = score(
			rows.filter((row) => row.split === split),
			readsAsStandingRule,
		);
		const counts = `(${s.rows} rows: ${s.truePositives} tp, ${s.falsePositives} fp, ${s.falseNegatives} fn)`;
		const held = split === "holdout";
		report(
			`reader ${split} precision ${counts}`,
			s.precision.toFixed(3),
			held ? `>= ${PRECISION}` : "info",
			!held || s.precision >= PRECISION,
		);
		report(`reader ${split} recall`, s.recall.toFixed(3), held ? `>= ${RECALL}` : "info", !held || s.recall >= RECALL);
		if (verbose && !held) {
			for (const row of s.wrong)
				process.stdout.write(`  ${row.label === "standing" ? "fn" : "fp"} ${JSON.stringify(row.text)}\n`);
		}
	}
}

import { createRedactor, type Redactor } from "../src/adapters/redact/index.js";
import { median, report } from "./measure.js";
import type { PassFigures } from "./pass-bench.js";
import { FORMS, leakedPiece, ordinaryStrings, plantedSecrets, SECRET_KINDS, shown } from "./redact-corpus.js";

/** Milliseconds each of `runs` awaited calls of `f` took, after one warm-up call (secretlint's first lint loads more). */
async function timeAsync(runs: number, f: () => Promise<unknown>): Promise<number[]> {
	await f();
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const start = performance.now();
		await f();
		times.push(performance.now() - start);
	}
	return times;
}

/**
 * Recall and precision of redaction on the generated corpus (bench/redact-corpus.ts): every secret in each form,
 * one batch per form (so a copy found in one form cannot hide a miss in another), and the ordinary strings.
 */
async function corpusFigures(redactor: Redactor, seed: number): Promise<void> {
	const secrets = plantedSecrets(seed, 5);
	let found = 0;
	for (const [n, form] of FORMS.entries()) {
		const texts = secrets.map((s, i) => `$ cat .env\nPORT=5173\n${shown(s.text, form, n + i)}\nDEBUG=1\n`);
		const outputs = await redactor.redactAll(texts);
		found += secrets.filter((s, i) => {
			const out = outputs[i] ?? "";
			return out.includes("[redacted:") && leakedPiece(out, s) === undefined;
		}).length;
	}
	const planted = secrets.length * FORMS.length;
	const ordinary = ordinaryStrings(seed, 400);
	const redacted = await redactor.redactAll(ordinary);
	const marked = ordinary.filter((text, i) => redacted[i] !== text).length;
	const precision = found / Math.max(1, found + marked);
	report(
		`redaction recall (${planted} secrets, ${SECRET_KINDS} kinds, ${FORMS.length} forms)`,
		`${((100 * found) / planted).toFixed(1)}% (${found}/${planted}, seed ${seed})`,
		"100%",
		found === planted,
	);
	report(
		`redaction precision (${ordinary.length} ordinary strings)`,
		`${(100 * precision).toFixed(1)}% (${marked} ordinary marked)`,
		"100% (none marked)",
		marked === 0,
	);
}

/**
 * Redaction of what the pass on the largest real span lets leave (the prompts it sent and the summary), in one batch,
 * against the same pass without its model calls, measured in this run.
 */
export async function redactBench(pass: PassFigures | undefined): Promise<void> {
	await corpusFigures(createRedactor(true), Date.now() % 2 ** 31);
	if (pass === undefined) {
		process.stdout.write("skip redaction vs pass: the real transcripts in ../shared are absent\n");
		return;
	}
	const redactor = createRedactor(true);
	const chars = pass.leaving.reduce((sum, text) => sum + text.length, 0);
	const redactMs = median(await timeAsync(15, () => redactor.redactAll(pass.leaving)));
	const ratio = redactMs / pass.passMs;
	report(
		`redaction of the pass's prompt and summary (${Math.round(chars / 1000)}k chars)`,
		`${ratio.toFixed(3)}x (${redactMs.toFixed(1)} vs ${pass.passMs.toFixed(1)} ms)`,
		"<= 0.2x the pass",
		ratio <= 0.2,
	);
}

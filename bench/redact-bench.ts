import { createRedactor } from "../src/adapters/redact/index.js";
import { median, report } from "./measure.js";
import type { PassFigures } from "./pass-bench.js";

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
 * Redaction of what the pass on the largest real span lets leave (the prompts it sent and the summary), in one batch,
 * against the same pass without its model calls, measured in this run.
 */
export async function redactBench(pass: PassFigures | undefined): Promise<void> {
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

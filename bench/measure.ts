import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Median of numbers. */
export function median(xs: readonly number[]): number {
	const sorted = [...xs].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Milliseconds each of `runs` calls of `f` took, after one warm-up call; `before` runs untimed before each. */
export function timeRuns(runs: number, f: () => unknown, before: () => void = () => {}): number[] {
	f();
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		before();
		const start = performance.now();
		f();
		times.push(performance.now() - start);
	}
	return times;
}

/**
 * A plain scan of the texts: every char code read once, line breaks counted (the count is printed, so the loop's
 * work is used). The floor redaction's cost is measured against.
 */
export function plainScan(texts: readonly string[]): number {
	let lines = 0;
	for (const text of texts) for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
	return lines;
}

setFlagsFromString("--expose-gc");
// Asked for by `typeof`: where the flag did not take, a bare `gc` would throw as this module loads.
const exposed: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined");
/** A full collection, where V8 lets the bench ask for one (`--expose-gc`, set as the bench starts). */
const collectGarbage = (): void => {
	if (typeof exposed === "function") exposed();
};

/** A line of the report: a name, a figure, and whether it meets its target. */
export function report(name: string, figure: string, target: string, ok: boolean): void {
	process.stdout.write(`${ok ? "ok  " : "MISS"} ${name.padEnd(44)} ${figure.padEnd(34)} target ${target}\n`);
}

/**
 * How a cost grows with four times its input: at most 6x, where a linear cost grows about 4x and a quadratic one 16x.
 * `large` runs on the input four times `small`'s; `size` names it. Each size is timed five times and the fastest run
 * counts: what a busy machine or a collection adds is never less, and with the median one slow run at the larger size
 * moved a linear reader's figure from 3.8x past 6x.
 */
export function reportGrowth(name: string, small: () => unknown, large: () => unknown, size: string): void {
	// Each run after a full collection: the garbage of the run before (a large input's, or the small one's made
	// ready) is not collected in the run timed, so a run pays for what it allocates itself.
	const smallMs = Math.min(...timeRuns(5, small, collectGarbage));
	const largeMs = Math.min(...timeRuns(5, large, collectGarbage));
	const growth = largeMs / Math.max(smallMs, 0.001);
	report(
		name,
		`${growth.toFixed(1)}x (${smallMs.toFixed(1)} -> ${largeMs.toFixed(1)} ms, ${size})`,
		"<= 6x for 4x the input",
		growth <= 6,
	);
}

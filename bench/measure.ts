/** Median of numbers. */
export function median(xs: readonly number[]): number {
	const sorted = [...xs].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Milliseconds each of `runs` calls of `f` took, after one warm-up call. */
export function timeRuns(runs: number, f: () => void): number[] {
	f();
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const start = performance.now();
		f();
		times.push(performance.now() - start);
	}
	return times;
}

/** A line of the report: a name, a figure, and whether it meets its target. */
export function report(name: string, figure: string, target: string, ok: boolean): void {
	process.stdout.write(`${ok ? "ok  " : "MISS"} ${name.padEnd(44)} ${figure.padEnd(34)} target ${target}\n`);
}

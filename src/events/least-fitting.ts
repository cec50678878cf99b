/**
 * The smallest count in [0, max] for which `fits(count)` holds, where it holds from there on (false, then true), or
 * max when none below max does: a binary search, `fits` asked about log2(max) times. The one search of a sorted run:
 * a region by its start, a suffix by its words, a cut by its length, an occurrence by its entry.
 */
export function leastFitting(max: number, fits: (count: number) => boolean): number {
	let low = 0;
	let high = max;
	while (low < high) {
		const mid = (low + high) >>> 1;
		if (fits(mid)) high = mid;
		else low = mid + 1;
	}
	return low;
}

/**
 * The offsets of `text` ordered by their code unit, equal ones in text order: a stable counting sort by the low byte,
 * then by the high byte (two passes of 256 counts, where one of 65,536 would cost a short text more than its sort).
 */
function byCodeUnit(text: string): Int32Array {
	const n = text.length;
	const counts = new Int32Array(257);
	let order = new Int32Array(n);
	for (let i = 0; i < n; i++) order[i] = i;
	let sorted = new Int32Array(n);
	for (const shift of [0, 8]) {
		counts.fill(0);
		for (let k = 0; k < n; k++) {
			const b = ((text.charCodeAt(order[k] ?? 0) >> shift) & 255) + 1;
			counts[b] = (counts[b] ?? 0) + 1;
		}
		for (let b = 1; b <= 256; b++) counts[b] = (counts[b] ?? 0) + (counts[b - 1] ?? 0);
		for (let k = 0; k < n; k++) {
			const at = order[k] ?? 0;
			const b = (text.charCodeAt(at) >> shift) & 255;
			const place = counts[b] ?? 0;
			sorted[place] = at;
			counts[b] = place + 1;
		}
		[order, sorted] = [sorted, order];
	}
	return order;
}

/**
 * The suffix array of `text`: the offsets of its suffixes (by code unit) in the order of their code units, a shorter
 * suffix before a longer one it begins. Made by prefix doubling with counting sorts: each round orders the suffixes by
 * twice as many code units as the last, from the order and ranks the last left, in time linear in the text; a round
 * after which no two suffixes share a rank is the last, so a text takes at most log2 of its length rounds (a periodic
 * one all of them), and no text costs more than that.
 */
export function suffixArray(text: string): Int32Array {
	const n = text.length;
	const order = byCodeUnit(text);
	let rank = new Int32Array(n);
	let top = 0;
	for (let k = 1; k < n; k++) {
		const at = order[k] ?? 0;
		if (text.charCodeAt(at) !== text.charCodeAt(order[k - 1] ?? 0)) top++;
		rank[at] = top;
	}
	const byNext = new Int32Array(n);
	const counts = new Int32Array(n + 1);
	let next = new Int32Array(n);
	for (let width = 1; top < n - 1; width *= 2) {
		// By the rank `width` further on: the suffixes with nothing there first, then the rest in the last order.
		let filled = 0;
		for (let i = n - width; i < n; i++) byNext[filled++] = i;
		for (let k = 0; k < n; k++) {
			const at = order[k] ?? 0;
			if (at >= width) byNext[filled++] = at - width;
		}
		// Then by their own rank, stably: a counting sort.
		counts.fill(0);
		for (let k = 0; k < n; k++) {
			const r = (rank[byNext[k] ?? 0] ?? 0) + 1;
			counts[r] = (counts[r] ?? 0) + 1;
		}
		for (let r = 1; r <= n; r++) counts[r] = (counts[r] ?? 0) + (counts[r - 1] ?? 0);
		for (let k = 0; k < n; k++) {
			const at = byNext[k] ?? 0;
			const r = rank[at] ?? 0;
			const place = counts[r] ?? 0;
			order[place] = at;
			counts[r] = place + 1;
		}
		top = 0;
		next[order[0] ?? 0] = 0;
		for (let k = 1; k < n; k++) {
			const a = order[k - 1] ?? 0;
			const b = order[k] ?? 0;
			const afterA = a + width < n ? (rank[a + width] ?? 0) : -1;
			const afterB = b + width < n ? (rank[b + width] ?? 0) : -1;
			if (rank[a] !== rank[b] || afterA !== afterB) top++;
			next[b] = top;
		}
		[rank, next] = [next, rank];
	}
	return order;
}

/** Rows as aligned text columns: the first column left-aligned, the others right-aligned. */
export function table(rows: readonly (readonly string[])[]): string {
	const widths: number[] = [];
	for (const row of rows)
		row.forEach((cell, i) => {
			widths[i] = Math.max(widths[i] ?? 0, cell.length);
		});
	const line = (row: readonly string[]) =>
		row
			.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
			.join("  ")
			.trimEnd();
	return `${rows.map(line).join("\n")}\n`;
}

/** Counts by key as `key ×n, …`, most frequent first; `none` when empty. */
export function tally(counts: Readonly<Record<string, number>>): string {
	const entries = Object.entries(counts).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
	return entries.length === 0 ? "none" : entries.map(([key, n]) => `${key} ×${n}`).join(", ");
}

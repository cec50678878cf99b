/** The text on one line, cut to `max` characters with "…" where it is cut. */
export function cut(text: string, max: number): string {
	const line = text.replace(/\s+/g, " ").trim();
	return line.length <= max ? line : `${line.slice(0, max)}…`;
}

/** The text's head and tail with " … " between, when it is longer than both; line breaks kept when `lines`. */
export function headTail(text: string, head: number, tail: number, lines = false): string {
	const flat = lines ? text.trim() : text.replace(/\s+/g, " ").trim();
	return flat.length <= head + tail + 3 ? flat : `${flat.slice(0, head)} … ${flat.slice(-tail)}`;
}

/**
 * What secretlint's recommended preset finds that Longhaul's own finders (src/pass/secrets) may not: an npm auth
 * token's or a package.json's URL token, an AWS secret key's or account id's name, credentials in a URL. Vendor
 * tokens are left to the table in src/pass/secrets/vendors.ts, which holds every prefix the preset knows, and private
 * keys to the block finder there, which takes every block the preset's rule takes and more (a block without its end
 * line, one shorter than 100 characters), so a line of vendor tokens or of a key alone is never linted (the lint is
 * the costly step). A superset on purpose.
 */
export const LINT_TRIGGER =
	/x-oauth-basic|_authToken|[Ss]ecret|SECRET|[Aa]ccount|ACCOUNT|:\/\/[^\s/@:]{1,300}:[^\s/@]{1,300}@/;

/** A run of picked lines of one text: which text, where the run starts in it, and where in the joined lines. */
export interface Piece {
	readonly text: number;
	readonly at: number;
	readonly from: number;
	readonly length: number;
}

/** The picked lines of a batch, joined by line breaks, and where each run of them stands in its own text. */
export interface Candidates {
	readonly joined: string;
	readonly pieces: readonly Piece[];
}

/**
 * The lines of `texts` that may hold a secret: each line with a trigger and the line after it (a value may follow its
 * name on the next line). One string, so the whole batch costs one scan; the pieces place what is found there back
 * in its own text.
 */
export function candidateLines(texts: readonly string[], trigger: RegExp): Candidates {
	const parts: string[] = [];
	const pieces: Piece[] = [];
	let from = 0;
	texts.forEach((text, index) => {
		if (!trigger.test(text)) return;
		let run: { at: number; end: number } | undefined;
		const close = () => {
			if (run === undefined) return;
			const part = text.slice(run.at, run.end);
			pieces.push({ text: index, at: run.at, from, length: part.length });
			parts.push(part);
			from += part.length + 1;
			run = undefined;
		};
		let until = -1;
		let offset = 0;
		const lines = text.split("\n");
		for (let i = 0; i < lines.length; i++) {
			const line = lines[i] ?? "";
			const triggered = trigger.test(line);
			if (triggered || i <= until) {
				run = { at: run?.at ?? offset, end: offset + line.length };
				if (triggered) until = i + 1;
			} else close();
			offset += line.length + 1;
		}
		close();
	});
	return { joined: parts.join("\n"), pieces };
}

/** The piece the joined lines' position `at` falls in (binary search), or undefined on a joining line break. */
export function pieceAt(pieces: readonly Piece[], at: number): Piece | undefined {
	let lo = 0;
	let hi = pieces.length - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		const piece = pieces[mid];
		if (piece === undefined) return undefined;
		if (at < piece.from) hi = mid - 1;
		else if (at >= piece.from + piece.length) lo = mid + 1;
		else return piece;
	}
	return undefined;
}

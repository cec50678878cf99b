import MiniSearch from "minisearch";
import { sanitize } from "../../projections/sanitize.js";
import type { Passage } from "./passages.js";

/** The most passages one query returns, best first. */
export const MAX_RESULTS = 8;
/** The most matching lines shown for one passage, each cut to `LINE_CHARS` around its first match. */
const LINES_PER_RESULT = 3;
const LINE_CHARS = 240;
/** Long passages are indexed in chunks of about this many characters, cut at line breaks, so a hit points at lines. */
const CHUNK_CHARS = 2000;
/** The longest query read; the rest is ignored. */
export const QUERY_CHARS = 300;

interface Chunk {
	readonly id: number;
	readonly passage: number;
	readonly text: string;
}

function chunksOf(passages: readonly Passage[]): Chunk[] {
	const chunks: Chunk[] = [];
	passages.forEach((p, passage) => {
		let current = "";
		for (const line of p.text.split("\n")) {
			if (current !== "" && current.length + line.length > CHUNK_CHARS) {
				chunks.push({ id: chunks.length, passage, text: current });
				current = "";
			}
			current = current === "" ? line : `${current}\n${line}`;
		}
		if (current.trim() !== "") chunks.push({ id: chunks.length, passage, text: current });
	});
	return chunks;
}

/** A line cut to `LINE_CHARS`, centred on where the first term stands in it. */
function around(line: string, at: number): string {
	const flat = line.replace(/\s+/g, " ").trim();
	if (flat.length <= LINE_CHARS) return flat;
	const start = Math.max(0, Math.min(at - LINE_CHARS / 3, flat.length - LINE_CHARS));
	return `${start > 0 ? "…" : ""}${flat.slice(start, start + LINE_CHARS)}${start + LINE_CHARS < flat.length ? "…" : ""}`;
}

/** The chunk's lines that hold the most of the matched terms, the first few of those, in their order. */
function matchingLines(text: string, terms: readonly string[]): string[] {
	const scored = text.split("\n").flatMap((line, at) => {
		const lower = line.toLowerCase();
		const found = terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0);
		return found.length === 0 ? [] : [{ at, count: found.length, line: around(line, Math.min(...found)) }];
	});
	const best = [...scored].sort((a, b) => b.count - a.count || a.at - b.at).slice(0, LINES_PER_RESULT);
	return best.sort((a, b) => a.at - b.at).map((s) => s.line);
}

/** Words are runs of letters and digits, lowercased: `wrap-ansi.ts` is `wrap`, `ansi`, `ts`, and so is a query. */
function words(text: string): string[] {
	return text.toLowerCase().split(/[^\p{L}\p{N}]+/u);
}

/**
 * Searches the passages with a ranked full-text index (MiniSearch, BM25), built here on each call so nothing can go
 * stale: terms match as words or word prefixes, any term may match, passages holding more of them rank first.
 * Returns terminal-safe text: up to `MAX_RESULTS` passages, each named and with its matching lines.
 */
export function searchPassages(query: string, passages: readonly Passage[]): string {
	const wanted = query.trim().slice(0, QUERY_CHARS);
	if (passages.length === 0) return "Nothing is compacted on this branch yet, so there is nothing to search.";
	const chunks = chunksOf(passages);
	const index = new MiniSearch<Chunk>({
		fields: ["text"],
		storeFields: [],
		tokenize: words,
		processTerm: (term) => (term === "" ? null : term),
	});
	index.addAll(chunks);
	const shown = new Set<number>();
	const results: string[] = [];
	for (const hit of index.search(wanted, { prefix: (term) => term.length >= 3, combineWith: "OR" })) {
		const chunk = typeof hit.id === "number" ? chunks[hit.id] : undefined;
		const passage = chunk === undefined ? undefined : passages[chunk.passage];
		if (chunk === undefined || passage === undefined || shown.has(chunk.passage)) continue;
		shown.add(chunk.passage);
		const lines = matchingLines(chunk.text, hit.terms);
		results.push([`${passage.name}:`, ...lines.map((l) => `  ${l}`)].join("\n"));
		if (results.length >= MAX_RESULTS) break;
	}
	const quoted = `"${wanted.replace(/\s+/g, " ").slice(0, 60)}"`;
	if (results.length === 0)
		return sanitize(`Nothing in the compacted history (${passages.length} passages) matches ${quoted}.`);
	const header = `${results.length} best of the compacted history (${passages.length} passages) for ${quoted}; longhaul_recall a C<n> or u<n> for more:`;
	return sanitize([header, ...results].join("\n"));
}

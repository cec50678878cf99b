import MiniSearch from "minisearch";
import { cutWhole, sanitize, sliceWhole } from "../../projections/index.js";
import type { Redactor } from "../redact/index.js";
import { RECALL_CHARS, recallAnswer } from "./by-ref.js";
import type { Passage } from "./passages.js";
import { readable, words } from "./words.js";

/** The most passages one query returns, best first. Exported for tests. */
export const MAX_RESULTS = 8;
/** The most matching lines shown for one passage, each cut to `LINE_CHARS` around its first match. */
const LINES_PER_RESULT = 3;
const LINE_CHARS = 240;
/** Long passages are indexed in chunks of about this many characters, cut at line breaks, so a hit points at lines. */
const CHUNK_CHARS = 2000;
/** How much of one passage is indexed: its head and its tail, so one huge output cannot stall the index. */
export const INDEXED_CHARS = 256 * 1024;
/** The longest query read; the rest is ignored. */
export const QUERY_CHARS = 300;
/** How much of the query the answer repeats. */
const ECHO_CHARS = 60;

interface Chunk {
	readonly id: number;
	readonly passage: number;
	readonly text: string;
}

/** The passages and their ranked full-text index (MiniSearch, BM25) over chunks of them. */
export interface PassageIndex {
	readonly passages: readonly Passage[];
	readonly chunks: readonly Chunk[];
	readonly index: MiniSearch<Chunk>;
}

function indexed(text: string): string {
	if (text.length <= INDEXED_CHARS) return text;
	return `${sliceWhole(text, 0, INDEXED_CHARS / 2)}\n${sliceWhole(text, text.length - INDEXED_CHARS / 2)}`;
}

function chunksOf(passages: readonly Passage[]): Chunk[] {
	const chunks: Chunk[] = [];
	passages.forEach((p, passage) => {
		let current = "";
		for (const line of indexed(p.text).split("\n")) {
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

/**
 * The index of the passages: words as a reader sees them (escape sequences removed, split on Unicode word
 * boundaries, lowercased; see `words`), long passages in chunks of about `CHUNK_CHARS` cut at line breaks.
 */
export function indexPassages(passages: readonly Passage[]): PassageIndex {
	const chunks = chunksOf(passages);
	const index = new MiniSearch<Chunk>({
		fields: ["text"],
		storeFields: [],
		tokenize: words,
		processTerm: (term) => (term === "" ? null : term),
	});
	index.addAll(chunks);
	return { passages, chunks, index };
}

/** A line as a reader sees it, flattened and cut to `LINE_CHARS` centred on where the first term stands in it. */
function around(line: string, terms: readonly string[]): string | undefined {
	const flat = readable(line).replace(/\s+/g, " ").trim();
	const lower = flat.toLowerCase();
	const found = terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0);
	if (found.length === 0) return undefined;
	if (flat.length <= LINE_CHARS) return flat;
	const at = Math.min(...found);
	const start = Math.max(0, Math.min(at - LINE_CHARS / 3, flat.length - LINE_CHARS));
	const piece = sliceWhole(flat, start, start + LINE_CHARS);
	return `${start > 0 ? "…" : ""}${piece}${start + LINE_CHARS < flat.length ? "…" : ""}`;
}

/** The text's lines that hold the most of the matched terms, the first few of those, in their order. */
function matchingLines(text: string, terms: readonly string[]): string[] {
	const scored = text.split("\n").flatMap((line, at) => {
		const shown = around(line, terms);
		if (shown === undefined) return [];
		const lower = readable(line).toLowerCase();
		return [{ at, count: terms.filter((t) => lower.includes(t)).length, line: shown }];
	});
	const best = [...scored].sort((a, b) => b.count - a.count || a.at - b.at).slice(0, LINES_PER_RESULT);
	return best.sort((a, b) => a.at - b.at).map((s) => s.line);
}

/** The best passages for the query, each once, with the index terms it matched. */
function hitsOf(wanted: string, index: PassageIndex): { passage: Passage; terms: string[] }[] {
	const seen = new Set<number>();
	const hits: { passage: Passage; terms: string[] }[] = [];
	for (const hit of index.index.search(wanted, { prefix: (term) => term.length >= 3, combineWith: "OR" })) {
		const chunk = typeof hit.id === "number" ? index.chunks[hit.id] : undefined;
		const passage = chunk === undefined ? undefined : index.passages[chunk.passage];
		if (chunk === undefined || passage === undefined || seen.has(chunk.passage)) continue;
		seen.add(chunk.passage);
		hits.push({ passage, terms: hit.terms });
		if (hits.length >= MAX_RESULTS) break;
	}
	return hits;
}

/**
 * Searches the compacted history: terms match as words or word prefixes, any term may match, passages holding more
 * of them rank first. Each hit's whole passage is redacted before its lines are cut from it, so no line shows a
 * piece of a secret. Returns terminal-safe text of at most `RECALL_CHARS`: up to `MAX_RESULTS` passages, each named
 * and with its matching lines, as many as fit.
 */
export async function searchIndex(query: string, index: PassageIndex, redactor: Redactor): Promise<string> {
	const wanted = sliceWhole(query.trim(), 0, QUERY_CHARS);
	if (index.passages.length === 0) return "Nothing is compacted on this branch yet, so there is nothing to search.";
	const hits = hitsOf(wanted, index);
	const redacted = await redactor.redactAll(hits.map((h) => h.passage.text));
	const quoted = `"${cutWhole(wanted.replace(/\s+/g, " "), ECHO_CHARS)}"`;
	const count = index.passages.length;
	if (hits.length === 0) return recallAnswer(`Nothing in the compacted history (${count} passages) matches ${quoted}.`);
	const header = (n: number) =>
		`${n} best of the compacted history (${count} passages) for ${sanitize(quoted)}; longhaul_recall a C<n> or u<n> for more:`;
	const results: string[] = [];
	let used = header(hits.length).length;
	for (const [i, hit] of hits.entries()) {
		const lines = matchingLines(redacted[i] ?? "", hit.terms);
		const result = sanitize([`${hit.passage.name}:`, ...lines.map((l) => `  ${l}`)].join("\n"));
		if (used + 1 + result.length > RECALL_CHARS) break;
		used += 1 + result.length;
		results.push(result);
	}
	return recallAnswer([header(results.length), ...results].join("\n"));
}

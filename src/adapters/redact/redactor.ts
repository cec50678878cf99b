import { type SecretSpan, secretSpans } from "../../pass/accept/index.js";
import { type Candidates, candidateLines, LINT_TRIGGER, pieceAt, RULE_TRIGGER } from "./prefilter.js";

/** Replaces secrets in text that leaves Longhaul (the summary, the prompt, recall, the views, the log's excerpts). */
export interface Redactor {
	/**
	 * Each text with every secret found in it replaced, where it stands, by a marker naming its kind, and every copy
	 * of a secret found in any of them too; one lint for the batch. Give each text whole: a secret is found in a
	 * text, never guessed from a piece a cut left.
	 */
	readonly redactAll: (texts: readonly string[]) => Promise<string[]>;
	/** One text, redacted. */
	readonly redact: (text: string) => Promise<string>;
}

/** The marker a secret of `kind` becomes: its kind only, never a hash or a piece of it. Exported for tests. */
export function marker(kind: string): string {
	return `[redacted: ${kind}]`;
}

/** Shorter stretches are not replaced: no secret the rules find is this short. */
const MIN_SECRET_CHARS = 4;
/** A found secret this long is also replaced wherever else it is copied in the batch (shorter copies could be words). */
const MIN_COPY_CHARS = 12;

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The spans found in the joined candidate lines, placed in the texts they came from (a span ends with its piece). */
function place(candidates: Candidates, found: readonly SecretSpan[], into: SecretSpan[][]): void {
	for (const span of found) {
		const piece = pieceAt(candidates.pieces, span.start);
		if (piece === undefined) continue;
		const start = piece.at + span.start - piece.from;
		const end = piece.at + Math.min(span.end, piece.from + piece.length) - piece.from;
		if (end - start >= MIN_SECRET_CHARS) into[piece.text]?.push({ start, end, kind: span.kind });
	}
}

/** Every secret in each text, by its span there: secretlint's first, then Longhaul's own rules. */
async function spansIn(texts: readonly string[]): Promise<SecretSpan[][]> {
	const spans: SecretSpan[][] = texts.map(() => []);
	const lint = candidateLines(texts, LINT_TRIGGER);
	// secretlint is imported only when a line may hold what it finds: loading it costs more than most lints.
	if (lint.joined !== "") place(lint, await (await import("./secretlint.js")).lintSecrets(lint.joined), spans);
	const lines = candidateLines(texts, RULE_TRIGGER);
	place(lines, secretSpans(lines.joined), spans);
	return spans;
}

/** Where copies of the batch's long secrets stand in `text`, with the kind each was found as. */
function copiesIn(text: string, pattern: RegExp | undefined, kinds: ReadonlyMap<string, string>): SecretSpan[] {
	if (pattern === undefined) return [];
	return [...text.matchAll(pattern)].map((m) => ({
		start: m.index,
		end: m.index + m[0].length,
		kind: kinds.get(m[0]) ?? "secret",
	}));
}

/** The text with its spans replaced: overlapping spans are one, named by the longest that starts first. */
function replaced(text: string, spans: readonly SecretSpan[]): string {
	const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
	let out = "";
	let at = 0;
	for (const span of sorted) {
		if (span.end <= at) continue;
		if (span.start >= at) out += `${text.slice(at, span.start)}${marker(span.kind)}`;
		at = span.end;
	}
	return out + text.slice(at);
}

/** The texts with every secret found in them, and every long copy of one, replaced. */
function scrub(texts: readonly string[], spans: readonly SecretSpan[][]): string[] {
	const kinds = new Map<string, string>();
	texts.forEach((text, i) => {
		for (const s of spans[i] ?? []) {
			const secret = text.slice(s.start, s.end);
			if (secret.length >= MIN_COPY_CHARS && !kinds.has(secret)) kinds.set(secret, s.kind);
		}
	});
	const needles = [...kinds.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
	const pattern = needles.length === 0 ? undefined : new RegExp(needles.join("|"), "g");
	return texts.map((text, i) => {
		const found = [...(spans[i] ?? []), ...copiesIn(text, pattern, kinds)];
		return found.length === 0 ? text : replaced(text, found);
	});
}

/**
 * The redactor: secretlint's recommended preset plus Longhaul's own rules (named assignments, vendor prefixes,
 * private keys, passwords in URLs), each read through terminal escapes. Off only when the user set `redact: false`.
 */
export function createRedactor(enabled: boolean): Redactor {
	const redactAll = async (texts: readonly string[]): Promise<string[]> =>
		enabled ? scrub(texts, await spansIn(texts)) : [...texts];
	return {
		redactAll,
		redact: async (text) => (await redactAll([text]))[0] ?? text,
	};
}

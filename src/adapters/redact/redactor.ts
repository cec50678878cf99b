import { placed, readView, type SecretSpan, type View, vendorSpans, viewSpans } from "../../pass/secrets/index.js";
import { copySpans, MIN_COPY_CHARS } from "./copies.js";
import { type Candidates, candidateLines, LINT_TRIGGER, pieceAt } from "./prefilter.js";

/** Replaces secrets in text that leaves Longhaul (the summary, the prompt, recall, the views, the log's excerpts). */
export interface Redactor {
	/**
	 * Each text with every secret found in it replaced, where it stands, by a marker naming its kind, and every copy
	 * of a secret found in any of them too, where it stands as a whole token; one lint for the batch. Give each text
	 * whole: a secret is found in a text, never guessed from a piece a cut left. Linear in the batch's characters, and
	 * it gives the event loop back between texts, so pi's footer and Esc stay live.
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
/** The most candidate characters one lint reads: between lints the event loop runs. */
const LINT_CHARS = 64 * 1024;
/** The longest the redactor keeps the thread before it gives the event loop a turn. */
const HOLD_MS = 16;

/** Gives the event loop a turn once the thread has been held for HOLD_MS since the last one. */
function pacer(): () => Promise<void> {
	let since = performance.now();
	return async () => {
		if (performance.now() - since < HOLD_MS) return;
		await new Promise((resolve) => setImmediate(resolve));
		since = performance.now();
	};
}

/** The spans found in the joined candidate lines, placed in the views they came from (a span ends with its piece). */
function place(candidates: Candidates, found: readonly SecretSpan[], into: SecretSpan[][], first: number): void {
	for (const span of found) {
		const piece = pieceAt(candidates.pieces, span.start);
		if (piece === undefined) continue;
		const start = piece.at + span.start - piece.from;
		const end = piece.at + Math.min(span.end, piece.from + piece.length) - piece.from;
		if (end - start >= MIN_SECRET_CHARS) into[first + piece.text]?.push({ start, end, kind: span.kind });
	}
}

/** secretlint's finds in the views' candidate lines, a few texts per lint, into each view's spans. */
async function lintInto(views: readonly View[], into: SecretSpan[][], pause: () => Promise<void>): Promise<void> {
	for (let first = 0; first < views.length; ) {
		let size = 0;
		let last = first;
		while (last < views.length && (last === first || size + (views[last]?.text.length ?? 0) <= LINT_CHARS))
			size += views[last++]?.text.length ?? 0;
		const lint = candidateLines(
			views.slice(first, last).map((v) => v.text),
			LINT_TRIGGER,
		);
		// secretlint is imported only when a line may hold what it finds: loading it costs more than most lints.
		if (lint.joined !== "") place(lint, await (await import("./secretlint.js")).lintSecrets(lint.joined), into, first);
		first = last;
		await pause();
	}
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

/** The batch redacted: secrets found in each text's view, secretlint's finds, then copies of the long ones. */
async function scrub(texts: readonly string[]): Promise<string[]> {
	const pause = pacer();
	const views: View[] = [];
	const spans: SecretSpan[][] = [];
	const raw: SecretSpan[][] = [];
	for (const text of texts) {
		const view = readView(text);
		views.push(view);
		spans.push(viewSpans(view.text).filter((s) => s.end - s.start >= MIN_SECRET_CHARS));
		raw.push(view.origin === undefined ? [] : vendorSpans(text));
		await pause();
	}
	// secretlint's finds come first, so a stretch both find is named by secretlint's kind.
	const linted: SecretSpan[][] = views.map(() => []);
	await lintInto(views, linted, pause);
	const found = new Map<string, string>();
	const keep = (secret: string, kind: string) => {
		if (secret.length >= MIN_COPY_CHARS && !found.has(secret)) found.set(secret, kind);
	};
	views.forEach((view, i) => {
		for (const s of [...(linted[i] ?? []), ...(spans[i] ?? [])]) keep(view.text.slice(s.start, s.end), s.kind);
		for (const s of raw[i] ?? []) keep(texts[i]?.slice(s.start, s.end) ?? "", s.kind);
	});
	const out: string[] = [];
	for (const [i, text] of texts.entries()) {
		const view = views[i] ?? readView(text);
		const inView = [...(linted[i] ?? []), ...(spans[i] ?? []), ...copySpans(view.text, found)];
		const all = [...placed(view, inView), ...(raw[i] ?? [])];
		out.push(all.length === 0 ? text : replaced(text, all));
		await pause();
	}
	return out;
}

/**
 * The redactor: Longhaul's own finders (src/pass/secrets: vendor tokens, names and their values, flags, URLs, netrc,
 * cookies, private keys) and secretlint's recommended preset, each on the text as a reader sees it (escapes decoded,
 * invisible characters dropped). Off only when the user set `redact: false`.
 */
export function createRedactor(enabled: boolean): Redactor {
	const redactAll = async (texts: readonly string[]): Promise<string[]> => (enabled ? scrub(texts) : [...texts]);
	return {
		redactAll,
		redact: async (text) => (await redactAll([text]))[0] ?? text,
	};
}

import {
	FINDERS,
	type Finder,
	placed,
	READS_BACK,
	readView,
	type SecretSpan,
	type Steps,
	type View,
	ViewReader,
	vendorTokens,
	viewRange,
} from "../../pass/secrets/index.js";
import { chunkRanges, lintWindows, type Range } from "./chunks.js";
import { copiesOf, MIN_COPY_CHARS } from "./copies.js";
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
/** The most characters of chunks whose candidate lines are joined for the lint: between lints the event loop runs. */
const LINT_CHARS = 64 * 1024;
/** The longest the redactor keeps the thread before it gives the event loop a turn. */
const HOLD_MS = 16;

/**
 * A look at the clock: a turn of the event loop to await once the thread has been held for `holdMs` since the last
 * one, else nothing (a look that is not due costs no promise: the finders look after every run).
 */
type Pause = () => Promise<void> | undefined;

function pacer(holdMs: number): Pause {
	let since = performance.now();
	const turn = async () => {
		await new Promise((resolve) => setImmediate(resolve));
		since = performance.now();
	};
	return () => (performance.now() - since < holdMs ? undefined : turn());
}

/** What `reader` reads, about `chars` characters at a time, the thread given back between them once held too long. */
async function readIn(reader: ViewReader, chars: number, pause: Pause): Promise<View> {
	while (!reader.read(chars)) await pause();
	return reader.view();
}

/** A range of one text of the batch, read apart: its view's range, and where it stands in the original. */
interface Chunk extends Range {
	readonly text: number;
	readonly original: Range;
}

/** The view's range [start, end) as it stands in the original: from after the source of the character before it. */
function originalOf(view: View, text: string, range: Range): Range {
	if (view.origin === undefined) return range;
	const start = range.start === 0 ? 0 : (view.origin.ends[range.start - 1] ?? 0);
	return { start, end: range.end === view.text.length ? text.length : (view.origin.ends[range.end - 1] ?? 0) };
}

/** How many steps of a finder are taken between looks at the clock (a look costs more than most steps). */
const STEPS_PER_LOOK = 256;

/** A finder's steps over one range of a text, and what is left to do once they are taken. */
interface RangeRun {
	readonly steps: Steps;
	readonly finish: () => void;
}

/**
 * What `find` finds in `text`'s range, read with the READS_BACK characters before it (a finder that reads back sees
 * what it would see in the whole text), spans that start before the range left to the range before; into `into`
 * once its steps are taken. The finder's own steps, not delegated (`yield*` costs a finder that steps often a tenth
 * of its time), so a range too long to cut (one line of a megabyte) can be paced like any other.
 */
function inRange(find: Finder, text: string, range: Range, into: SecretSpan[], least: number): RangeRun {
	const from = Math.max(0, range.start - READS_BACK);
	const found: SecretSpan[] = [];
	const finish = () => {
		for (const s of found)
			if (from + s.start >= range.start && s.end - s.start >= least)
				into.push({ start: from + s.start, end: from + s.end, kind: s.kind });
	};
	return { steps: find(text.slice(from, range.end), found), finish };
}

/**
 * Takes each run's steps to their end, one run after another, giving the event loop a turn between steps once the
 * thread has been held for the pacer's time. It looks at the clock every STEPS_PER_LOOK steps and after each run, and
 * awaits nothing in between: an await costs more than most steps. A run with few anchors is a few long steps (one
 * search over the chunk), and a chunk has a run for each finder in each reading.
 */
async function paced(runs: readonly RangeRun[], pause: Pause): Promise<void> {
	let n = 0;
	for (const run of runs) {
		while (!run.steps.next().done) if (++n % STEPS_PER_LOOK === 0) await pause();
		run.finish();
		const turn = pause();
		if (turn !== undefined) await turn;
	}
}

/** Where one text's finds go: found in its view, in its reading with the escapes kept, and as the text stands. */
interface Finds {
	readonly view: SecretSpan[];
	readonly kept: SecretSpan[];
	readonly raw: SecretSpan[];
}

/**
 * Every finder's run over one chunk of `text`: in its view, in its reading with the terminal escapes kept (where
 * that reading is used), and its vendor tokens as the text stands (where the view differs).
 */
function chunkRuns(text: string, view: View, kept: View | undefined, chunk: Chunk, into: Finds): RangeRun[] {
	const runs = FINDERS.map((find) => inRange(find, view.text, chunk, into.view, MIN_SECRET_CHARS));
	if (kept !== undefined) {
		const keptRange = viewRange(kept, chunk.original.start, chunk.original.end);
		for (const find of FINDERS) runs.push(inRange(find, kept.text, keptRange, into.kept, MIN_SECRET_CHARS));
	}
	if (view.origin !== undefined) runs.push(inRange(vendorTokens, text, chunk.original, into.raw, 0));
	return runs;
}

/** The spans found in the joined candidate lines, placed in the chunks they came from (a span ends with its piece). */
function place(
	candidates: Candidates,
	found: readonly SecretSpan[],
	chunks: readonly Chunk[],
	into: SecretSpan[][],
): void {
	for (const span of found) {
		const piece = pieceAt(candidates.pieces, span.start);
		const chunk = piece === undefined ? undefined : chunks[piece.text];
		if (piece === undefined || chunk === undefined) continue;
		const start = chunk.start + piece.at + span.start - piece.from;
		const end = chunk.start + piece.at + Math.min(span.end, piece.from + piece.length) - piece.from;
		if (end - start >= MIN_SECRET_CHARS) into[chunk.text]?.push({ start, end, kind: span.kind });
	}
}

/**
 * secretlint's finds in the chunks' candidate lines, into each text's view spans: a few chunks' lines at a time, in
 * windows of about `chars` characters linted apart (chunks.ts), the event loop given a turn between them: a chunk
 * too long to cut (a lint trigger on every line) is linted a window at a time, not at once.
 */
async function lintInto(
	views: readonly View[],
	chunks: readonly Chunk[],
	into: SecretSpan[][],
	chars: number,
	pause: Pause,
): Promise<void> {
	const textOf = (c: Chunk | undefined) => (c === undefined ? "" : (views[c.text]?.text.slice(c.start, c.end) ?? ""));
	for (let first = 0; first < chunks.length; ) {
		let size = 0;
		let last = first;
		while (last < chunks.length && (last === first || size + chunkLength(chunks[last]) <= LINT_CHARS))
			size += chunkLength(chunks[last++]);
		const group = chunks.slice(first, last);
		const lint = candidateLines(group.map(textOf), LINT_TRIGGER);
		// secretlint is imported only when a line may hold what it finds: loading it costs more than most lints.
		if (lint.joined !== "") {
			const { lintSecrets } = await import("./secretlint.js");
			for (const window of lintWindows(lint.joined, chars)) {
				const found = await lintSecrets(lint.joined.slice(window.start, window.end));
				place(
					lint,
					found.map((s) => ({ start: window.start + s.start, end: window.start + s.end, kind: s.kind })),
					group,
					into,
				);
				await pause();
			}
		}
		first = last;
		await pause();
	}
}

function chunkLength(chunk: Chunk | undefined): number {
	return chunk === undefined ? 0 : chunk.end - chunk.start;
}

/**
 * The text with its spans replaced: overlapping spans are one, named by the longest that starts first. The thread is
 * given back between spans once held for the pacer's time (a megabyte of short secrets is tens of thousands of them).
 */
async function replaced(text: string, spans: readonly SecretSpan[], pause: Pause): Promise<string> {
	const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
	await pause();
	const parts: string[] = [];
	let at = 0;
	for (const [n, span] of sorted.entries()) {
		if (n % STEPS_PER_LOOK === 0) await pause();
		if (span.end <= at) continue;
		if (span.start >= at) parts.push(text.slice(at, span.start), marker(span.kind));
		at = span.end;
	}
	parts.push(text.slice(at));
	return parts.join("");
}

/**
 * The batch redacted: each text's view cut into chunks (chunks.ts), secrets found in each chunk's view, in the same
 * stretch of the text's reading with its terminal escapes kept where one may have taken text (an escape's final
 * byte may be a name's first letter: `ESC p` takes the `p` of `password=`), its vendor tokens as they stand where
 * the view differs, secretlint's finds, then copies of the long ones over every chunk. The thread is given back
 * between chunks, and between a finder's steps on a chunk too long to cut.
 */
async function scrub(texts: readonly string[], chunkChars: number, holdMs: number): Promise<string[]> {
	const pause = pacer(holdMs);
	const views: View[] = [];
	const chunks: Chunk[] = [];
	const spans: SecretSpan[][] = texts.map(() => []);
	const keptViews: (View | undefined)[] = [];
	const keptSpans: SecretSpan[][] = texts.map(() => []);
	const raw: SecretSpan[][] = texts.map(() => []);
	for (const [i, text] of texts.entries()) {
		const reader = new ViewReader(text);
		const view = await readIn(reader, chunkChars, pause);
		views.push(view);
		// The reading with the terminal escapes kept, read only where one may have taken text, and used only where it
		// read one on as text (else it is the view).
		const keptReader = reader.escapes ? new ViewReader(text, true) : undefined;
		const keptView = keptReader === undefined ? undefined : await readIn(keptReader, chunkChars, pause);
		const kept = keptReader?.escapes ? keptView : undefined;
		keptViews.push(kept);
		await pause();
		// Cut with the key blocks of the whole view found first, which on a long text of key lines takes a while.
		const ranges = chunkRanges(view, chunkChars, kept);
		await pause();
		for (const range of ranges) {
			// Spelled out, not spread: on Node 20, a chunk spread from its range made the redaction a fifth slower.
			const chunk = { start: range.start, end: range.end, text: i, original: originalOf(view, text, range) };
			chunks.push(chunk);
			const into = { view: spans[i] ?? [], kept: keptSpans[i] ?? [], raw: raw[i] ?? [] };
			await paced(chunkRuns(text, view, kept, chunk, into), pause);
			await pause();
		}
	}
	// secretlint's finds come first, so a stretch both find is named by secretlint's kind.
	const linted: SecretSpan[][] = texts.map(() => []);
	await lintInto(views, chunks, linted, chunkChars, pause);
	const found = new Map<string, string>();
	const keep = (secret: string, kind: string) => {
		if (secret.length >= MIN_COPY_CHARS && !found.has(secret)) found.set(secret, kind);
	};
	for (const [i, view] of views.entries()) {
		for (const s of [...(linted[i] ?? []), ...(spans[i] ?? [])]) keep(view.text.slice(s.start, s.end), s.kind);
		for (const s of keptSpans[i] ?? []) keep(keptViews[i]?.text.slice(s.start, s.end) ?? "", s.kind);
		for (const s of raw[i] ?? []) keep(texts[i]?.slice(s.start, s.end) ?? "", s.kind);
		await pause();
	}
	const copies: SecretSpan[][] = texts.map(() => []);
	const findCopies = copiesOf(found);
	for (const chunk of chunks) {
		const view = views[chunk.text];
		if (view !== undefined) await paced([inRange(findCopies, view.text, chunk, copies[chunk.text] ?? [], 0)], pause);
		await pause();
	}
	const out: string[] = [];
	for (const [i, text] of texts.entries()) {
		const view = views[i] ?? readView(text);
		const inView = [...(linted[i] ?? []), ...(spans[i] ?? []), ...(copies[i] ?? [])];
		const kept = keptViews[i];
		const all = [
			...placed(view, inView),
			...(kept === undefined ? [] : placed(kept, keptSpans[i] ?? [])),
			...(raw[i] ?? []),
		];
		await pause();
		out.push(all.length === 0 ? text : await replaced(text, all, pause));
		await pause();
	}
	return out;
}

/**
 * The longest text read at once: a longer one is cut into chunks, and the lines handed to the lint into windows
 * (chunks.ts), about this long.
 */
const CHUNK_CHARS = 64 * 1024;

/**
 * The redactor: Longhaul's own finders (src/pass/secrets: vendor tokens, names and their values, flags, URLs, netrc,
 * cookies, private keys) and secretlint's recommended preset, each on the text as a reader sees it (escapes decoded,
 * invisible characters dropped); Longhaul's finders read it with its terminal escapes kept too, where one may have
 * taken a letter that was text. Off only when the user set `redact: false`. `chunkChars` and `holdMs` are for
 * tests: what it gives does not depend on them, but for the AWS rule's chained matches (chunks.ts `lintWindows`).
 */
export function createRedactor(enabled: boolean, chunkChars = CHUNK_CHARS, holdMs = HOLD_MS): Redactor {
	const redactAll = async (texts: readonly string[]): Promise<string[]> =>
		enabled ? scrub(texts, chunkChars, holdMs) : [...texts];
	return {
		redactAll,
		redact: async (text) => (await redactAll([text]))[0] ?? text,
	};
}

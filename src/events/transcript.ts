import * as E from "fp-ts/lib/Either.js";
import { boundedDepth, MAX_DEPTH } from "./depth.js";
import { isRecord } from "./is-record.js";
import { type Links, lineLinks } from "./line-links.js";

/**
 * The longest line the reader parses; a longer one is an anomaly (a 50 MB line must not stall a pass).
 * Exported for tests.
 */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

/** One entry of a transcript, with the id pi gave it or, in a v1 file, one derived from its line. */
export interface Entry {
	readonly id: string;
	readonly parentId: string | null;
	readonly type: string;
	/** The entry as parsed; fields are decoded with codecs where they are used. */
	readonly raw: Readonly<Record<string, unknown>>;
}

/** Something in the transcript the reader could not use. */
export interface ReadAnomaly {
	readonly entry: string;
	readonly reason: string;
}

/** A transcript read into entries, in file order. */
export interface Transcript {
	readonly version: number;
	/** The first `session` line, as parsed: pi's header (its `cwd`, its `version`). */
	readonly header: Readonly<Record<string, unknown>> | undefined;
	readonly entries: readonly Entry[];
	readonly anomalies: readonly ReadAnomaly[];
}

/** How much the reader takes: the longest line it parses, and how deep an entry may nest. */
export interface ReadLimits {
	readonly lineChars: number;
	readonly depth: number;
}

export const READ_LIMITS: ReadLimits = { lineChars: MAX_LINE_CHARS, depth: MAX_DEPTH };

/**
 * One line of a transcript as the reader is handed it: its text, or, for a line over the limit, only its length
 * and the links read as it went by (so a reader of a file never holds it).
 */
export interface Line {
	/** Undefined for a line over the limit, which is not held. */
	readonly text: string | undefined;
	readonly chars: number;
	/** For a line not held: its id and parentId. */
	readonly links: Links | undefined;
	/** False for a last line with no newline after it: what a crash in mid-write leaves. */
	readonly terminated: boolean;
}

function parseJson(line: string): E.Either<string, unknown> {
	return E.tryCatch(
		() => JSON.parse(line),
		() => "malformed JSON",
	);
}

/** The lines of transcript text, as a file reader would hand them. Exported for tests. */
export function* textLines(text: string, limits: ReadLimits = READ_LIMITS): Generator<Line> {
	let from = 0;
	while (from < text.length) {
		const newline = text.indexOf("\n", from);
		const to = newline < 0 ? text.length : newline;
		const chars = to - from;
		const terminated = newline >= 0;
		if (chars <= limits.lineChars) yield { text: text.slice(from, to), chars, links: undefined, terminated };
		else yield { text: undefined, chars, links: lineLinks(text.slice(from, to)), terminated };
		from = to + 1;
	}
}

interface Parsed {
	readonly line: number;
	/** Its place among the lines pi's reader keeps (every line that parses as JSON, the header included). */
	readonly index: number;
	readonly value: Record<string, unknown>;
}

function headerVersion(header: Readonly<Record<string, unknown>> | undefined): number {
	const version = header?.version;
	return typeof version === "number" && Number.isFinite(version) ? version : 1;
}

/**
 * What one line gives: an entry's value, an anomaly, or nothing (a blank line, a short torn tail); `json` when pi's
 * reader would keep the line (it parses as JSON, or is too long to parse here), so v1 indexes count it.
 */
function readLine(
	line: Line,
	lineNo: number,
	limits: ReadLimits,
): { value?: Record<string, unknown>; anomaly?: ReadAnomaly; json?: true } {
	const at = `line ${lineNo}`;
	if (line.text === undefined) {
		const over = `of ${line.chars} characters is over the limit`;
		const reason = line.terminated ? `line ${over}` : `torn tail: an unterminated last line ${over}`;
		// Kept as a bare link, so the entries before it stay on the branch.
		return {
			value: line.links === undefined ? undefined : { ...line.links },
			anomaly: { entry: at, reason },
			json: true,
		};
	}
	if (line.text.trim() === "") return {};
	const parsed = parseJson(line.text);
	// A short unterminated last line that does not parse is what a crash in mid-write leaves: read as nothing.
	if (!line.terminated && E.isLeft(parsed)) return {};
	if (E.isLeft(parsed)) return { anomaly: { entry: at, reason: parsed.left } };
	if (!isRecord(parsed.right)) return { anomaly: { entry: at, reason: "line is not a JSON object" }, json: true };
	const bounded = boundedDepth(parsed.right, limits.depth);
	if (!bounded.cut) return { value: bounded.value, json: true };
	const id = bounded.value.id;
	const entry = typeof id === "string" && id !== "" ? id : at;
	return { value: bounded.value, anomaly: { entry, reason: tooDeep(limits.depth) }, json: true };
}

/** The anomaly of an entry cut at `depth` levels: it stays, with what lay deeper replaced. Exported for tests. */
export const tooDeep = (depth: number) => `nested over ${depth} levels deep: what lies deeper is replaced by null`;

/** Reads transcript lines into entries. Never throws; what it cannot use is an anomaly. */
export function readLines(lines: Iterable<Line>, limits: ReadLimits = READ_LIMITS): Transcript {
	const anomalies: ReadAnomaly[] = [];
	const parsed: Parsed[] = [];
	let lineNo = 0;
	let index = 0;
	for (const line of lines) {
		lineNo++;
		const { value, anomaly, json } = readLine(line, lineNo, limits);
		if (anomaly !== undefined) anomalies.push(anomaly);
		if (value !== undefined) parsed.push({ line: lineNo, index, value });
		if (json) index++;
	}
	const header = parsed.find((p) => p.value.type === "session")?.value;
	const version = headerVersion(header);
	const entries = version < 2 ? migrateV1(parsed) : readTree(parsed, anomalies, version);
	return { version, header, entries, anomalies };
}

/** Reads transcript text into entries. Never throws; what it cannot use is an anomaly. */
export function readTranscript(text: string, limits: ReadLimits = READ_LIMITS): Transcript {
	return readLines(textLines(text, limits), limits);
}

/**
 * v1 files have no ids: each entry gets `L<line>` and the previous entry as parent, as pi's migration
 * (`migrateV1ToV2`) links them.
 */
function migrateV1(parsed: readonly Parsed[]): Entry[] {
	const entries: Entry[] = [];
	const idAtIndex = new Map<number, string>();
	let parentId: string | null = null;
	for (const p of parsed) {
		if (p.value.type === "session") continue;
		const id = `L${p.line}`;
		idAtIndex.set(p.index, id);
		entries.push({ id, parentId, type: typeString(p.value.type), raw: withV1Compaction(p.value, idAtIndex) });
		parentId = id;
	}
	return entries;
}

/**
 * A v1 compaction names its first kept entry by index into the lines pi keeps (header included). As in pi's
 * migration, the index is dropped, and the id is set only where that line is an entry already given one: the
 * compaction itself or one before it (a later line, the header or no line names no entry).
 */
function withV1Compaction(
	value: Record<string, unknown>,
	idAtIndex: ReadonlyMap<number, string>,
): Record<string, unknown> {
	const index = value.firstKeptEntryIndex;
	if (value.type !== "compaction" || typeof index !== "number") return value;
	const { firstKeptEntryIndex: _dropped, ...rest } = value;
	const id = idAtIndex.get(index);
	return id === undefined ? rest : { ...rest, firstKeptEntryId: id };
}

function typeString(u: unknown): string {
	return typeof u === "string" ? u : "";
}

/** v2 and v3 files: entries carry their own ids; v2's `hookMessage` role is read as v3's `custom`. */
function readTree(parsed: readonly Parsed[], anomalies: ReadAnomaly[], version: number): Entry[] {
	const entries: Entry[] = [];
	for (const p of parsed) {
		const entry = linkedEntry(p.value, p.line, anomalies);
		if (entry !== undefined) entries.push(version < 3 ? { ...entry, raw: renameHookMessage(entry.raw) } : entry);
	}
	return entries;
}

/**
 * The entry a v2 or v3 line holds, linked by its own id and parentId; without a valid id or parentId it is an
 * anomaly, and a `session` line is no entry.
 */
function linkedEntry(value: Record<string, unknown>, line: number, anomalies: ReadAnomaly[]): Entry | undefined {
	if (value.type === "session") return undefined;
	const { id, parentId } = value;
	if (typeof id !== "string" || id === "") {
		anomalies.push({ entry: `line ${line}`, reason: "entry has no id" });
		return undefined;
	}
	if (parentId !== null && typeof parentId !== "string") {
		anomalies.push({ entry: id, reason: "entry has no valid parentId" });
		return undefined;
	}
	return { id, parentId, type: typeString(value.type), raw: value };
}

function renameHookMessage(value: Record<string, unknown>): Record<string, unknown> {
	const message = value.message;
	if (value.type !== "message" || !isRecord(message) || message.role !== "hookMessage") return value;
	return { ...value, message: { ...message, role: "custom" } };
}

/**
 * Reads entries already in memory (pi's `getBranch()`); what has no id is an anomaly, what nests too deep is cut. In
 * one pass, as `readTree` would read them: the anomalies of what is no object or nests too deep come first, those of
 * the links after them.
 */
export function entriesFromObjects(objects: readonly unknown[]): Transcript {
	const anomalies: ReadAnomaly[] = [];
	const unlinked: ReadAnomaly[] = [];
	const entries: Entry[] = [];
	objects.forEach((value, index) => {
		if (!isRecord(value)) {
			anomalies.push({ entry: `entry ${index + 1}`, reason: "entry is not an object" });
			return;
		}
		const bounded = boundedDepth(value);
		if (bounded.cut) {
			const id = value.id;
			anomalies.push({
				entry: typeof id === "string" && id !== "" ? id : `entry ${index + 1}`,
				reason: tooDeep(MAX_DEPTH),
			});
		}
		const entry = linkedEntry(bounded.value, index + 1, unlinked);
		if (entry !== undefined) entries.push(entry);
	});
	return { version: 3, header: undefined, entries, anomalies: anomalies.concat(unlinked) };
}

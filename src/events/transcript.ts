import * as E from "fp-ts/lib/Either.js";
import { isRecord } from "./is-record.js";
import { lineLinks } from "./line-links.js";

/** The longest line the reader parses; a longer one is an anomaly (a 50 MB line must not stall a pass). */
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
	readonly entries: readonly Entry[];
	readonly anomalies: readonly ReadAnomaly[];
}

function parseJson(line: string): E.Either<string, unknown> {
	return E.tryCatch(
		() => JSON.parse(line),
		() => "malformed JSON",
	);
}

/** Splits transcript text into lines; an unterminated last line that does not parse is a torn tail and is dropped. */
function splitLines(text: string): { lines: string[]; tornTail: boolean } {
	const lines = text.split("\n");
	const last = lines.pop() ?? "";
	if (last.trim() === "") return { lines, tornTail: false };
	if (last.length <= MAX_LINE_CHARS && E.isRight(parseJson(last))) return { lines: [...lines, last], tornTail: false };
	return { lines, tornTail: true };
}

interface Parsed {
	readonly line: number;
	readonly value: Record<string, unknown>;
}

function headerVersion(parsed: readonly Parsed[]): number {
	const header = parsed.find((p) => p.value.type === "session");
	const version = header?.value.version;
	return typeof version === "number" && Number.isFinite(version) ? version : 1;
}

/** Reads transcript text into entries. Never throws; what it cannot use is an anomaly. */
export function readTranscript(text: string): Transcript {
	const anomalies: ReadAnomaly[] = [];
	const parsed: Parsed[] = [];
	const { lines } = splitLines(text);
	lines.forEach((line, index) => {
		const lineNo = index + 1;
		if (line.trim() === "") return;
		if (line.length > MAX_LINE_CHARS) {
			anomalies.push({ entry: `line ${lineNo}`, reason: `line of ${line.length} characters is over the limit` });
			// Kept as a bare link, so the entries before it stay on the branch.
			const links = lineLinks(line);
			if (links !== undefined) parsed.push({ line: lineNo, value: { ...links } });
			return;
		}
		const value = parseJson(line);
		if (E.isLeft(value)) anomalies.push({ entry: `line ${lineNo}`, reason: value.left });
		else if (!isRecord(value.right)) anomalies.push({ entry: `line ${lineNo}`, reason: "line is not a JSON object" });
		else parsed.push({ line: lineNo, value: value.right });
	});
	const version = headerVersion(parsed);
	const entries = version < 2 ? migrateV1(parsed) : readTree(parsed, anomalies, version);
	return { version, entries, anomalies };
}

/** v1 files have no ids: each entry gets `L<line>` and the previous entry as parent, as pi's migration links them. */
function migrateV1(parsed: readonly Parsed[]): Entry[] {
	const entries: Entry[] = [];
	const idAtIndex: (string | undefined)[] = [];
	let parentId: string | null = null;
	for (const p of parsed) {
		if (p.value.type === "session") {
			idAtIndex.push(undefined);
			continue;
		}
		const id = `L${p.line}`;
		idAtIndex.push(id);
		entries.push({ id, parentId, type: typeString(p.value.type), raw: withV1Compaction(p.value, idAtIndex, parsed) });
		parentId = id;
	}
	return entries;
}

/** A v1 compaction names its first kept entry by index into the parsed lines (header included), as pi reads it. */
function withV1Compaction(
	value: Record<string, unknown>,
	idAtIndex: readonly (string | undefined)[],
	parsed: readonly Parsed[],
): Record<string, unknown> {
	const index = value.firstKeptEntryIndex;
	if (value.type !== "compaction" || typeof index !== "number" || !Number.isSafeInteger(index)) return value;
	const target = parsed[index];
	if (target === undefined || target.value.type === "session") return value;
	const known = idAtIndex[index];
	return { ...value, firstKeptEntryId: known ?? `L${target.line}` };
}

function typeString(u: unknown): string {
	return typeof u === "string" ? u : "";
}

/** v2 and v3 files: entries carry their own ids; v2's `hookMessage` role is read as v3's `custom`. */
function readTree(parsed: readonly Parsed[], anomalies: ReadAnomaly[], version: number): Entry[] {
	const entries: Entry[] = [];
	for (const p of parsed) {
		if (p.value.type === "session") continue;
		const { id, parentId } = p.value;
		if (typeof id !== "string" || id === "") {
			anomalies.push({ entry: `line ${p.line}`, reason: "entry has no id" });
			continue;
		}
		if (parentId !== null && typeof parentId !== "string") {
			anomalies.push({ entry: id, reason: "entry has no valid parentId" });
			continue;
		}
		const raw = version < 3 ? renameHookMessage(p.value) : p.value;
		entries.push({ id, parentId, type: typeString(p.value.type), raw });
	}
	return entries;
}

function renameHookMessage(value: Record<string, unknown>): Record<string, unknown> {
	const message = value.message;
	if (value.type !== "message" || !isRecord(message) || message.role !== "hookMessage") return value;
	return { ...value, message: { ...message, role: "custom" } };
}

/** Reads entries already in memory (pi's `getBranch()`); what has no id is an anomaly. */
export function entriesFromObjects(objects: readonly unknown[]): Transcript {
	const anomalies: ReadAnomaly[] = [];
	const parsed: Parsed[] = [];
	objects.forEach((value, index) => {
		if (isRecord(value)) parsed.push({ line: index + 1, value });
		else anomalies.push({ entry: `entry ${index + 1}`, reason: "entry is not an object" });
	});
	return { version: 3, entries: readTree(parsed, anomalies, 3), anomalies };
}

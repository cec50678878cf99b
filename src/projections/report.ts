import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { sanitize } from "./sanitize.js";

/** How many of the newest log records the digest shows. Exported for tests. */
export const DIGEST_RECORDS = 8;

/** A hex digest of a text (sha256 in production); the digest prints its first eight characters. */
export type Hash = (text: string) => string;

// The digest is a whitelist. A field not named below is never printed, and a named field prints only a number, a
// boolean, or a string shaped like a code; anything else shows as `?`. Paths and session ids print hashed.

/** How a known field is shown: `key=value` pairs, given the field's dotted name. */
type Field = (value: unknown, name: string) => string[];

const CODE = /^[A-Za-z0-9][A-Za-z0-9._:+-]{0,63}$/;
/** Model ids and routes may hold `/` (`provider/model`, `openrouter/vendor/model:high`) but never start with one. */
const MODEL = /^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,63}(\/[A-Za-z0-9._:@+-]{1,64}){0,3}$/;
const CLASS_NAME = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/;
/** A Node error code leading a message (`EACCES: permission denied, open '…'`): the only part of it shown. */
const ERRNO = /^(E[A-Z0-9]{2,15})\b/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
/** Caps the entries printed from one map, so a hostile line cannot flood the digest. */
const MAX_MAP_ENTRIES = 16;

function isObject(u: unknown): u is Record<string, unknown> {
	return typeof u === "object" && u !== null && !Array.isArray(u);
}

const matching =
	(pattern: RegExp) =>
	(u: unknown): string | undefined =>
		typeof u === "string" && pattern.test(u) ? u : undefined;

const shown =
	(...views: ((u: unknown) => string | undefined)[]): Field =>
	(u, name) => [`${name}=${views.map((view) => view(u)).find((text) => text !== undefined) ?? "?"}`];

const number = (u: unknown): string | undefined =>
	typeof u === "number" && Number.isFinite(u) ? String(u) : undefined;
const flag = (u: unknown): string | undefined => (typeof u === "boolean" ? String(u) : undefined);
const nil = (u: unknown): string | undefined => (u === null ? "null" : undefined);
const errno = (u: unknown): string | undefined => (typeof u === "string" ? ERRNO.exec(u)?.[1] : undefined);

const count = shown(number);
const code = shown(matching(CODE));
const nullableCode = shown(matching(CODE), nil);

/** A nested object: its known fields, flattened to dotted names. */
const group =
	(fields: Record<string, Field>): Field =>
	(u, name) =>
		isObject(u)
			? Object.entries(fields).flatMap(([key, field]) => (Object.hasOwn(u, key) ? field(u[key], `${name}.${key}`) : []))
			: [`${name}=?`];

/** A map of code to number (counts by reason, milliseconds by step). */
const numberMap: Field = (u, name) => {
	if (!isObject(u)) return [`${name}=?`];
	const entries = Object.entries(u);
	const shownEntries = entries
		.slice(0, MAX_MAP_ENTRIES)
		.map(([key, value]) => `${name}.${CODE.test(key) ? key : "?"}=${number(value) ?? "?"}`);
	const more = entries.length - MAX_MAP_ENTRIES;
	return more > 0 ? [...shownEntries, `${name}.more=${more}`] : shownEntries;
};

const errorFields: Record<string, Field> = {
	errorClass: shown(matching(CLASS_NAME)),
	error: shown(errno),
};

/** The fields each event may show, in print order; session fields come first, from `sessionFields`. */
const eventFields: Record<string, Record<string, Field>> = {
	"extension-loaded": { piVersion: code, piVersionVerified: shown(flag, matching(/^line$/)) },
	compaction: {
		span: count,
		tokensBefore: count,
		summaryChars: count,
		narrative: group({
			mode: code,
			kind: code,
			calls: count,
			accepted: count,
			dropped: numberMap,
			usage: numberMap,
			timings: numberMap,
			reasoning: nullableCode,
		}),
		route: group({
			configured: shown(matching(MODEL), nil),
			used: shown(matching(MODEL)),
			notUsed: nullableCode,
		}),
		capFit: group({
			limit: count,
			chars: count,
			cut: numberMap,
			rulesAndNowChars: count,
			fits: shown(flag),
		}),
		world: group({ taken: shown(flag), ms: count, reason: code }),
		carried: numberMap,
		durationMs: count,
		taggedRules: count,
	},
	compacted: {
		fromExtension: shown(flag),
		reason: code,
		span: shown(number, nil),
		summaryChars: count,
		tokensBefore: count,
	},
	"compact-failed": { reason: code, span: shown(number, nil) },
	"kept-window-strip": { cutoff: code, strippedBlocks: count, strippedChars: count, contextMessages: count },
	"span-record-failed": { span: count, ...errorFields },
	"compaction-line-failed": errorFields,
	aborted: { reason: code, ...errorFields },
	fallback: { reason: code, ...errorFields },
};

/** The events the digest knows (a test checks it knows every event the writer logs). Exported for tests. */
export const reportedEvents: readonly string[] = Object.keys(eventFields);

/** Hides a path: the home directory as `~`, anything below or outside it as a hash. */
function hiddenPath(home: string, hash: Hash): Field {
	const root = home.replace(/\/+$/, "");
	return (u, name) => {
		if (typeof u !== "string") return [`${name}=?`];
		if (root !== "" && u.replace(/\/+$/, "") === root) return [`${name}=~`];
		const inHome = root !== "" && u.startsWith(`${root}/`);
		return [`${name}=${inHome ? "~/" : ""}path#${hash(u).slice(0, 8)}`];
	};
}

function sessionFields(home: string, hash: Hash): Record<string, Field> {
	const hashed: Field = (u, name) => [`${name}=${typeof u === "string" ? `#${hash(u).slice(0, 8)}` : (nil(u) ?? "?")}`];
	return {
		cwd: hiddenPath(home, hash),
		sessionId: hashed,
		model: shown(matching(MODEL), nil),
		thinkingLevel: nullableCode,
	};
}

const EnvelopeCodec = t.type({ ts: t.string, event: t.string });

interface Known {
	readonly ts: string;
	readonly event: string;
	readonly fields: Record<string, unknown>;
}

/** A line as a known record, or nothing: not JSON, not an object, no timestamp, or an event the digest does not know. */
function known(line: string): Known | undefined {
	const parsed = E.tryCatch(
		() => JSON.parse(line),
		() => "malformed JSON",
	);
	if (E.isLeft(parsed) || !isObject(parsed.right)) return undefined;
	const envelope = EnvelopeCodec.decode(parsed.right);
	if (E.isLeft(envelope) || !Object.hasOwn(eventFields, envelope.right.event)) return undefined;
	return { ...envelope.right, fields: parsed.right };
}

function recordLine(record: Known, session: Record<string, Field>): string {
	const fields = { ...session, ...(eventFields[record.event] ?? {}) };
	const pairs = Object.entries(fields).flatMap(([key, field]) =>
		Object.hasOwn(record.fields, key) ? field(record.fields[key], key) : [],
	);
	return [ISO_TIME.test(record.ts) ? record.ts : "?", record.event, ...pairs].join(" ");
}

/**
 * A digest of the newest eight log records that is safe to paste into a public issue: no message text, paths and
 * session ids hashed, home as `~`; lines that are blank are ignored, others that are not known records are counted.
 */
export function reportDigest(lines: readonly string[], home: string, hash: Hash): string {
	const nonBlank = lines.filter((line) => line.trim() !== "");
	const records = nonBlank.map(known).filter((record): record is Known => record !== undefined);
	const skipped = nonBlank.length - records.length;
	const newest = records.slice(-DIGEST_RECORDS);
	const session = sessionFields(home, hash);
	const header =
		`Longhaul log digest: the newest ${newest.length} of ${records.length} records` +
		`${skipped > 0 ? ` (${skipped} unreadable ${skipped === 1 ? "line" : "lines"} skipped)` : ""}. ` +
		"Paths and session ids are hashed, home is ~, message text is left out, ? marks a value withheld.";
	const body = newest.map((record) => recordLine(record, session));
	return sanitize([header, "```", ...body, "```"].join("\n"));
}

import * as fs from "node:fs";
import * as path from "node:path";
import { createRedactor } from "../redact/index.js";
import type { LogConfig } from "./log-config.js";
import type { LogRecord } from "./log-records.js";

/** The size past which the log is moved to `<path>.1` (one backup). Exported for tests. */
export const ROTATE_BYTES = 5 * 1024 * 1024;

/** What the writer needs from the world besides the file system: the clock, and whose files the log may use. */
export interface LogCapabilities {
	readonly now: () => Date;
	/** Undefined where the platform has no POSIX owners (Windows): owner and mode checks then do not apply. */
	readonly uid: number | undefined;
	/** Replaces secrets in the excerpts a record carries when excerpts are on; one call per record. */
	readonly redact: (texts: readonly string[]) => Promise<string[]>;
}

/** The real clock, the process's uid, and the redactor (always on for the log: it is a file users paste from). */
export function processLogCapabilities(): LogCapabilities {
	return { now: () => new Date(), uid: process.getuid?.(), redact: createRedactor(true).redactAll };
}

/** The diagnostic log: `write` never throws; a write that fails is dropped and counted. */
export interface Log {
	readonly write: (record: LogRecord) => void;
	readonly failures: () => number;
	/** Settles once every record written so far is on disk (or dropped); a record with excerpts waits for redaction. */
	readonly flushed: () => Promise<void>;
}

const { O_WRONLY, O_RDONLY, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = fs.constants;
// O_NONBLOCK: opening a FIFO must not wait for a reader; the fstat check then refuses it.
const APPEND_FLAGS = O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK;
const FRESH_FLAGS = APPEND_FLAGS | O_EXCL;
/** World-writable or sticky: a shared directory such as /tmp. */
const SHARED_BITS = 0o1002;

/** The log's directory, held open so that neither its check nor its chmod can be sent through a symlink. */
interface Directory {
	/** Null where the platform has no POSIX owners. */
	readonly fd: number | null;
	/** It is Longhaul's own and has group/other bits to take away. */
	readonly tighten: boolean;
}

/**
 * Makes `dir` (0700) and its missing parents one level at a time: Node 20's recursive `mkdirSync` spins forever
 * where mkdir answers ENOENT under a parent that exists (as anywhere under /proc), which would hang pi.
 */
function makeDirectory(dir: string): void {
	const missing: string[] = [];
	for (let d = dir; !fs.existsSync(d) && path.dirname(d) !== d; d = path.dirname(d)) missing.unshift(d);
	for (const d of missing) {
		try {
			fs.mkdirSync(d, { mode: 0o700 });
		} catch (error) {
			// Made meanwhile by another process: the checks that follow decide whether it is fit.
			if (!isCode(error, "EEXIST")) throw error;
		}
	}
}

/**
 * Makes the log's directory (0700) and opens it: it must be a real directory we own and not a shared one
 * (world-writable or sticky, like /tmp); null otherwise. Only Longhaul's own directory (`own`) is to be tightened:
 * a directory the user chose, such as their project folder for `PI_COMPACT_STATE_DEBUG=1`, keeps its mode.
 */
function openDirectory(dir: string, own: boolean, uid: number | undefined): Directory | null {
	makeDirectory(dir);
	if (uid === undefined) return fs.lstatSync(dir).isDirectory() ? { fd: null, tighten: false } : null;
	const fd = fs.openSync(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	let stats: fs.Stats;
	try {
		stats = fs.fstatSync(fd);
	} catch (error) {
		fs.closeSync(fd);
		throw error;
	}
	if (stats.uid === uid && (stats.mode & SHARED_BITS) === 0) return { fd, tighten: own && (stats.mode & 0o077) !== 0 };
	fs.closeSync(fd);
	return null;
}

interface OpenLog {
	readonly fd: number;
	readonly size: number;
}

/** Opens the log without following a symlink; refuses anything but a regular file of ours with one link. */
function openChecked(file: string, flags: number, uid: number | undefined): OpenLog | null {
	const fd = fs.openSync(file, flags, 0o600);
	try {
		const stats = fs.fstatSync(fd);
		// O_NOFOLLOW does not stop a hard link to someone else's file: nlink does.
		const ours = stats.isFile() && stats.nlink === 1 && (uid === undefined || stats.uid === uid);
		if (!ours) {
			fs.closeSync(fd);
			return null;
		}
		// An existing file keeps its old mode through open.
		fs.fchmodSync(fd, 0o600);
		return { fd, size: stats.size };
	} catch (error) {
		fs.closeSync(fd);
		throw error;
	}
}

function isCode(error: unknown, code: string): boolean {
	return error instanceof Error && "code" in error && error.code === code;
}

/** Moves the full log to `<path>.1` and opens a new one; another process may have rotated it first. */
function rotate(file: string, uid: number | undefined): OpenLog | null {
	fs.renameSync(file, `${file}.1`);
	try {
		return openChecked(file, FRESH_FLAGS, uid);
	} catch (error) {
		if (isCode(error, "EEXIST")) return openChecked(file, APPEND_FLAGS, uid);
		throw error;
	}
}

function writeAll(fd: number, bytes: Buffer): void {
	let written = 0;
	while (written < bytes.length) written += fs.writeSync(fd, bytes, written);
}

/** Opens the log for a line of `bytes`, rotating first when the line would take it past the limit. */
function openForAppend(file: string, bytes: number, uid: number | undefined): OpenLog | null {
	const open = openChecked(file, APPEND_FLAGS, uid);
	if (open === null || open.size === 0 || open.size + bytes <= ROTATE_BYTES) return open;
	fs.closeSync(open.fd);
	return rotate(file, uid);
}

/** Appends one line to the log; false when the directory or the file is refused. */
function appendLine(file: string, ownDirectory: boolean, line: Buffer, uid: number | undefined): boolean {
	const dir = openDirectory(path.dirname(file), ownDirectory, uid);
	if (dir === null) return false;
	try {
		const open = openForAppend(file, line.length, uid);
		if (open === null) return false;
		try {
			// Tightened only once the file passed its checks, so a path like /dev/null never changes its directory.
			if (dir.tighten && dir.fd !== null) fs.fchmodSync(dir.fd, 0o700);
			writeAll(open.fd, line);
			return true;
		} finally {
			fs.closeSync(open.fd);
		}
	} finally {
		if (dir.fd !== null) fs.closeSync(dir.fd);
	}
}

/** The record as written: `ts` first, and excerpts and stacks only when the user turned them on. */
function lineOf(record: LogRecord, config: LogConfig, now: Date): Buffer {
	const kept = Object.entries(record).filter(
		([key]) => (key !== "excerpts" || config.excerpts) && (key !== "stack" || config.stack),
	);
	return Buffer.from(`${JSON.stringify({ ts: now.toISOString(), ...Object.fromEntries(kept) })}\n`);
}

/** The pieces of message text a record carries as written: its excerpts, when the user turned them on. */
function textsOf(record: LogRecord, config: LogConfig): string[] {
	if (!config.excerpts || !("excerpts" in record) || record.excerpts === undefined) return [];
	return [...record.excerpts.rejectedQuotes, ...record.excerpts.prunedPaths];
}

/** The record with its excerpts replaced by `texts`, in the order `textsOf` gave them. */
function withTexts(record: LogRecord, texts: readonly string[]): LogRecord {
	if (!("excerpts" in record) || record.excerpts === undefined) return record;
	let next = 0;
	const take = (fallback: string) => texts[next++] ?? fallback;
	const rejectedQuotes = record.excerpts.rejectedQuotes.map(take);
	return { ...record, excerpts: { rejectedQuotes, prunedPaths: record.excerpts.prunedPaths.map(take) } };
}

/**
 * The diagnostic log writer (docs/how-it-works.md, The log); a no-op when logging is off. A record with excerpts
 * (pieces of the user's messages, `PI_COMPACT_STATE_DEBUG_EXCERPTS=1`) is written once its secrets are redacted;
 * records keep their order all the same.
 */
export function createLog(config: LogConfig, capabilities: LogCapabilities = processLogCapabilities()): Log {
	let failures = 0;
	let queue: Promise<void> | undefined;
	const append = (record: LogRecord): void => {
		if (config.path === null) return;
		try {
			// Each write opens and checks afresh: another pi process may have rotated or replaced the file.
			const line = lineOf(record, config, capabilities.now());
			if (!appendLine(config.path, config.ownDirectory, line, capabilities.uid)) failures += 1;
		} catch {
			// A failed write never affects the compaction.
			failures += 1;
		}
	};
	const write = (record: LogRecord): void => {
		if (config.path === null) return;
		const texts = textsOf(record, config);
		if (texts.length === 0 && queue === undefined) {
			append(record);
			return;
		}
		const redacted = texts.length === 0 ? Promise.resolve(record) : redactedRecord(record, texts);
		const mine: Promise<void> = (queue ?? Promise.resolve()).then(async () => {
			// A record whose redaction failed is dropped, never written as it was.
			const next = await redacted.catch(() => undefined);
			if (next === undefined) failures += 1;
			else append(next);
			if (queue === mine) queue = undefined;
		});
		queue = mine;
	};
	const redactedRecord = async (record: LogRecord, texts: readonly string[]) =>
		withTexts(record, await capabilities.redact(texts));
	return { write, failures: () => failures, flushed: async () => queue };
}

import { execFileSync } from "node:child_process";
import {
	chmodSync,
	closeSync,
	constants,
	existsSync,
	linkSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readdirSync,
	readFileSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	createLog,
	type LogCapabilities,
	type LogConfig,
	LogRecordCodec,
	type LogRecordOf,
	ROTATE_BYTES,
	resolveLogConfig,
} from "../../../../src/adapters/log/index.js";
import { createRedactor } from "../../../../src/adapters/redact/index.js";
import { bytesWaiting, modeOf } from "../../../support/file-probes.js";
import { compactionRecord, sampleRecords, session } from "../../../support/log-records.js";

const at = new Date("2025-06-01T12:00:00.000Z");
const capabilities: LogCapabilities = {
	now: () => at,
	uid: process.getuid?.(),
	redact: createRedactor(true).redactAll,
};
const config = (path: string, extra: Partial<LogConfig> = {}): LogConfig => ({
	path,
	ownDirectory: false,
	excerpts: false,
	stack: false,
	...extra,
});
const compacted = (span: number, cwd = session.cwd): LogRecordOf<"compacted"> => ({
	event: "compacted",
	...session,
	cwd,
	fromExtension: true,
	reason: "threshold",
	span,
	summaryChars: 100,
	tokensBefore: 1000,
});

const linesOf = (path: string): unknown[] =>
	readFileSync(path, "utf8")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line));

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "longhaul-log-"));
});
afterEach(() => {
	execFileSync("rm", ["-rf", root]);
});

describe("createLog writes", () => {
	it("one JSON line per record with ts first, each decoding with its event's codec", () => {
		const file = join(root, "logs", "compaction-state.jsonl");
		const log = createLog(config(file), capabilities);
		for (const record of sampleRecords) log.write(record);
		const lines = readFileSync(file, "utf8").split("\n");
		expect(lines.pop()).toBe("");
		expect(lines).toHaveLength(sampleRecords.length);
		for (const [index, line] of lines.entries()) {
			expect(line.startsWith(`{"ts":"${at.toISOString()}",`)).toBe(true);
			const decoded = LogRecordCodec.decode(JSON.parse(line));
			expect(E.isRight(decoded) && decoded.right.event).toBe(sampleRecords[index]?.event);
		}
		expect(log.failures()).toBe(0);
	});

	it("a 0600 file in a 0700 directory it creates", () => {
		const file = join(root, "a", "b", "log.jsonl");
		createLog(config(file), capabilities).write(compacted(1));
		expect(modeOf(join(root, "a", "b"))).toBe(0o700);
		expect(modeOf(file)).toBe(0o600);
	});

	it("tightens the default logs directory that pre-existed with 0755, and a file that had 0644", () => {
		const agentDir = join(root, "agent");
		const dir = join(agentDir, "logs");
		mkdirSync(dir, { recursive: true, mode: 0o755 });
		chmodSync(dir, 0o755);
		const logConfig = resolveLogConfig({}, agentDir, root);
		const file = join(dir, "compaction-state.jsonl");
		writeFileSync(file, "", { mode: 0o644 });
		chmodSync(file, 0o644);
		const log = createLog(logConfig, capabilities);
		log.write(compacted(1));
		expect(modeOf(dir)).toBe(0o700);
		expect(modeOf(file)).toBe(0o600);
		expect(linesOf(file)).toHaveLength(1);
	});

	it("leaves a 0755 directory the user chose at 0755, with a 0600 file in it", () => {
		const dir = join(root, "mine");
		mkdirSync(dir, { mode: 0o755 });
		chmodSync(dir, 0o755);
		const file = join(dir, "log.jsonl");
		const log = createLog(config(file), capabilities);
		log.write(compacted(1));
		expect(modeOf(dir)).toBe(0o755);
		expect(modeOf(file)).toBe(0o600);
		expect(linesOf(file)).toMatchObject([{ span: 1 }]);
		expect(log.failures()).toBe(0);
	});

	it("PI_COMPACT_STATE_DEBUG=1: a 0600 file named 1 in the working directory, whose 0755 mode is kept", () => {
		const cwd = join(root, "project");
		mkdirSync(cwd, { mode: 0o755 });
		chmodSync(cwd, 0o755);
		const log = createLog(resolveLogConfig({ PI_COMPACT_STATE_DEBUG: "1" }, join(root, "agent"), cwd), capabilities);
		log.write(compacted(1));
		expect(modeOf(cwd)).toBe(0o755);
		expect(modeOf(join(cwd, "1"))).toBe(0o600);
		expect(linesOf(join(cwd, "1"))).toMatchObject([{ event: "compacted", span: 1 }]);
		expect(log.failures()).toBe(0);
	});

	it("appends to the existing file", () => {
		const file = join(root, "log.jsonl");
		createLog(config(file), capabilities).write(compacted(1));
		createLog(config(file), capabilities).write(compacted(2));
		expect(linesOf(file)).toMatchObject([{ span: 1 }, { span: 2 }]);
	});

	it("nothing when logging is off, and counts no failure", () => {
		const log = createLog({ path: null, ownDirectory: false, excerpts: true, stack: true }, capabilities);
		log.write(compacted(1));
		expect(log.failures()).toBe(0);
		expect(readdirSync(root)).toEqual([]);
	});

	it("excerpts and stacks only when they are turned on", async () => {
		const withExcerpts = { ...compactionRecord, excerpts: { rejectedQuotes: ["my secret words"], prunedPaths: [] } };
		const failed: LogRecordOf<"fallback"> = {
			event: "fallback",
			...session,
			reason: "pass-threw",
			errorClass: "Error",
			error: "boom",
			stack: "Error: boom\n    at ~/x.ts:1:1",
		};
		const quiet = join(root, "quiet.jsonl");
		const quietLog = createLog(config(quiet), capabilities);
		quietLog.write(withExcerpts);
		quietLog.write(failed);
		expect(readFileSync(quiet, "utf8")).not.toMatch(/secret|at ~/);
		const loud = join(root, "loud.jsonl");
		const loudLog = createLog(config(loud, { excerpts: true, stack: true }), capabilities);
		loudLog.write(withExcerpts);
		loudLog.write(failed);
		await loudLog.flushed();
		expect(linesOf(loud)).toMatchObject([
			{ excerpts: { rejectedQuotes: ["my secret words"] } },
			{ stack: "Error: boom\n    at ~/x.ts:1:1" },
		]);
	});
});

describe("createLog with excerpts on", () => {
	const token = "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6";
	const withToken = { ...compactionRecord, excerpts: { rejectedQuotes: [`use ${token} to push`], prunedPaths: [] } };

	it("writes excerpts with their secrets replaced by a marker naming the kind", async () => {
		const file = join(root, "log.jsonl");
		const log = createLog(config(file, { excerpts: true }), capabilities);
		log.write(withToken);
		await log.flushed();
		expect(readFileSync(file, "utf8")).not.toContain(token.slice(4));
		expect(linesOf(file)).toMatchObject([{ excerpts: { rejectedQuotes: ["use [redacted: github token] to push"] } }]);
	});

	it("keeps the records in the order written while one waits for its redaction", async () => {
		const file = join(root, "log.jsonl");
		const log = createLog(config(file, { excerpts: true }), capabilities);
		log.write(compacted(1));
		log.write(withToken);
		log.write(compacted(2));
		await log.flushed();
		expect(linesOf(file)).toMatchObject([{ event: "compacted" }, { event: "compaction" }, { event: "compacted" }]);
	});

	it("drops a record whose redaction failed and counts it, never writing it unredacted", async () => {
		const file = join(root, "log.jsonl");
		const failing: LogCapabilities = { ...capabilities, redact: async () => Promise.reject(new Error("lint failed")) };
		const log = createLog(config(file, { excerpts: true }), failing);
		log.write(withToken);
		log.write(compacted(2));
		await log.flushed();
		expect(log.failures()).toBe(1);
		expect(linesOf(file)).toMatchObject([{ event: "compacted", span: 2 }]);
	});
});

describe("createLog refuses, without throwing,", () => {
	it("to follow a symlink at the log path: its missing target is not created", () => {
		const target = join(root, "elsewhere.jsonl");
		const file = join(root, "log.jsonl");
		symlinkSync(target, file);
		const log = createLog(config(file), capabilities);
		log.write(compacted(1));
		expect(existsSync(target)).toBe(false);
		expect(lstatSync(file).isSymbolicLink()).toBe(true);
		expect(log.failures()).toBe(1);
	});

	it("to follow a symlink at the log path: an existing target is untouched", () => {
		const target = join(root, "victim");
		writeFileSync(target, "keep me\n", { mode: 0o644 });
		chmodSync(target, 0o644);
		const file = join(root, "log.jsonl");
		symlinkSync(target, file);
		createLog(config(file), capabilities).write(compacted(1));
		expect(readFileSync(target, "utf8")).toBe("keep me\n");
		expect(modeOf(target)).toBe(0o644);
	});

	it("a log directory that is a symlink, and leaves its target's mode alone", () => {
		const real = join(root, "real");
		mkdirSync(real, { mode: 0o755 });
		chmodSync(real, 0o755);
		symlinkSync(real, join(root, "logs"));
		const log = createLog(config(join(root, "logs", "log.jsonl"), { ownDirectory: true }), capabilities);
		log.write(compacted(1));
		expect(readdirSync(real)).toEqual([]);
		expect(modeOf(real)).toBe(0o755);
		expect(log.failures()).toBe(1);
	});

	it("a FIFO at the log path, with no reader and with a reader waiting", () => {
		const file = join(root, "log.jsonl");
		execFileSync("mkfifo", [file]);
		const log = createLog(config(file), capabilities);
		log.write(compacted(1));
		const reader = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
		try {
			log.write(compacted(2));
			expect(bytesWaiting(reader)).toBe(0);
		} finally {
			closeSync(reader);
		}
		expect(lstatSync(file).isFIFO()).toBe(true);
		expect(log.failures()).toBe(2);
	});

	it("a directory at the log path", () => {
		const file = join(root, "log.jsonl");
		mkdirSync(file);
		const log = createLog(config(file), capabilities);
		log.write(compacted(1));
		expect(readdirSync(file)).toEqual([]);
		expect(log.failures()).toBe(1);
	});

	it("a device at the log path, leaving the device's directory alone even where it is taken as Longhaul's own", () => {
		const devMode = modeOf("/dev");
		const log = createLog(config("/dev/null", { ownDirectory: true }), capabilities);
		try {
			log.write(compacted(1));
			expect(modeOf("/dev")).toBe(devMode);
		} finally {
			// Run as root, a regression would tighten /dev itself: put it back before anything else notices.
			if (modeOf("/dev") !== devMode) chmodSync("/dev", devMode);
		}
		expect(statSync("/dev/null").isCharacterDevice()).toBe(true);
		expect(log.failures()).toBe(1);
	});

	it("a file with a second hard link, leaving its content and mode alone", () => {
		const target = join(root, "victim");
		writeFileSync(target, "keep me\n", { mode: 0o644 });
		chmodSync(target, 0o644);
		const dir = join(root, "logs");
		mkdirSync(dir, { mode: 0o700 });
		const file = join(dir, "log.jsonl");
		linkSync(target, file);
		const log = createLog(config(file), capabilities);
		log.write(compacted(1));
		expect(readFileSync(target, "utf8")).toBe("keep me\n");
		expect(modeOf(target)).toBe(0o644);
		expect(log.failures()).toBe(1);
	});

	it("a FIFO in a loose logs directory of Longhaul's own, which stays as it was since nothing was written", () => {
		const dir = join(root, "logs");
		mkdirSync(dir, { mode: 0o755 });
		chmodSync(dir, 0o755);
		execFileSync("mkfifo", [join(dir, "log.jsonl")]);
		const reader = openSync(join(dir, "log.jsonl"), constants.O_RDONLY | constants.O_NONBLOCK);
		try {
			createLog(config(join(dir, "log.jsonl"), { ownDirectory: true }), capabilities).write(compacted(1));
		} finally {
			closeSync(reader);
		}
		expect(modeOf(dir)).toBe(0o755);
	});

	it("a directory that is not ours, leaving its mode alone", () => {
		const dir = join(root, "logs");
		mkdirSync(dir, { mode: 0o755 });
		chmodSync(dir, 0o755);
		const owner = process.getuid?.() ?? 0;
		const log = createLog(config(join(dir, "log.jsonl"), { ownDirectory: true }), {
			...capabilities,
			uid: owner + 4242,
		});
		log.write(compacted(1));
		expect(modeOf(dir)).toBe(0o755);
		expect(readdirSync(dir)).toEqual([]);
		expect(log.failures()).toBe(1);
	});

	it("a shared directory (world-writable and sticky) of ours, which it does not tighten", () => {
		const dir = join(root, "shared");
		mkdirSync(dir);
		chmodSync(dir, 0o1777);
		const log = createLog(config(join(dir, "log.jsonl"), { ownDirectory: true }), capabilities);
		log.write(compacted(1));
		expect(modeOf(dir)).toBe(0o1777);
		expect(readdirSync(dir)).toEqual([]);
		expect(log.failures()).toBe(1);
	});

	it("a path whose directory cannot be made (it lies under a regular file)", () => {
		const blocker = join(root, "file");
		writeFileSync(blocker, "");
		const log = createLog(config(join(blocker, "x", "log.jsonl")), capabilities);
		expect(() => log.write(compacted(1))).not.toThrow();
		expect(log.failures()).toBe(1);
	});

	it("a clock that cannot give a time", () => {
		const file = join(root, "log.jsonl");
		const log = createLog(config(file), { ...capabilities, now: () => new Date(Number.NaN) });
		expect(() => log.write(compacted(1))).not.toThrow();
		expect(log.failures()).toBe(1);
	});
});

describe("createLog rotates", () => {
	// A long cwd makes each record about 10 KB, so 5 MB takes a few hundred writes.
	const bigCwd = `/home/alice/${"p".repeat(10_000)}`;
	const spanOf = (line: unknown): unknown =>
		typeof line === "object" && line !== null && "span" in line ? line.span : undefined;

	/** Writes numbered records until the backup changes; the span of the record that rotated. */
	function writeUntilRotation(log: ReturnType<typeof createLog>, file: string, from: number): number {
		const before = existsSync(`${file}.1`) ? statSync(`${file}.1`).ino : undefined;
		for (let span = from; span < from + 2_000; span += 1) {
			log.write(compacted(span, bigCwd));
			if (existsSync(`${file}.1`) && statSync(`${file}.1`).ino !== before) return span;
		}
		throw new Error("no rotation after 2000 records");
	}

	it("at 5 MB to exactly one .1 and a fresh current file, and a second rotation replaces .1", () => {
		const file = join(root, "log.jsonl");
		const log = createLog(config(file), capabilities);

		const first = writeUntilRotation(log, file, 1);
		expect(readdirSync(root).sort()).toEqual(["log.jsonl", "log.jsonl.1"]);
		expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(ROTATE_BYTES);
		expect(linesOf(`${file}.1`).map(spanOf)).toEqual(Array.from({ length: first - 1 }, (_, i) => i + 1));
		expect(linesOf(file).map(spanOf)).toEqual([first]);
		expect(modeOf(file)).toBe(0o600);

		const second = writeUntilRotation(log, file, first + 1);
		expect(readdirSync(root).sort()).toEqual(["log.jsonl", "log.jsonl.1"]);
		expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(ROTATE_BYTES);
		expect(linesOf(`${file}.1`).map(spanOf)).toEqual(Array.from({ length: second - first }, (_, i) => first + i));
		expect(linesOf(file).map(spanOf)).toEqual([second]);
		expect(log.failures()).toBe(0);
	});
});

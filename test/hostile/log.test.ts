import { execFileSync } from "node:child_process";
import {
	chmodSync,
	chownSync,
	closeSync,
	constants,
	existsSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { foldEntries } from "../../src/reducers/index.js";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { labeler } from "../support/fake-summarizer.js";
import { bytesWaiting, modeOf } from "../support/file-probes.js";
import { logRecords, longhaulSession, tick } from "../support/longhaul-session.js";
import { say } from "../support/pi-harness.js";

const root = mkdtempSync(join(tmpdir(), "longhaul-log-attack-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const isRoot = process.getuid?.() === 0;
const STRANGER = 12_345;

const kept = disposedAfterEach();

/** Runs one compaction with the log at `logPath`, then one more prompt; returns the state it left. */
async function compactWithLogAt(logPath: string) {
	const h = await longhaulSession({ env: { PI_COMPACT_STATE_DEBUG: logPath } });
	kept(h);
	h.model.scriptSide(labeler());
	h.model.scriptAgent(say("ok"), say("ok"), say("still here"));
	await h.prompt("never add dependencies");
	await h.prompt("next");
	await h.compact();
	await tick();
	await h.prompt("are you there?");
	await h.prompt("/longhaul-report");
	expect(h.ui.notices.at(-1)?.message).toMatch(/^Longhaul log digest/);
	const compaction = h.branch().find((e) => e.type === "compaction");
	expect(compaction?.type === "compaction" ? compaction.details : undefined).toMatchObject({ longhaul: true, span: 1 });
	const last = h.branch().at(-1);
	expect(last?.type === "message" && last.message.role === "assistant" ? last.message.content : []).toEqual([
		{ type: "text", text: "still here" },
	]);
	return foldEntries(h.branch()).state;
}

function dirFor(name: string): string {
	const dir = join(root, name);
	mkdirSync(dir, { mode: 0o700 });
	return dir;
}

describe("a hostile log path stops no compaction and is never written through", () => {
	it("control: a plain path is written, so the cases below would see a write", async () => {
		const log = join(dirFor("plain"), "log.jsonl");
		const state = await compactWithLogAt(log);
		expect(state.rules.map((r) => r.text)).toEqual(["never add dependencies"]);
		expect(logRecords(log).map((r) => r.event)).toEqual(expect.arrayContaining(["compaction", "compacted"]));
	});

	it("a log in the user's own 0755 folder: the folder keeps its mode, the file is 0600", async () => {
		const folder = dirFor("project");
		chmodSync(folder, 0o755);
		await compactWithLogAt(join(folder, "1"));
		expect(modeOf(folder)).toBe(0o755);
		expect(modeOf(join(folder, "1"))).toBe(0o600);
		expect(logRecords(join(folder, "1")).map((r) => r.event)).toEqual(expect.arrayContaining(["compacted"]));
	});

	it("a symlink to someone's file: the file keeps its bytes and mode", async () => {
		const dir = dirFor("symlink");
		const victim = join(root, "victim.txt");
		writeFileSync(victim, "keep me\n", { mode: 0o644 });
		chmodSync(victim, 0o644);
		symlinkSync(victim, join(dir, "log.jsonl"));
		await compactWithLogAt(join(dir, "log.jsonl"));
		expect(readFileSync(victim, "utf8")).toBe("keep me\n");
		expect(modeOf(victim)).toBe(0o644);
		expect(lstatSync(join(dir, "log.jsonl")).isSymbolicLink()).toBe(true);
	});

	it("a symlink to a path that does not exist yet: nothing is created there", async () => {
		const dir = dirFor("dangling");
		const target = join(root, "planted.jsonl");
		symlinkSync(target, join(dir, "log.jsonl"));
		await compactWithLogAt(join(dir, "log.jsonl"));
		expect(existsSync(target)).toBe(false);
	});

	it("a symlinked log directory: its target gets no file", async () => {
		const real = dirFor("real-dir");
		symlinkSync(real, join(root, "linked-dir"));
		await compactWithLogAt(join(root, "linked-dir", "log.jsonl"));
		expect(readdirSync(real)).toEqual([]);
	});

	it("a FIFO with no reader: the compaction does not wait for one", async () => {
		const fifo = join(dirFor("fifo"), "log.jsonl");
		execFileSync("mkfifo", [fifo]);
		await compactWithLogAt(fifo);
		expect(lstatSync(fifo).isFIFO()).toBe(true);
	});

	it("a FIFO with a reader waiting: the reader gets nothing", async () => {
		const fifo = join(dirFor("fifo-read"), "log.jsonl");
		execFileSync("mkfifo", [fifo]);
		const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
		try {
			await compactWithLogAt(fifo);
			expect(bytesWaiting(reader)).toBe(0);
		} finally {
			closeSync(reader);
		}
	});

	it("a directory at the log path: it stays empty", async () => {
		const log = join(dirFor("dir-at-path"), "log.jsonl");
		mkdirSync(log);
		await compactWithLogAt(log);
		expect(readdirSync(log)).toEqual([]);
	});

	it("a directory no one may write (under /proc): the write fails quietly", async () => {
		const state = await compactWithLogAt("/proc/self/longhaul-logs/log.jsonl");
		expect(state.rules.map((r) => r.text)).toEqual(["never add dependencies"]);
		expect(existsSync("/proc/self/longhaul-logs")).toBe(false);
	});

	it.skipIf(!isRoot)("a log file owned by another user (needs root to chown): it keeps its bytes", async () => {
		const log = join(dirFor("foreign-file"), "log.jsonl");
		writeFileSync(log, "theirs\n", { mode: 0o600 });
		chownSync(log, STRANGER, STRANGER);
		await compactWithLogAt(log);
		expect(readFileSync(log, "utf8")).toBe("theirs\n");
		expect(statSync(log).uid).toBe(STRANGER);
	});

	it.skipIf(!isRoot)(
		"a log directory owned by another user (needs root to chown): nothing is written in it",
		async () => {
			const dir = dirFor("foreign-dir");
			chmodSync(dir, 0o755);
			chownSync(dir, STRANGER, STRANGER);
			await compactWithLogAt(join(dir, "log.jsonl"));
			expect(readdirSync(dir)).toEqual([]);
			expect(modeOf(dir)).toBe(0o755);
		},
	);
});

import { execFileSync } from "node:child_process";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { logReport, REPORT_TAIL_BYTES, reportLines, sha256Hex } from "../../../../src/adapters/log/index.js";

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "longhaul-report-"));
});
afterEach(() => {
	execFileSync("rm", ["-rf", root]);
});

const line = (span: number): string =>
	JSON.stringify({
		ts: "2025-06-01T12:00:00.000Z",
		event: "compact-failed",
		cwd: "/x",
		sessionId: null,
		model: null,
		thinkingLevel: null,
		reason: "overflow",
		span,
	});

describe("reportLines", () => {
	it("reads the rotated backup before the current file", () => {
		const file = join(root, "log.jsonl");
		writeFileSync(`${file}.1`, `${line(1)}\n${line(2)}\n`);
		writeFileSync(file, `${line(3)}\n`);
		expect(reportLines(file).filter((l) => l !== "")).toEqual([line(1), line(2), line(3)]);
	});

	it("reads only whole lines from the end of a large file", () => {
		const file = join(root, "log.jsonl");
		const filler = `${"x".repeat(REPORT_TAIL_BYTES)}\n`;
		writeFileSync(file, `${filler}${line(1)}\n${line(2)}\n`);
		expect(reportLines(file).filter((l) => l !== "")).toEqual([line(1), line(2)]);
	});

	it("reads nothing through a symlink, and nothing when the files are missing", () => {
		const target = join(root, "elsewhere.jsonl");
		writeFileSync(target, `${line(1)}\n`);
		const file = join(root, "log.jsonl");
		symlinkSync(target, file);
		expect(reportLines(file)).toEqual([]);
		expect(reportLines(join(root, "missing.jsonl"))).toEqual([]);
	});
});

describe("logReport", () => {
	it("says the log is off when it is", () => {
		expect(logReport({ path: null, ownDirectory: false, excerpts: false, stack: false }, "/home/alice")).toMatch(
			/log is off/,
		);
	});

	it("digests the log's newest records", () => {
		const file = join(root, "log.jsonl");
		writeFileSync(file, `${line(1)}\n${line(2)}\n`);
		const text = logReport({ path: file, ownDirectory: false, excerpts: false, stack: false }, "/home/alice");
		expect(text).toContain("newest 2 of 2 records");
		expect(text).toContain(`cwd=path#${sha256Hex("/x").slice(0, 8)}`);
	});
});

describe("sha256Hex", () => {
	it("is the sha256 of the text in hex", () => {
		expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	});
});

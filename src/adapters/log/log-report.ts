import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { reportDigest } from "../../projections/index.js";
import type { LogConfig } from "./log-config.js";

/** How much of the end of each log file the report reads: far more than eight records need. Exported for tests. */
export const REPORT_TAIL_BYTES = 1024 * 1024;

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/** The sha256 of a text in hex: how the digest hides paths and session ids. Exported for tests. */
export function sha256Hex(text: string): string {
	return createHash("sha256").update(text).digest("hex");
}

/** The whole lines in the last `REPORT_TAIL_BYTES` of a regular file; none when it is missing or anything else. */
function tailLines(file: string): string[] {
	let fd: number;
	try {
		fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	} catch {
		return [];
	}
	try {
		const stats = fs.fstatSync(fd);
		if (!stats.isFile()) return [];
		const start = Math.max(0, stats.size - REPORT_TAIL_BYTES);
		const buffer = Buffer.alloc(stats.size - start);
		const read = fs.readSync(fd, buffer, 0, buffer.length, start);
		const lines = buffer.subarray(0, read).toString("utf8").split("\n");
		// Reading from the middle of the file starts mid-line: that first piece is not a record.
		return start > 0 ? lines.slice(1) : lines;
	} catch {
		return [];
	} finally {
		fs.closeSync(fd);
	}
}

/** The log lines the report reads, oldest first: the rotated `.1` backup, then the current file. Exported for tests. */
export function reportLines(file: string): string[] {
	return [...tailLines(`${file}.1`), ...tailLines(file)];
}

/** The text `/longhaul-report` shows: the digest of the newest records, or why there is none. */
export function logReport(config: LogConfig, home: string): string {
	if (config.path === null) return "Longhaul's log is off (PI_COMPACT_STATE_DEBUG), so there is nothing to report.";
	return reportDigest(reportLines(config.path), home, sha256Hex);
}

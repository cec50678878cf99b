import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { transcriptFacts } from "../src/eval/facts.js";
import { compactionsSession } from "./compactions.js";
import { median, report, timeRuns } from "./measure.js";

// Issue 21: a line too long to read is not held (the peak memory of `state` on a transcript with one 300 MB line,
// against the same transcript without it), and `facts` grows linearly with compactions.

const LONG_LINE_BYTES = 300 * 1024 * 1024;

/** Writes the session, with one message entry of `longBytes` characters before its last round when asked. */
function writeSession(path: string, text: string, longBytes: number): void {
	const fd = openSync(path, "w");
	try {
		const lines = text.split("\n");
		const at = lines.length - 6;
		writeSync(fd, `${lines.slice(0, at).join("\n")}\n`);
		if (longBytes > 0) {
			const parent = JSON.parse(lines[at - 1] ?? "{}").id;
			writeSync(fd, `{"type":"custom","customType":"bench","id":"long","parentId":"${parent}","data":"`);
			const piece = "x".repeat(16 * 1024 * 1024);
			for (let left = longBytes; left > 0; left -= piece.length)
				writeSync(fd, piece.slice(0, Math.min(left, piece.length)));
			writeSync(fd, '"}\n');
		}
		writeSync(fd, lines.slice(at).join("\n"));
	} finally {
		closeSync(fd);
	}
}

/** The peak resident memory of `longhaul state FILE --json` as a child process, in bytes. */
function peakRss(root: string, file: string): number {
	const launcher = join(root, "bin", "longhaul.js");
	const script = `process.on("exit",()=>process.stderr.write("MAXRSS "+process.resourceUsage().maxRSS+"\\n"));process.argv=[process.argv[0],${JSON.stringify(launcher)},"state",${JSON.stringify(file)},"--json"];import(${JSON.stringify(`file://${launcher}`)});`;
	const child = spawnSync(process.execPath, ["-e", script], {
		cwd: root,
		encoding: "utf8",
		maxBuffer: 64 * 1024 * 1024,
	});
	if (child.status !== 0) throw new Error(`bench child failed: state ${file}: ${child.stderr}`);
	const kb = Number(/MAXRSS (\d+)/.exec(child.stderr)?.[1] ?? Number.NaN);
	return kb * 1024;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Peak memory of `state` with and without one 300 MB line; the line should cost nothing held. */
export function longLineBench(root: string): void {
	const dir = mkdtempSync(join(tmpdir(), "longhaul-bench-read-"));
	try {
		const text = compactionsSession(200);
		const plain = join(dir, "plain.jsonl");
		const long = join(dir, "long.jsonl");
		writeFileSync(plain, "");
		writeSession(plain, text, 0);
		writeSession(long, text, LONG_LINE_BYTES);
		const without = median([1, 2, 3].map(() => peakRss(root, plain)));
		const withLine = median([1, 2, 3].map(() => peakRss(root, long)));
		const ratio = withLine / without;
		report(
			"state --json peak RSS, one 300 MB line in it",
			`${ratio.toFixed(2)}x (${mb(withLine)} vs ${mb(without)})`,
			"<= 2x the same without the line",
			ratio <= 2,
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** `facts` on 2,000 and on 20,000 compactions: linear, so about 10 times the time. */
export function factsScaleBench(): void {
	const small = compactionsSession(2000);
	const large = compactionsSession(20000);
	const smallMs = median(timeRuns(3, () => transcriptFacts(small)));
	const largeMs = median(timeRuns(1, () => transcriptFacts(large)));
	const ratio = largeMs / smallMs;
	report(
		"facts, 20,000 against 2,000 compactions",
		`${ratio.toFixed(1)}x (${largeMs.toFixed(0)} vs ${smallMs.toFixed(0)} ms)`,
		"<= 12x (linear)",
		ratio <= 12,
	);
}

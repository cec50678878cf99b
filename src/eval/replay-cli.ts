import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { readSession } from "../adapters/cli/session-file.js";
import type { CliResult } from "../adapters/cli/state-cli.js";
import { sanitize } from "../projections/index.js";
import { DEMO_KEEP_RECENT_TOKENS, demoTranscript } from "./demo.js";
import { pathHash } from "./path-hash.js";
import { type ReplayOptions, replayTranscript } from "./replay.js";
import { FAKED, type ReplayRow, replayReport } from "./replay-report.js";

/** How replay is called. */
const REPLAY_USAGE =
	"usage: longhaul replay [FILE…] [--out DIR] [--compactors longhaul|recorded] [--every N] [--keep-recent-tokens N] [--fail-diff]";

/** With no compaction in a recording, replay makes one after every this many user turns. */
export const DEFAULT_EVERY = 20;

interface ReplayArgs {
	readonly files: readonly string[];
	readonly out: string | undefined;
	readonly compactors: ReplayOptions["compactors"];
	readonly every: number;
	readonly diff: ReplayOptions["diff"];
	readonly keepRecentTokens: number | undefined;
}

/** Reads the replay command line; a wrong one is a message. */
function parseReplayArgs(argv: readonly string[]): E.Either<string, ReplayArgs> {
	const files: string[] = [];
	let out: string | undefined;
	let compactors: ReplayArgs["compactors"] = "longhaul";
	let every = DEFAULT_EVERY;
	let diff: ReplayArgs["diff"] = "stand-in";
	let keepRecentTokens: number | undefined;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] ?? "";
		if (arg === "--out") {
			const dir = argv[++i];
			if (dir === undefined || dir === "") return E.left(`--out needs a directory\n${REPLAY_USAGE}`);
			out = dir;
		} else if (arg === "--compactors") {
			const value = argv[++i];
			if (value !== "longhaul" && value !== "recorded")
				return E.left(`--compactors is longhaul or recorded\n${REPLAY_USAGE}`);
			compactors = value;
		} else if (arg === "--every") {
			const n = argv[++i];
			if (n === undefined || !/^[0-9]{1,6}$/.test(n)) return E.left(`--every needs a number of turns\n${REPLAY_USAGE}`);
			every = Number(n);
		} else if (arg === "--keep-recent-tokens") {
			const n = argv[++i];
			if (n === undefined || !/^[1-9][0-9]{0,6}$/.test(n))
				return E.left(`--keep-recent-tokens needs a number of tokens\n${REPLAY_USAGE}`);
			keepRecentTokens = Number(n);
		} else if (arg === "--fail-diff") {
			diff = "fail";
		} else if (arg === "--help" || arg === "-h") {
			return E.left(REPLAY_USAGE);
		} else if (arg.startsWith("-")) {
			return E.left(`unknown option ${arg}\n${REPLAY_USAGE}`);
		} else {
			files.push(arg);
		}
	}
	return E.right({ files, out, compactors, every, diff, keepRecentTokens });
}

/** Runs `replay`: each transcript through a real pi session with Longhaul (read only; counts, hashed names). */
export async function runReplayCli(
	argv: readonly string[],
	caps: { readonly root: string; readonly now: () => number },
): Promise<CliResult> {
	const args = parseReplayArgs(argv);
	if (E.isLeft(args)) return { stdout: "", stderr: `${sanitize(args.left)}\n`, code: 2 };
	const { out, compactors, every, diff } = args.right;
	// With no FILE, the demo transcript, with the keep setting it was recorded with.
	const demo = args.right.files.length === 0;
	const files = demo ? [demoTranscript(caps.root)] : args.right.files;
	const keepRecentTokens = args.right.keepRecentTokens ?? (demo ? DEMO_KEEP_RECENT_TOKENS : undefined);
	const rows: ReplayRow[] = [];
	const problems: string[] = [];
	const written: string[] = [];
	for (const file of files) {
		const name = pathHash(file);
		const transcript = readSession(file);
		if (E.isLeft(transcript)) {
			problems.push(`${name}: ${transcript.left}`);
			continue;
		}
		const start = caps.now();
		const replayed = await replayTranscript(transcript.right, {
			extensionPath: caps.root,
			compactors,
			every,
			diff,
			...(keepRecentTokens === undefined ? {} : { keepRecentTokens }),
		});
		rows.push({ name, counts: replayed.counts, ms: caps.now() - start });
		if (out !== undefined) {
			mkdirSync(out, { recursive: true });
			writeFileSync(join(out, `${name}.replay.jsonl`), replayed.jsonl);
			written.push(`${name}.replay.jsonl`);
		}
	}
	const keep = keepRecentTokens === undefined ? "pi's default" : String(keepRecentTokens);
	const mode = `compactions: ${compactors === "longhaul" ? "all by Longhaul" : "as recorded"}; without any, one every ${every} user turns; keepRecentTokens: ${keep}; diff: ${diff}`;
	const report = replayReport(rows);
	const wrote = written.length === 0 ? "" : `written to the --out dir: ${written.join(", ")}\n`;
	const handlerErrors = rows.some((r) => Object.keys(r.counts.handlerErrors).length > 0);
	return {
		stdout: rows.length === 0 ? "" : sanitize(`${FAKED}\n${mode}\n\n`) + report + sanitize(wrote),
		stderr: problems.length === 0 ? "" : `${sanitize(problems.join("\n"))}\n`,
		code: problems.length > 0 ? 2 : handlerErrors ? 1 : 0,
	};
}

import { stat } from "node:fs/promises";
import { sequenceS } from "fp-ts/lib/Apply.js";
import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import type { World } from "../../events/index.js";
import { type GitCall, type GitOutput, runGit } from "./run-git.js";

type Config = GitCall["config"];

/** Limits for one World snapshot; the environment is the one git would otherwise inherit. */
export interface WorldOptions {
	/** Time limit of each git call (default 3000 ms). */
	readonly timeoutMs?: number;
	/** Time limit of the whole snapshot (default 8000 ms). */
	readonly totalMs?: number;
	/** Characters kept of each command's output before it is cut with a marker (default 8000). */
	readonly maxOutputChars?: number;
	readonly env?: NodeJS.ProcessEnv;
}

// The read-only commands; HEAD is named with --ignore-missing so a repository without commits still answers. The
// log's first line is HEAD's.
const BRANCH = ["branch", "--show-current"];
const STATUS = ["status", "--short", "--branch", "--no-ahead-behind", "--ignore-submodules=all", "--no-renames"];
const LOG = ["log", "-5", "--no-show-signature", "--no-color", "--ignore-missing", "--format=%h %s", "HEAD", "--"];
const DIFF_STAT = [
	"diff",
	"--stat",
	"--no-ext-diff",
	"--no-textconv",
	"--no-color",
	"--ignore-submodules=all",
	"--no-renames",
];

const FILTER_KEYS = String.raw`^filter\..*\.(clean|smudge|process)$`;
// The filter list must be read whole: a driver missed is a driver run.
const FILTER_LIST_CHARS = 200_000;

/** Takes the World with six read-only git commands that run nothing the repository configures; never rejects. */
export async function takeWorld(cwd: string, options: WorldOptions = {}): Promise<World> {
	try {
		return await snapshot(cwd, options);
	} catch (error) {
		return skipped(`world failed: ${error instanceof Error ? error.message : String(error)}`);
	}
}

async function snapshot(cwd: string, options: WorldOptions): Promise<World> {
	const deadline = Date.now() + (options.totalMs ?? 8_000);
	const maxChars = options.maxOutputChars ?? 8_000;
	const git = (args: readonly string[], config: Config, limits: Partial<GitCall> = {}) =>
		runGit({
			cwd,
			args,
			env: options.env ?? process.env,
			config,
			timeoutMs: Math.max(1, Math.min(options.timeoutMs ?? 3_000, deadline - Date.now())),
			maxOutputChars: maxChars,
			...limits,
		});
	// Two rounds of git, all of the first at once: whether this is a work tree, the filter drivers, and what reads
	// no file through a filter (the branch; the log, whose first line is HEAD). Outside a work tree the branch and the
	// log fail, and are not read.
	const [directory, probe, filters, branch, log] = await Promise.all([
		isDirectory(cwd),
		git(["rev-parse", "--is-inside-work-tree"], []),
		git(["config", "-z", "--includes", "--get-regexp", FILTER_KEYS], [], {
			maxOutputChars: FILTER_LIST_CHARS,
			okExitCodes: [1],
		}),
		git(BRANCH, []),
		git(LOG, []),
	]);
	if (!directory) return skipped("no such directory");
	if (E.isLeft(probe)) return skipped(probe.left);
	if (probe.right.stdout.trim() !== "true") return skipped("not inside a work tree");
	const overrides = filterOverrides(filters);
	if (E.isLeft(overrides)) return skipped(overrides.left);
	// The second reads the work tree's files, with every filter driver emptied.
	const [status, diffStat] = await Promise.all([git(STATUS, overrides.right), git(DIFF_STAT, overrides.right)]);
	return pipe(
		sequenceS(E.Apply)({ branch, head: pipe(log, E.map(firstLine)), status, log, diffStat }),
		E.match(skipped, (out) => ({
			taken: true,
			branch: text(out.branch, maxChars) || "(detached)",
			head: text(out.head, maxChars) || "(no commits)",
			status: text(out.status, maxChars),
			log: text(out.log, maxChars),
			diffStat: text(out.diffStat, maxChars),
		})),
	);
}

/** Empties every configured clean/smudge/process driver, since git still runs them on files with stale stat data. */
function filterOverrides(listing: Either<string, GitOutput>): Either<string, Config> {
	if (E.isLeft(listing)) return listing;
	if (listing.right.cut) return E.left("too many filter drivers");
	const names = new Set(listing.right.stdout.split("\0").flatMap(filterName));
	return E.right(
		[...names].flatMap((name) => [
			[`filter.${name}.clean`, ""],
			[`filter.${name}.smudge`, ""],
			[`filter.${name}.process`, ""],
			[`filter.${name}.required`, "false"],
		]),
	);
}

// A `-z` record is `filter.<name>.<kind>`, then a newline and the value when there is one.
function filterName(record: string): string[] {
	const key = record.split("\n", 1)[0] ?? "";
	const last = key.lastIndexOf(".");
	return key.startsWith("filter.") && last >= "filter.".length ? [key.slice("filter.".length, last)] : [];
}

/** The first line of an output; an output cut before its first line ends stays cut. */
function firstLine(output: GitOutput): GitOutput {
	const end = output.stdout.indexOf("\n");
	return end < 0 ? output : { stdout: output.stdout.slice(0, end), cut: false };
}

function text(output: GitOutput, maxChars: number): string {
	const trimmed = output.stdout.trimEnd();
	return output.cut ? `${trimmed}\n[… cut at ${maxChars} chars]` : trimmed;
}

function skipped(reason: string): World {
	return { taken: false, reason };
}

async function isDirectory(path: string): Promise<boolean> {
	try {
		return (await stat(path)).isDirectory();
	} catch {
		return false;
	}
}

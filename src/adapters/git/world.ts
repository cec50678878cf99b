import { stat } from "node:fs/promises";
import { sequenceS } from "fp-ts/lib/Apply.js";
import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import type { World } from "../../events/index.js";
import { type GitBatch, type GitCommand, type GitOutput, runGits } from "./run-git.js";

type Config = GitBatch["config"];

/** Limits for one World snapshot; the environment is the one git would otherwise inherit. */
export interface WorldOptions {
	/** Time limit of each round of git commands (default 3000 ms). */
	readonly timeoutMs?: number;
	/** Time limit of the whole snapshot (default 8000 ms). */
	readonly totalMs?: number;
	/** Characters kept of each command's output before it is cut with a marker (default 8000). */
	readonly maxOutputChars?: number;
	readonly env?: NodeJS.ProcessEnv;
}

// The read-only commands; HEAD is named with --ignore-missing so a repository without commits still answers. The
// log's first line is HEAD's; the status's first line names the branch.
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

/**
 * Takes the World with five read-only git commands in two rounds, running nothing the repository configures; never
 * rejects.
 */
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
	const git = (config: Config, commands: readonly GitCommand[]) =>
		runGits({
			cwd,
			env: options.env ?? process.env,
			config,
			timeoutMs: Math.max(1, Math.min(options.timeoutMs ?? 3_000, deadline - Date.now())),
			commands,
		});
	const command = (args: readonly string[]): GitCommand => ({ args, maxOutputChars: maxChars });
	// Two rounds of git, the commands of each side by side: whether this is a work tree, the filter drivers, and the
	// log (whose first line is HEAD), which read no file through a filter; then the status (whose first line names the
	// branch) and the diff stat, which read the work tree's files with every filter driver emptied. The probe is what
	// tells a directory that is no work tree (a repository whose `core.worktree` points elsewhere would show the status
	// of that other directory). Each process started holds the thread while it forks, longer the more memory pi holds
	// (about 14 ms at 464 MB, docs/evaluation.md): one a round, where a shell can start the round's commands.
	const [directory, [probe, filters, log] = []] = await Promise.all([
		isDirectory(cwd),
		git(
			[],
			[
				command(["rev-parse", "--is-inside-work-tree"]),
				{
					args: ["config", "-z", "--includes", "--get-regexp", FILTER_KEYS],
					maxOutputChars: FILTER_LIST_CHARS,
					okExitCodes: [1],
				},
				command(LOG),
			],
		),
	]);
	if (!directory) return skipped("no such directory");
	if (probe === undefined || filters === undefined || log === undefined) return skipped("git gave no answer");
	if (E.isLeft(probe)) return skipped(probe.left);
	if (probe.right.stdout.trim() !== "true") return skipped("not inside a work tree");
	if (E.isLeft(log)) return skipped(log.left);
	const overrides = filterOverrides(filters);
	if (E.isLeft(overrides)) return skipped(overrides.left);
	const [status, diffStat] = await git(overrides.right, [command(STATUS), command(DIFF_STAT)]);
	if (status === undefined || diffStat === undefined) return skipped("git gave no answer");
	return pipe(
		sequenceS(E.Apply)({ status, diffStat }),
		E.match(skipped, (out) => ({
			taken: true,
			branch: text(branchLine(out.status), maxChars) || "(detached)",
			head: text(firstLine(log.right), maxChars) || "(no commits)",
			status: text(out.status, maxChars),
			log: text(log.right, maxChars),
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

// What `status --branch` says of HEAD on its first line (wt-status.c): `## HEAD (no branch)` when detached,
// `## No commits yet on <branch>` (`## Initial commit on <branch>` in older git) on an unborn branch, else
// `## <branch>`, then `...<upstream>` and ` [different]` or ` [gone]`. A branch name holds no blank and no `..`.
const DETACHED = "## HEAD (no branch)";
const UNBORN = /^## (?:No commits yet on |Initial commit on )?/;

/** The branch the status's first line names; empty when HEAD is detached. A line cut before its end stays cut. */
function branchLine(status: GitOutput): GitOutput {
	const line = firstLine(status);
	if (line.stdout === DETACHED || !line.stdout.startsWith("## ")) return { stdout: "", cut: false };
	const name = line.stdout.replace(UNBORN, "");
	const end = name.search(/\.\.\.| /);
	return end < 0 ? { stdout: name, cut: line.cut } : { stdout: name.slice(0, end), cut: false };
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

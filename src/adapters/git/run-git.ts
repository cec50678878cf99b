import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, existsSync, statSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";

/** Git commands run together: one directory, one environment, one set of config overrides and one time limit. */
export interface GitBatch {
	readonly cwd: string;
	/** The caller's environment; it is cleaned before git sees it. */
	readonly env: NodeJS.ProcessEnv;
	/** Config overrides given through `GIT_CONFIG_KEY_<n>`, which unlike `-c` take any subsection name. */
	readonly config: readonly (readonly [key: string, value: string])[];
	readonly timeoutMs: number;
	readonly commands: readonly GitCommand[];
}

/** One git command of a batch: the subcommand after the safe global flags, and the cap on what it prints. */
export interface GitCommand {
	/** The subcommand and its arguments, e.g. `["status", "--short"]`. */
	readonly args: readonly string[];
	readonly maxOutputChars: number;
	/** Exit codes besides 0 that still mean success (`git config --get-regexp` exits 1 on no match). */
	readonly okExitCodes?: readonly number[];
}

/** What git printed on stdout, cut to the cap, and whether it was cut. */
export interface GitOutput {
	readonly stdout: string;
	readonly cut: boolean;
}

/** Flags that switch off everything a repository's config could make git run, or write, or fetch. Exported for tests. */
export const SAFE_GIT_FLAGS: readonly string[] = [
	"--no-pager",
	"--no-optional-locks",
	...configFlags([
		["core.fsmonitor", "false"],
		["core.hooksPath", "/dev/null"],
		["core.pager", "cat"],
		["log.showSignature", "false"],
		["safe.bareRepository", "explicit"],
		["protocol.allow", "never"],
		["status.submoduleSummary", "false"],
		["color.ui", "false"],
		["color.status", "false"],
		["color.diff", "false"],
		["color.branch", "false"],
	]),
];

// Variables that would point git at another repository, index or config, or make it run a program.
const UNSAFE_ENV: readonly string[] = [
	"GIT_DIR",
	"GIT_WORK_TREE",
	"GIT_INDEX_FILE",
	"GIT_COMMON_DIR",
	"GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_NAMESPACE",
	"GIT_EXTERNAL_DIFF",
	"GIT_PAGER",
	"GIT_CONFIG",
	"GIT_CONFIG_PARAMETERS",
	"GIT_CONFIG_COUNT",
	"GIT_EXEC_PATH",
	"GIT_ASKPASS",
	"SSH_ASKPASS",
	"GIT_ALLOW_PROTOCOL",
	// What a shell reads at its start, where /bin/sh is bash: files to source, options (xtrace with a PS4 that runs a
	// command; monitor, which gives each job a process group of its own), and programs to ignore.
	"ENV",
	"BASH_ENV",
	"SHELLOPTS",
	"BASHOPTS",
	"PS4",
	"EXECIGNORE",
	"BASH_XTRACEFD",
];

// git's numbered config variables, and a function bash exports (`BASH_FUNC_git%%` would stand in for git itself).
const UNSAFE_ENV_PREFIX = /^(?:GIT_CONFIG_(?:KEY|VALUE)_|BASH_FUNC_)/;

const STDERR_CHARS = 2_000;
const REASON_CHARS = 200;

/**
 * Runs read-only git commands side by side, each with the safe flags, a clean env, the batch's time limit and its own
 * output cap, and answers in their order; never rejects. git is the first one found in an absolute directory of the
 * env's PATH: an empty or relative entry would find a `git` in the repository itself.
 * On Linux one shell starts up to three of them: a spawn holds this thread while the process forks, the longer the
 * more memory pi holds (docs/evaluation.md), and the small shell forks the gits at next to no cost. With no shell
 * (`null`: other systems, or no /bin/sh), each command is spawned alone. `reapMs` is for tests (stopGroup).
 */
export async function runGits(
	batch: GitBatch,
	shell: string | null = linuxShell(),
	reapMs = REAP_MS,
): Promise<Either<string, GitOutput>[]> {
	const git = gitProgram(batch.env);
	if (git === undefined) return batch.commands.map(() => E.left("git not found"));
	if (shell === null) {
		const each = batch.commands.map((command) => collect(batch, [command], spawnGit(git, batch, command), reapMs));
		return (await Promise.all(each)).flat();
	}
	const shells: Promise<Either<string, GitOutput>[]>[] = [];
	for (let i = 0; i < batch.commands.length; i += SHELL_COMMANDS) {
		const commands = batch.commands.slice(i, i + SHELL_COMMANDS);
		shells.push(collect(batch, commands, spawnShell(shell, git, batch, commands), reapMs));
	}
	return (await Promise.all(shells)).flat();
}

const POSIX_SHELL = "/bin/sh";

/** The shell that starts a batch: on Linux, where a spawn forks this process. */
function linuxShell(): string | null {
	return process.platform === "linux" && existsSync(POSIX_SHELL) ? POSIX_SHELL : null;
}

// A shell names the descriptors it redirects with one digit: 3 to 8 are three commands' stdout and stderr.
const SHELL_COMMANDS = 3;

/** The git program to run: by name on Windows, else the first executable `git` in an absolute PATH directory. */
function gitProgram(env: NodeJS.ProcessEnv): string | undefined {
	if (process.platform === "win32") return "git";
	for (const dir of (env.PATH ?? "").split(path.delimiter)) {
		if (!path.isAbsolute(dir)) continue;
		const file = path.join(dir, "git");
		try {
			accessSync(file, constants.X_OK);
			if (statSync(file).isFile()) return file;
		} catch {
			// Not there, or not a program this user may run: the next directory.
		}
	}
	return undefined;
}

/** Where one command's output and complaint arrive. */
interface Channel {
	readonly command: GitCommand;
	readonly out: Readable | null;
	readonly err: Readable | null;
}

/** How a process ended: its exit code, or the signal that stopped it. */
interface Closed {
	readonly code: number | null;
	readonly signal: string | null;
}

/** A started process, its commands' channels, and how each command's status is read once the process closes. */
interface Running {
	readonly child: ChildProcess;
	/** Whether the process is git itself, not a shell that starts it: what a failure to start it is called. */
	readonly gitItself: boolean;
	readonly channels: readonly Channel[];
	/** Each command's exit code (or signal) as far as the process has reported it, and once it closed (`closed`). */
	readonly statuses: (closed?: Closed) => readonly (number | string | null)[];
}

function spawnGit(git: string, batch: GitBatch, command: GitCommand): Either<string, Running> {
	return started(
		true,
		() => spawnIn(batch, git, [...SAFE_GIT_FLAGS, ...command.args], ["ignore", "pipe", "pipe"]),
		(child) => [{ command, out: child.stdout, err: child.stderr }],
		() => (closed) => [closed === undefined ? null : (closed.code ?? closed.signal)],
	);
}

/** Starts a program in the batch's directory and cleaned environment, in a process group of its own. */
function spawnIn(
	batch: GitBatch,
	program: string,
	args: readonly string[],
	stdio: readonly ("ignore" | "pipe")[],
): ChildProcess {
	return spawn(program, args, {
		cwd: batch.cwd,
		env: gitEnv(batch.env, batch.config),
		stdio: [...stdio],
		// detached: the program and anything it starts share a new process group, stopped whole when the call ends.
		detached: true,
		windowsHide: true,
	});
}

const outFd = (i: number) => 3 + 2 * i;
const errFd = (i: number) => 4 + 2 * i;

/**
 * One shell that starts each command in the background, its stdout and stderr on descriptors of their own, and prints
 * `<index> <exit code>` on its stdout as each ends. Each command holds only its own two pipes, and the shell none once
 * it has started them, so a pipe ends when its command does. The script holds only the program and the commands'
 * arguments, each quoted.
 */
function spawnShell(
	shell: string,
	git: string,
	batch: GitBatch,
	commands: readonly GitCommand[],
): Either<string, Running> {
	const fds = commands.flatMap((_, i) => [outFd(i), errFd(i)]);
	const closing = (which: (fd: number) => boolean) =>
		fds
			.filter(which)
			.map((fd) => ` ${fd}>&-`)
			.join("");
	const lines = commands.map((command, i) => {
		const words = [git, ...SAFE_GIT_FLAGS, ...command.args].map(quoted).join(" ");
		const own = (fd: number) => fd === outFd(i) || fd === errFd(i);
		// git alone takes SIGTERM as it comes; the shell and the subshell that reports it ignore it (stopGroup).
		const run = `(trap - TERM; exec ${words} >&${outFd(i)} 2>&${errFd(i)}${closing(own)})`;
		return `{ ${run}; echo "${i} $?"; }${closing((fd) => !own(fd))} &`;
	});
	const script = ["trap '' TERM", ...lines, `exec${closing(() => true)}`, "wait"].join("\n");
	return started(
		false,
		() => spawnIn(batch, shell, ["-c", script], ["ignore", "pipe", "ignore", ...fds.map(() => "pipe" as const)]),
		(child) => commands.map((command, i) => ({ command, out: stream(child, outFd(i)), err: stream(child, errFd(i)) })),
		(child) => {
			const report = readAll(child.stdout, REPORT_CHARS);
			return () => {
				const codes = new Map(report().split("\n").flatMap(reportLine));
				return commands.map((_, i) => codes.get(i) ?? null);
			};
		},
	);
}

const REPORT_CHARS = 200;

/** `<index> <exit code>`, as the shell prints it. */
function reportLine(line: string): [number, number][] {
	const m = /^([0-9]) ([0-9]{1,3})$/.exec(line);
	return m === null ? [] : [[Number(m[1]), Number(m[2])]];
}

function stream(child: ChildProcess, fd: number): Readable | null {
	const s = child.stdio[fd];
	return s instanceof Readable ? s : null;
}

/** What a stream carries, up to a cap, read as it arrives. */
function readAll(s: Readable | null, cap: number): () => string {
	let text = "";
	s?.setEncoding("utf8");
	s?.on("data", (chunk: string) => {
		if (text.length < cap) text += chunk;
	});
	return () => text;
}

/** The process `start` spawns, with its channels and statuses; the reason when it cannot be spawned at all. */
function started(
	gitItself: boolean,
	start: () => ChildProcess,
	channels: (child: ChildProcess) => Running["channels"],
	statuses: (child: ChildProcess) => Running["statuses"],
): Either<string, Running> {
	try {
		const child = start();
		return E.right({ child, gitItself, channels: channels(child), statuses: statuses(child) });
	} catch (error) {
		return E.left(startFailure(error, gitItself));
	}
}

/** One command's output so far, and whether it was cut at its cap. */
interface Collected {
	readonly command: GitCommand;
	/** The command's place in the process's report. */
	readonly index: number;
	stdout: string;
	cut: boolean;
	/** Whether its stdout has ended: no program holds the pipe any longer. */
	ended: boolean;
	readonly stderr: () => string;
}

/**
 * Reads each command's output until the process and every pipe close, or the time runs out; then answers for each
 * and stops what is left of the process group (stopGroup). A command that prints past its cap is cut there and its
 * pipes closed, which stops it. At the time limit, a command that has ended and been reported answers as it ended;
 * the rest time out.
 */
function collect(
	batch: GitBatch,
	commands: readonly GitCommand[],
	run: Either<string, Running>,
	reapMs: number,
): Promise<Either<string, GitOutput>[]> {
	if (E.isLeft(run)) return Promise.resolve(commands.map(() => run));
	const { child, gitItself, channels, statuses } = run.right;
	return new Promise((resolve) => {
		let settled = false;
		const settle = (answer: (c: Collected) => Either<string, GitOutput>): void => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			stopGroup(child, reapMs);
			// A grandchild may still hold the pipes; stop reading so it cannot hold this call.
			for (const s of child.stdio) s?.destroy();
			resolve(collected.map((c) => (c.cut ? E.right({ stdout: c.stdout, cut: true }) : answer(c))));
		};
		const timer = setTimeout(() => {
			const status = statuses();
			settle((c) => {
				const s = status[c.index] ?? null;
				return c.ended && s !== null
					? answered(c, s)
					: E.left(`git ${nameOf(c.command)} timed out after ${batch.timeoutMs} ms`);
			});
		}, batch.timeoutMs);
		const collected = channels.map(collecting);
		child.on("error", (error) => settle(() => E.left(startFailure(error, gitItself))));
		child.on("close", (code, signal) => {
			const status = statuses({ code, signal });
			settle((c) => answered(c, status[c.index] ?? null));
		});
	});
}

/** A command's answer from its exit status: its output, or why it failed. */
function answered(c: Collected, status: number | string | null): Either<string, GitOutput> {
	const ok = status === 0 || (c.command.okExitCodes ?? []).some((code) => code === status);
	return ok ? E.right({ stdout: c.stdout, cut: false }) : E.left(exitFailure(nameOf(c.command), status, c.stderr()));
}

/** Reads one command's output as it arrives; past the cap, cuts it there and closes its pipes. */
function collecting(channel: Channel, index: number): Collected {
	const { command } = channel;
	const c: Collected = {
		command,
		index,
		stdout: "",
		cut: false,
		ended: false,
		stderr: readAll(channel.err, STDERR_CHARS),
	};
	channel.out?.setEncoding("utf8");
	channel.out?.on("end", () => {
		c.ended = true;
	});
	channel.out?.on("data", (chunk: string) => {
		c.stdout += chunk;
		if (c.stdout.length <= command.maxOutputChars) return;
		c.stdout = cutAt(c.stdout, command.maxOutputChars);
		c.cut = true;
		channel.out?.destroy();
		channel.err?.destroy();
	});
	return c;
}

function nameOf(command: GitCommand): string {
	return command.args[0] ?? "git";
}

/**
 * The child's environment: the caller's, without what redirects or runs things, plus the safe settings.
 * Exported for tests.
 */
export function gitEnv(env: NodeJS.ProcessEnv, config: readonly (readonly [string, string])[]): Record<string, string> {
	const clean: Record<string, string> = {};
	for (const [key, value] of Object.entries(env)) {
		if (value === undefined || UNSAFE_ENV.includes(key) || UNSAFE_ENV_PREFIX.test(key)) continue;
		clean[key] = value;
	}
	// No transport at all: a repository's own `protocol.<name>.allow` outranks `protocol.allow=never`, and a git
	// older than GIT_NO_LAZY_FETCH would fetch a missing object of a partial clone through it (`ext::` runs a command).
	Object.assign(clean, {
		LC_ALL: "C",
		GIT_TERMINAL_PROMPT: "0",
		GIT_OPTIONAL_LOCKS: "0",
		GIT_NO_LAZY_FETCH: "1",
		GIT_ALLOW_PROTOCOL: "",
	});
	if (config.length > 0) clean.GIT_CONFIG_COUNT = String(config.length);
	config.forEach(([key, value], index) => {
		clean[`GIT_CONFIG_KEY_${index}`] = key;
		clean[`GIT_CONFIG_VALUE_${index}`] = value;
	});
	return clean;
}

function configFlags(pairs: readonly (readonly [string, string])[]): string[] {
	return pairs.flatMap(([key, value]) => ["-c", `${key}=${value}`]);
}

/** How long a process asked to stop is given to end, and its shell to reap its gits, before its group is killed. */
const REAP_MS = 1_000;

/**
 * Stops what is left of a process group. Where the process has exited (a shell has reaped its gits), what is left is
 * killed at once. Else its gits are asked to stop (SIGTERM; a shell ignores it), and once the process exits, or after
 * `reapMs`, the group is killed. A shell killed with its gits would leave them to PID 1, and where that is pi itself (a
 * container started without an init) nothing reaps them.
 */
function stopGroup(child: ChildProcess, reapMs: number): void {
	if (child.exitCode !== null || child.signalCode !== null) {
		signalGroup(child, "SIGKILL");
		return;
	}
	signalGroup(child, "SIGTERM");
	const kill = setTimeout(() => signalGroup(child, "SIGKILL"), reapMs);
	kill.unref();
	child.once("exit", () => {
		clearTimeout(kill);
		signalGroup(child, "SIGKILL");
	});
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// No group to signal (already gone, or a platform without groups): signal the child alone.
		child.kill(signal);
	}
}

function cutAt(text: string, max: number): string {
	const head = text.slice(0, max);
	// Do not leave half of a surrogate pair at the cut.
	return /[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head;
}

/** A word the shell takes as it is: single-quoted, a quote inside closed, escaped and reopened. */
function quoted(word: string): string {
	return `'${word.replaceAll("'", `'\\''`)}'`;
}

function startFailure(error: unknown, gitItself: boolean): string {
	const code = error instanceof Error && "code" in error ? error.code : undefined;
	if (code === "ENOENT" && gitItself) return "git not found";
	return `git failed to start: ${error instanceof Error ? error.message : String(error)}`.slice(0, REASON_CHARS);
}

function exitFailure(name: string, status: number | string | null, stderr: string): string {
	// The shell's own answers for a command it could not start: 127 not found, 126 found but not run.
	if (status === 127) return "git not found";
	if (status === 126) return `git failed to start: ${stderr.trim()}`.slice(0, REASON_CHARS);
	if (/not a git repository/i.test(stderr)) return "not a git repository";
	const line = (stderr.split("\n").find((l) => l.trim() !== "") ?? "").replace(/^(fatal|error): /, "").trim();
	const reason = `git ${name} exited ${status ?? "?"}${line === "" ? "" : `: ${line}`}`;
	return reason.slice(0, REASON_CHARS);
}

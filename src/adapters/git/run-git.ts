import { type ChildProcess, spawn } from "node:child_process";
import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";

/** One git call: the command after the safe global flags, and the limits it runs under. */
export interface GitCall {
	readonly cwd: string;
	/** The subcommand and its arguments, e.g. `["status", "--short"]`. */
	readonly args: readonly string[];
	/** The caller's environment; it is cleaned before git sees it. */
	readonly env: NodeJS.ProcessEnv;
	/** Config overrides given through `GIT_CONFIG_KEY_<n>`, which unlike `-c` take any subsection name. */
	readonly config: readonly (readonly [key: string, value: string])[];
	readonly timeoutMs: number;
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
];

const STDERR_CHARS = 2_000;
const REASON_CHARS = 200;

/** Runs one read-only git command with the safe flags, a clean env, a time limit and an output cap; never rejects. */
export function runGit(call: GitCall): Promise<Either<string, GitOutput>> {
	return new Promise((resolve) => {
		const name = call.args[0] ?? "git";
		let child: ChildProcess;
		try {
			// detached: git and anything it starts share a new process group, killed whole on time-out.
			child = spawn("git", [...SAFE_GIT_FLAGS, ...call.args], {
				cwd: call.cwd,
				env: gitEnv(call.env, call.config),
				stdio: ["ignore", "pipe", "pipe"],
				detached: true,
				windowsHide: true,
			});
		} catch (error) {
			resolve(E.left(startFailure(error)));
			return;
		}
		let stdout = "";
		let stderr = "";
		let settled = false;
		const settle = (result: Either<string, GitOutput>, kill: boolean): void => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			if (kill) killGroup(child);
			// A grandchild may still hold the pipes; stop reading so it cannot hold this call.
			child.stdout?.destroy();
			child.stderr?.destroy();
			resolve(result);
		};
		const timer = setTimeout(
			() => settle(E.left(`git ${name} timed out after ${call.timeoutMs} ms`), true),
			call.timeoutMs,
		);
		child.stdout?.setEncoding("utf8");
		child.stderr?.setEncoding("utf8");
		child.stdout?.on("data", (chunk: string) => {
			stdout += chunk;
			if (stdout.length > call.maxOutputChars) {
				settle(E.right({ stdout: cutAt(stdout, call.maxOutputChars), cut: true }), true);
			}
		});
		child.stderr?.on("data", (chunk: string) => {
			if (stderr.length < STDERR_CHARS) stderr += chunk;
		});
		child.on("error", (error) => settle(E.left(startFailure(error)), true));
		child.on("close", (code, signal) => {
			const ok = code === 0 || (code !== null && (call.okExitCodes ?? []).includes(code));
			settle(ok ? E.right({ stdout, cut: false }) : E.left(exitFailure(name, code ?? signal, stderr)), false);
		});
	});
}

/**
 * The child's environment: the caller's, without what redirects or runs things, plus the safe settings.
 * Exported for tests.
 */
export function gitEnv(env: NodeJS.ProcessEnv, config: readonly (readonly [string, string])[]): Record<string, string> {
	const clean: Record<string, string> = {};
	for (const [key, value] of Object.entries(env)) {
		if (value === undefined || UNSAFE_ENV.includes(key) || /^GIT_CONFIG_(KEY|VALUE)_/.test(key)) continue;
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

function killGroup(child: ChildProcess): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, "SIGKILL");
	} catch {
		// No group to signal (already gone, or a platform without groups): kill the child alone.
		child.kill("SIGKILL");
	}
}

function cutAt(text: string, max: number): string {
	const head = text.slice(0, max);
	// Do not leave half of a surrogate pair at the cut.
	return /[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head;
}

function startFailure(error: unknown): string {
	const code = error instanceof Error && "code" in error ? error.code : undefined;
	if (code === "ENOENT") return "git not found";
	return `git failed to start: ${error instanceof Error ? error.message : String(error)}`.slice(0, REASON_CHARS);
}

function exitFailure(name: string, status: number | string | null, stderr: string): string {
	if (/not a git repository/i.test(stderr)) return "not a git repository";
	const line = (stderr.split("\n").find((l) => l.trim() !== "") ?? "").replace(/^(fatal|error): /, "").trim();
	const reason = `git ${name} exited ${status ?? "?"}${line === "" ? "" : `: ${line}`}`;
	return reason.slice(0, REASON_CHARS);
}

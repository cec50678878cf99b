import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import {
	type GitBatch,
	type GitCommand,
	type GitOutput,
	gitEnv,
	runGits,
} from "../../../../src/adapters/git/run-git.js";

/** One command and the batch it runs in. */
type GitCall = Omit<GitBatch, "commands"> & GitCommand;

const root = mkdtempSync(path.join(tmpdir(), "longhaul-run-git-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A directory holding a fake `git` script, to make git behave in ways a real repository could. */
function fakeGit(name: string, body: string): string {
	const bin = path.join(root, name);
	mkdirSync(bin);
	const script = path.join(bin, "git");
	writeFileSync(script, `#!/bin/sh\n${body}\n`);
	chmodSync(script, 0o755);
	return bin;
}

function call(bin: string, overrides: Partial<GitCall> = {}): GitCall {
	return {
		cwd: root,
		args: ["status"],
		env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` },
		config: [],
		timeoutMs: 3_000,
		maxOutputChars: 8_000,
		...overrides,
	};
}

function isGone(pid: number): boolean {
	try {
		// A zombie is dead too; it only waits to be reaped by whoever adopted it.
		return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z") ?? true;
	} catch {
		return true;
	}
}

async function waitGone(pid: number): Promise<boolean> {
	for (let i = 0; i < 100 && !isGone(pid); i++) await new Promise((r) => setTimeout(r, 50));
	return isGone(pid);
}

/** One command run as a batch of one, started as `shell` says. */
async function one(shell: string | null, c: GitCall): Promise<Either<string, GitOutput>> {
	const [result] = await runGits({ ...c, commands: [c] }, shell);
	return result ?? E.left("no answer");
}

const LAUNCHERS: readonly [string, string | null][] = [
	["one shell a batch", "/bin/sh"],
	["one spawn a command", null],
];

describe.each(LAUNCHERS)("runGits, %s", (_, shell) => {
	/** A name for this launcher's own fake git, pid file or directory. */
	const own = (name: string) => `${name}-${shell ?? "none"}`.replaceAll("/", "-");
	/** The commands run as one batch in `bin`'s fake git, started as this launcher starts them. */
	const batchOf = (bin: string, commands: readonly GitCommand[], overrides: Partial<GitCall> = {}) =>
		runGits({ ...call(bin, overrides), commands }, shell);
	it("puts the safe flags before the command and never trusts every directory", async () => {
		const bin = fakeGit(own("args"), 'for a in "$@"; do echo "$a"; done');
		const result = await one(shell, call(bin, { args: ["status", "--short"] }));
		const args = E.isRight(result) ? result.right.stdout.split("\n") : [];
		expect(args).toEqual(expect.arrayContaining(["--no-pager", "--no-optional-locks", "core.fsmonitor=false"]));
		expect(args).toEqual(expect.arrayContaining(["core.hooksPath=/dev/null", "log.showSignature=false"]));
		expect(args).toEqual(expect.arrayContaining(["safe.bareRepository=explicit", "protocol.allow=never"]));
		expect(args.slice(-3, -1)).toEqual(["status", "--short"]);
		expect(args.some((a) => a.startsWith("safe.directory"))).toBe(false);
	});

	it("hands git each argument as it stands, whatever a shell would make of it", async () => {
		const bin = fakeGit(own("verbatim"), 'printf "%s\\0" "$@"');
		const odd = ["it's", '"$HOME"', "$(touch x)", "`id`", "a b\tc", "one\ntwo", "\\", "*", ";", "&", "-", ""];
		const result = await one(shell, call(bin, { args: ["log", ...odd] }));
		const args = E.isRight(result) ? result.right.stdout.split("\0") : [];
		expect(args.slice(-odd.length - 2, -1)).toEqual(["log", ...odd]);
	});

	it("names the command, its exit code and git's complaint when git fails", async () => {
		const bin = fakeGit(own("fails"), 'echo "fatal: something broke" >&2; exit 128');
		expect(await one(shell, call(bin))).toEqual(E.left("git status exited 128: something broke"));
	});

	it("says git is not found when there is no git on the path", async () => {
		const empty = path.join(root, own("empty-bin"));
		mkdirSync(empty);
		expect(await one(shell, call(empty, { env: { PATH: empty } }))).toEqual(E.left("git not found"));
	});

	it("says git could not start when an argument cannot be handed to a program", async () => {
		const bin = fakeGit(own("nul"), "echo started");
		const results = await batchOf(bin, [
			{ args: ["log", "a\0b"], maxOutputChars: 100 },
			{ args: ["status"], maxOutputChars: 100 },
		]);
		expect(results[0]).toEqual(E.left(expect.stringMatching(/^git failed to start: .*null bytes/)));
		expect(results).toHaveLength(2);
	});

	it("keeps output of exactly the cap whole, not cut", async () => {
		const bin = fakeGit(own("at-cap"), "printf 0123456789");
		expect(await one(shell, call(bin, { maxOutputChars: 10 }))).toEqual(E.right({ stdout: "0123456789", cut: false }));
		expect(await one(shell, call(bin, { maxOutputChars: 9 }))).toEqual(E.right({ stdout: "012345678", cut: true }));
	});

	it("cuts endless output at the cap and stops the writer", async () => {
		const bin = fakeGit(own("endless"), "while :; do echo 0123456789; done");
		const result = await one(shell, call(bin, { maxOutputChars: 1_000 }));
		expect(E.isRight(result) && result.right.cut).toBe(true);
		expect(E.isRight(result) ? result.right.stdout.length : -1).toBe(1_000);
	});

	it("kills git and its grandchildren on time-out when git hangs", async () => {
		const pidFile = path.join(root, `${own("hang")}.pid`);
		const bin = fakeGit(own("hangs"), `sleep 30 &\necho $! > "${pidFile}"\nwait`);
		const started = Date.now();
		const result = await one(shell, call(bin, { timeoutMs: 300 }));
		expect(result).toEqual(E.left("git status timed out after 300 ms"));
		// A bound on a hang, not a benchmark: the sleeper would have held the call for 30 s.
		expect(Date.now() - started).toBeLessThan(15_000);
		expect(await waitGone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
	});

	it("does not wait for a grandchild that keeps the output pipe open after git exits", async () => {
		const pidFile = path.join(root, `${own("linger")}.pid`);
		const bin = fakeGit(own("lingers"), `sleep 30 &\necho $! > "${pidFile}"\nexit 0`);
		const started = Date.now();
		const result = await one(shell, call(bin, { timeoutMs: 300 }));
		expect(E.isLeft(result) ? result.left : "").toMatch(/timed out/);
		expect(Date.now() - started).toBeLessThan(15_000);
		expect(await waitGone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
	});

	it("never runs a git the path finds in the repository through an empty or relative entry", async () => {
		const repo = path.join(root, own("repo-with-git"));
		mkdirSync(repo);
		const marker = path.join(repo, "ran");
		writeFileSync(path.join(repo, "git"), `#!/bin/sh\n: > "${marker}"\necho planted\n`);
		chmodSync(path.join(repo, "git"), 0o755);
		const real = fakeGit(own("real"), "echo installed");
		// A relative entry that leads to a planted git from this process's directory, as pi's often is the repository.
		const planted = path.relative(process.cwd(), repo);
		for (const PATH of [`:${real}`, `.:${real}`, `${real}:`, `git-bin:${real}`, `${planted}:${real}`]) {
			const result = await one(shell, call(real, { cwd: repo, env: { PATH } }));
			expect(result).toEqual(E.right({ stdout: "installed\n", cut: false }));
		}
		expect(await one(shell, call(real, { cwd: repo, env: { PATH: ":." } }))).toEqual(E.left("git not found"));
		expect(existsSync(marker)).toBe(false);
	});

	it("passes over a git on the path that is no program it may run: a directory, a file without the right to run it", async () => {
		const folder = path.join(root, own("git-is-a-folder"));
		mkdirSync(path.join(folder, "git"), { recursive: true });
		const unrunnable = fakeGit(own("git-not-runnable"), "echo unrunnable");
		chmodSync(path.join(unrunnable, "git"), 0o644);
		const real = fakeGit(own("real-after"), "echo installed");
		const result = await one(shell, call(real, { env: { PATH: `${folder}:${unrunnable}:${real}` } }));
		expect(result).toEqual(E.right({ stdout: "installed\n", cut: false }));
	});

	it("keeps each command's output to itself, whatever a command writes to the others' descriptors", async () => {
		const bin = fakeGit(
			own("descriptors"),
			'for fd in 3 4 5 6 7 8; do eval "echo injected >&$fd" 2>/dev/null; done; for last; do :; done; echo "$last"',
		);
		const names = ["one", "two", "three"];
		const results = await batchOf(
			bin,
			names.map((name) => ({ args: ["status", name], maxOutputChars: 100 })),
		);
		expect(results).toEqual(names.map((name) => E.right({ stdout: `${name}\n`, cut: false })));
	});

	it("at the time limit, answers the commands that ended and times out the one still running", async () => {
		const bin = fakeGit(
			own("one-hangs"),
			[
				'for last; do :; done; if [ "$last" = hang ]; then exec sleep 30; fi',
				'if [ "$last" = failed ]; then echo "fatal: it failed" >&2; exit 3; fi; echo "$last"',
			].join("\n"),
		);
		const results = await batchOf(
			bin,
			[
				{ args: ["status", "done"], maxOutputChars: 100 },
				{ args: ["log", "hang"], maxOutputChars: 100 },
				{ args: ["diff", "failed"], maxOutputChars: 100 },
			],
			{ timeoutMs: 500 },
		);
		expect(results).toEqual([
			E.right({ stdout: "done\n", cut: false }),
			E.left("git log timed out after 500 ms"),
			E.left("git diff exited 3: it failed"),
		]);
	});

	it("asks a git still running at the time limit to stop, and the process that started it outlives it to reap it", async () => {
		// A shell killed with its gits would leave them to PID 1, which reaps nothing where pi is PID 1 in a container.
		// git reads its parent as the request comes and a moment after: a parent that died with it is PID 1 by then.
		const mark = path.join(root, `${own("asked")}.mark`);
		const parent = `cut -d" " -f4 /proc/$$/stat`;
		const trap = `p=$(${parent}); sleep 0.2; echo "$p $(${parent})" > "${mark}"; exit 143`;
		const bin = fakeGit(own("asked"), `trap '${trap}' TERM\nsleep 30 &\nwait`);
		expect(await one(shell, call(bin, { timeoutMs: 300 }))).toEqual(E.left("git status timed out after 300 ms"));
		for (let i = 0; i < 100 && !existsSync(mark); i++) await new Promise((r) => setTimeout(r, 50));
		const [asked, after] = readFileSync(mark, "utf8").trim().split(" ");
		expect(asked).not.toBe("1");
		expect(after).toBe(asked);
	});

	it("kills a git that will not stop when asked, once it has had its time", async () => {
		const pidFile = path.join(root, `${own("deaf")}.pid`);
		const bin = fakeGit(own("deaf"), `echo $$ > "${pidFile}"\ntrap '' TERM\nsleep 30`);
		const [result] = await runGits({ ...call(bin, { timeoutMs: 300 }), commands: [call(bin)] }, shell, 200);
		expect(result).toEqual(E.left("git status timed out after 300 ms"));
		expect(await waitGone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
	});

	it("kills what a stopped git left running as soon as its process has exited, not a grace later", async () => {
		// A grace of a minute: only the kill at the exit can end the sleeper within waitGone's few seconds.
		const pidFile = path.join(root, `${own("orphan")}.pid`);
		const bin = fakeGit(own("orphans"), `(trap '' TERM; exec sleep 30) &\necho $! > "${pidFile}"\nwait`);
		const [result] = await runGits({ ...call(bin, { timeoutMs: 300 }), commands: [call(bin)] }, shell, 60_000);
		expect(result).toEqual(E.left("git status timed out after 300 ms"));
		expect(await waitGone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
	});

	it("kills what lingers after git has exited at once, not a grace later", async () => {
		// Nothing is left to reap it: a grace of a minute would only leave it running. It would not stop if asked.
		const pidFile = path.join(root, `${own("lingerer")}.pid`);
		const bin = fakeGit(own("lingerer"), `(trap '' TERM; exec sleep 30) &\necho $! > "${pidFile}"\nexit 0`);
		const [result] = await runGits({ ...call(bin, { timeoutMs: 300 }), commands: [call(bin)] }, shell, 60_000);
		expect(result).toEqual(E.left("git status timed out after 300 ms"));
		expect(await waitGone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
	});

	it("kills what git left running once it has answered", async () => {
		const pidFile = path.join(root, `${own("left")}.pid`);
		const bin = fakeGit(own("leaves"), `sleep 30 > /dev/null 2>&1 &\necho $! > "${pidFile}"\necho answered`);
		expect(await one(shell, call(bin))).toEqual(E.right({ stdout: "answered\n", cut: false }));
		expect(await waitGone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
	});

	it("answers each command of a batch, in order, with its own output, exit code and complaint", async () => {
		const bin = fakeGit(
			own("batch"),
			[
				'for last; do :; done; case "$last" in',
				"one) echo out-one; echo err-one >&2; exit 0;;",
				'two) echo out-two; echo "fatal: two broke" >&2; exit 3;;',
				"three) echo out-three; exit 1;;",
				"esac",
			].join("\n"),
		);
		const results = await batchOf(bin, [
			{ args: ["status", "one"], maxOutputChars: 100 },
			{ args: ["log", "two"], maxOutputChars: 100, okExitCodes: [1] },
			{ args: ["config", "three"], maxOutputChars: 100, okExitCodes: [1] },
			{ args: ["diff", "one"], maxOutputChars: 4 },
		]);
		expect(results).toEqual([
			E.right({ stdout: "out-one\n", cut: false }),
			E.left("git log exited 3: two broke"),
			E.right({ stdout: "out-three\n", cut: false }),
			E.right({ stdout: "out-", cut: true }),
		]);
	});

	it("cuts one command of a batch at its cap and still answers the others", async () => {
		const bin = fakeGit(
			own("cut-one"),
			'for last; do :; done; if [ "$last" = endless ]; then while :; do echo 0123456789; done; fi; echo "$last"',
		);
		const results = await batchOf(bin, [
			{ args: ["status", "endless"], maxOutputChars: 1_000 },
			{ args: ["log", "done"], maxOutputChars: 1_000 },
		]);
		expect(results).toEqual([
			E.right({ stdout: "0123456789\n".repeat(91).slice(0, 1_000), cut: true }),
			E.right({ stdout: "done\n", cut: false }),
		]);
	});
});

describe("runGits, the processes it starts", () => {
	/** Each command's parent and grandparent process, as `<parent> <grandparent>`. */
	const lineage = async (shell?: string | null): Promise<string[]> => {
		const bin = fakeGit(
			`lineage-${shell === undefined ? "default" : (shell ?? "none")}`.replaceAll("/", "-"),
			'echo "$PPID $(cut -d" " -f4 /proc/$PPID/stat)"',
		);
		const command = { args: ["status"], maxOutputChars: 100 };
		const batch = { ...call(bin), commands: [command, command, command, command] };
		const results = await (shell === undefined ? runGits(batch) : runGits(batch, shell));
		return results.map((r) => (E.isRight(r) ? r.right.stdout.trim() : "failed"));
	};
	const self = String(process.pid);
	/** The shell each command was started from: its parent's parent (each runs in a subshell of the shell). */
	const shellOf = (line: string | undefined) => line?.split(" ")[1] ?? "";

	it("starts up to three commands from one shell, so this process forks once for them", async () => {
		const lines = await lineage("/bin/sh");
		expect(lines).toEqual(Array(4).fill(expect.stringMatching(/^[0-9]+ [0-9]+$/)));
		const [a, b, c, d] = lines.map(shellOf);
		expect(new Set([a, b, c]).size).toBe(1);
		expect(a).not.toBe(self);
		// A fourth command goes to a second shell: a shell names its descriptors with one digit.
		expect(d).not.toBe(a);
		expect(d).not.toBe(self);
	});

	it("starts them from a shell by default on Linux", async () => {
		const lines = await lineage();
		expect(lines).toEqual(Array(4).fill(expect.stringMatching(/^[0-9]+ [0-9]+$/)));
		expect(lines.map((line) => line.split(" ")[0])).not.toContain(self);
		expect(shellOf(lines[0])).toBe(shellOf(lines[1]));
		expect(shellOf(lines[0])).not.toBe(self);
	});

	it("spawns each command from this process where there is no shell", async () => {
		expect((await lineage(null)).map((line) => line.split(" ")[0])).toEqual(Array(4).fill(self));
	});

	it("answers every command, and hangs on nothing, when the shell itself cannot be started", async () => {
		const bin = fakeGit("no-shell", "echo never");
		const command = { args: ["status"], maxOutputChars: 100 };
		const results = await runGits({ ...call(bin), commands: [command, command] }, path.join(root, "no-such-sh"));
		const failed = E.left(expect.stringMatching(/^git failed to start: spawn .*no-such-sh ENOENT$/));
		expect(results).toEqual([failed, failed]);
	});

	it("says git could not start when the shell finds a git it cannot run", async () => {
		const bin = path.join(root, "bad-format");
		mkdirSync(bin);
		writeFileSync(path.join(bin, "git"), "\0\u0001\u0002 not a program");
		chmodSync(path.join(bin, "git"), 0o755);
		const result = await one("/bin/sh", call(bin, { env: { PATH: bin } }));
		expect(result).toEqual(E.left(expect.stringMatching(/^git failed to start: .*Exec format error$/)));
	});
});

describe("gitEnv", () => {
	const hostile = {
		PATH: "/usr/bin",
		HOME: "/home/someone",
		GIT_DIR: "/elsewhere/.git",
		GIT_WORK_TREE: "/elsewhere",
		GIT_INDEX_FILE: "/elsewhere/index",
		GIT_EXTERNAL_DIFF: "/bin/evil",
		GIT_PAGER: "/bin/evil",
		GIT_CONFIG: "/dev/null",
		GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='/bin/evil'",
		GIT_CONFIG_COUNT: "2",
		GIT_CONFIG_KEY_0: "core.fsmonitor",
		GIT_CONFIG_VALUE_0: "/bin/evil",
		GIT_CONFIG_KEY_1: "diff.external",
		GIT_CONFIG_VALUE_1: "/bin/evil",
		GIT_EXEC_PATH: "/elsewhere/libexec",
		GIT_ASKPASS: "/bin/evil",
		SSH_ASKPASS: "/bin/evil",
		GIT_ALLOW_PROTOCOL: "ext:file",
		ENV: "/home/someone/.shinit",
		BASH_ENV: "/home/someone/.bashenv",
		LC_ALL: "de_DE.UTF-8",
		MY_GIT_CONFIG_KEY_0: "not git's",
		SHELLOPTS: "xtrace:monitor",
		BASHOPTS: "extdebug",
		PS4: "$(touch /tmp/owned)",
		EXECIGNORE: "/usr/bin/git",
		BASH_XTRACEFD: "1",
		"BASH_FUNC_git%%": "() { echo not git; }",
		UNSET: undefined,
	};

	it("drops what points git elsewhere or runs a program, and keeps the rest", () => {
		const env = gitEnv(hostile, []);
		expect(Object.keys(env).sort()).toEqual(
			[
				"PATH",
				"HOME",
				"LC_ALL",
				"MY_GIT_CONFIG_KEY_0",
				"GIT_TERMINAL_PROMPT",
				"GIT_OPTIONAL_LOCKS",
				"GIT_NO_LAZY_FETCH",
				"GIT_ALLOW_PROTOCOL",
			].sort(),
		);
		expect(env).toMatchObject({
			PATH: "/usr/bin",
			HOME: "/home/someone",
			LC_ALL: "C",
			GIT_TERMINAL_PROMPT: "0",
			GIT_OPTIONAL_LOCKS: "0",
			GIT_NO_LAZY_FETCH: "1",
			GIT_ALLOW_PROTOCOL: "",
		});
	});

	it("passes config overrides as numbered variables, which take any subsection name", () => {
		const env = gitEnv(hostile, [
			["filter.odd=name.clean", ""],
			["filter.odd=name.required", "false"],
		]);
		expect(env).toMatchObject({
			GIT_CONFIG_COUNT: "2",
			GIT_CONFIG_KEY_0: "filter.odd=name.clean",
			GIT_CONFIG_VALUE_0: "",
			GIT_CONFIG_KEY_1: "filter.odd=name.required",
			GIT_CONFIG_VALUE_1: "false",
		});
	});
});

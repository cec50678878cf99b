import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import { type GitCall, gitEnv, runGit } from "../../../../src/adapters/git/run-git.js";

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

describe("runGit", () => {
	it("puts the safe flags before the command and never trusts every directory", async () => {
		const bin = fakeGit("args", 'for a in "$@"; do echo "$a"; done');
		const result = await runGit(call(bin, { args: ["status", "--short"] }));
		const args = E.isRight(result) ? result.right.stdout.split("\n") : [];
		expect(args).toEqual(expect.arrayContaining(["--no-pager", "--no-optional-locks", "core.fsmonitor=false"]));
		expect(args).toEqual(expect.arrayContaining(["core.hooksPath=/dev/null", "log.showSignature=false"]));
		expect(args).toEqual(expect.arrayContaining(["safe.bareRepository=explicit", "protocol.allow=never"]));
		expect(args.slice(-3, -1)).toEqual(["status", "--short"]);
		expect(args.some((a) => a.startsWith("safe.directory"))).toBe(false);
	});

	it("names the command, its exit code and git's complaint when git fails", async () => {
		const bin = fakeGit("fails", 'echo "fatal: something broke" >&2; exit 128');
		expect(await runGit(call(bin))).toEqual(E.left("git status exited 128: something broke"));
	});

	it("says git is not found when there is no git on the path", async () => {
		const empty = path.join(root, "empty-bin");
		mkdirSync(empty);
		expect(await runGit(call(empty, { env: { PATH: empty } }))).toEqual(E.left("git not found"));
	});

	it("cuts endless output at the cap and stops the writer", async () => {
		const bin = fakeGit("endless", "while :; do echo 0123456789; done");
		const result = await runGit(call(bin, { maxOutputChars: 1_000 }));
		expect(E.isRight(result) && result.right.cut).toBe(true);
		expect(E.isRight(result) ? result.right.stdout.length : -1).toBe(1_000);
	});

	it("kills git and its grandchildren on time-out when git hangs", async () => {
		const pidFile = path.join(root, "hang.pid");
		const bin = fakeGit("hangs", `sleep 30 &\necho $! > "${pidFile}"\nwait`);
		const started = Date.now();
		const result = await runGit(call(bin, { timeoutMs: 300 }));
		expect(result).toEqual(E.left("git status timed out after 300 ms"));
		// A bound on a hang, not a benchmark: the sleeper would have held the call for 30 s.
		expect(Date.now() - started).toBeLessThan(15_000);
		expect(await waitGone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
	});

	it("does not wait for a grandchild that keeps the output pipe open after git exits", async () => {
		const pidFile = path.join(root, "linger.pid");
		const bin = fakeGit("lingers", `sleep 30 &\necho $! > "${pidFile}"\nexit 0`);
		const started = Date.now();
		const result = await runGit(call(bin, { timeoutMs: 300 }));
		expect(E.isLeft(result) ? result.left : "").toMatch(/timed out/);
		expect(Date.now() - started).toBeLessThan(15_000);
		expect(await waitGone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
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
		LC_ALL: "de_DE.UTF-8",
	};

	it("drops what points git elsewhere or runs a program, and keeps the rest", () => {
		const env = gitEnv(hostile, []);
		expect(Object.keys(env).sort()).toEqual(
			[
				"PATH",
				"HOME",
				"LC_ALL",
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

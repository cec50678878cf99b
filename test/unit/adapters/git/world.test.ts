import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gitEnv, SAFE_GIT_FLAGS } from "../../../../src/adapters/git/run-git.js";
import { takeWorld } from "../../../../src/adapters/git/world.js";
import { gitSandbox } from "../../../support/git-repos.js";

const sandbox = gitSandbox("longhaul-world-");
afterAll(() => sandbox.remove());
const { root, env: baseEnv, freshDir, git, initRepo, commitFile, script, hostileRepo } = sandbox;

/** Runs plain git the way a user would, ignoring its exit code: only the markers it leaves matter. */
function plainGit(repo: string, args: string[]): void {
	try {
		execFileSync("git", args, { cwd: repo, env: baseEnv, stdio: "ignore" });
	} catch {
		// A trap script may make the command fail; it has still run.
	}
}

describe("takeWorld", () => {
	it("takes branch, HEAD, status, log and diff stat in a repository with a modified file", async () => {
		const repo = initRepo(freshDir("normal"));
		commitFile(repo, "notes.txt", "first\n", "Add the first notes");
		writeFileSync(path.join(repo, "notes.txt"), "first\nsecond\n");
		const world = await takeWorld(repo, { env: baseEnv });
		expect(world).toMatchObject({ taken: true, branch: "main" });
		if (!world.taken) return;
		expect(world.head).toMatch(/^[0-9a-f]{7,} Add the first notes$/);
		expect(world.status).toContain(" M notes.txt");
		expect(world.log).toContain("Add the first notes");
		expect(world.diffStat).toContain("notes.txt");
	});

	it("answers in a repository without commits", async () => {
		const repo = initRepo(freshDir("unborn"));
		writeFileSync(path.join(repo, "new.txt"), "new\n");
		const world = await takeWorld(repo, { env: baseEnv });
		expect(world).toMatchObject({ taken: true, branch: "main", head: "(no commits)", log: "" });
		expect(world.taken && world.status).toContain("?? new.txt");
	});

	it("takes HEAD as the newest commit alone, the log's first line", async () => {
		const repo = initRepo(freshDir("two-commits"));
		commitFile(repo, "a.txt", "a\n", "The older commit");
		commitFile(repo, "a.txt", "b\n", "The newer commit");
		const world = await takeWorld(repo, { env: baseEnv });
		expect(world.taken).toBe(true);
		if (!world.taken) return;
		expect(world.head).toMatch(/^[0-9a-f]{7,} The newer commit$/);
		expect(world.log.split("\n")).toEqual([world.head, expect.stringMatching(/^[0-9a-f]{7,} The older commit$/)]);
	});

	it("cuts a HEAD whose subject runs past the output cap, and says so", async () => {
		const repo = initRepo(freshDir("long-subject"));
		commitFile(repo, "a.txt", "a\n", "Older");
		commitFile(repo, "a.txt", "b\n", `Long ${"x".repeat(300)}`);
		const world = await takeWorld(repo, { env: baseEnv, maxOutputChars: 100 });
		expect(world.taken).toBe(true);
		if (!world.taken) return;
		expect(world.head).toMatch(/^[0-9a-f]{7,} Long x+\n\[… cut at 100 chars\]$/);
		expect(world.head).toBe(world.log);
	});

	describe("names the branch from the status's first line", () => {
		it("a branch whose name holds a slash, dots and a dash, as it stands", async () => {
			const repo = initRepo(freshDir("slashed"));
			commitFile(repo, "a.txt", "a\n", "Start");
			git(repo, "checkout", "-q", "-b", "feature/v1.2-fix");
			expect(await takeWorld(repo, { env: baseEnv })).toMatchObject({ taken: true, branch: "feature/v1.2-fix" });
		});

		it("a branch with an upstream it has moved away from, without the upstream", async () => {
			const origin = initRepo(freshDir("origin"));
			commitFile(origin, "a.txt", "a\n", "Start");
			const clone = path.join(path.dirname(origin), "clone");
			git(path.dirname(origin), "clone", "-q", origin, clone);
			commitFile(clone, "a.txt", "b\n", "Local");
			const world = await takeWorld(clone, { env: baseEnv });
			expect(world).toMatchObject({ taken: true, branch: "main" });
			expect(world.taken && world.status.split("\n")[0]).toBe("## main...origin/main [different]");
		});

		it("(detached) when HEAD names a commit, not a branch", async () => {
			const repo = initRepo(freshDir("detached"));
			commitFile(repo, "a.txt", "a\n", "Start");
			commitFile(repo, "a.txt", "b\n", "Next");
			git(repo, "checkout", "-q", "--detach", "HEAD~1");
			expect(await takeWorld(repo, { env: baseEnv })).toMatchObject({
				taken: true,
				branch: "(detached)",
				head: expect.stringMatching(/^[0-9a-f]{7,} Start$/),
			});
		});

		it("cut, and says so, when the status's first line runs past the output cap", async () => {
			const repo = initRepo(freshDir("long-branch"));
			commitFile(repo, "a.txt", "a\n", "Start");
			git(repo, "checkout", "-q", "-b", `b/${"x".repeat(150)}`);
			const world = await takeWorld(repo, { env: baseEnv, maxOutputChars: 100 });
			// The first 100 characters: `## `, then 97 of the name.
			expect(world).toMatchObject({ taken: true, branch: `b/${"x".repeat(95)}\n[… cut at 100 chars]` });
		});
	});

	it("is skipped with a reason outside a repository", async () => {
		const dir = freshDir("plain");
		expect(await takeWorld(dir, { env: { ...baseEnv, GIT_CEILING_DIRECTORIES: path.dirname(dir) } })).toEqual({
			taken: false,
			reason: "not a git repository",
		});
	});

	it("is skipped with a reason when the directory does not exist", async () => {
		expect(await takeWorld(path.join(root, "missing"), { env: baseEnv })).toEqual({
			taken: false,
			reason: "no such directory",
		});
	});

	it("is skipped with a reason when git is missing", async () => {
		const repo = initRepo(freshDir("no-git"));
		const empty = freshDir("empty-bin");
		expect(await takeWorld(repo, { env: { ...baseEnv, PATH: empty } })).toEqual({
			taken: false,
			reason: "git not found",
		});
	});

	describe("in a hostile repository", () => {
		const traps = ["fsmonitor", "clean", "clean-odd-name", "process-filter", "post-index-change"];

		it("the traps go off under plain git (so the test below can fail)", () => {
			const { repo, markers } = hostileRepo();
			plainGit(repo, ["status"]);
			// A process filter that breaks the protocol makes git die; once shown, disarm it so the rest can run.
			git(repo, "config", "--unset", "filter.proc.process");
			plainGit(repo, ["status"]);
			plainGit(repo, ["log", "-1"]);
			plainGit(repo, ["diff"]);
			plainGit(repo, ["diff", "--no-ext-diff"]);
			// A pager starts only on a terminal: give git one.
			execFileSync("script", ["-qec", "git log -1", "/dev/null"], { cwd: repo, env: baseEnv, stdio: "ignore" });
			expect(readdirSync(markers).sort()).toEqual([...traps, "gpg", "external-diff", "textconv", "pager"].sort());
		});

		it("runs none of them, even with an environment that tries to help them", async () => {
			const { repo, markers } = hostileRepo();
			const evil = path.join(path.dirname(markers), "bin", "external-diff");
			const world = await takeWorld(repo, {
				env: {
					...baseEnv,
					GIT_CONFIG: "/dev/null",
					GIT_EXTERNAL_DIFF: evil,
					GIT_PAGER: evil,
					GIT_CONFIG_PARAMETERS: `'core.fsmonitor'='${evil}'`,
				},
			});
			expect(readdirSync(markers)).toEqual([]);
			expect(world).toMatchObject({ taken: true, branch: "main" });
			if (!world.taken) return;
			expect(world.log).toContain("Signed subject");
			expect(world.status).toContain("pic.conv");
			expect(world.diffStat).toContain("pic.conv");
			expect(Object.values(world).some((v) => typeof v === "string" && v.includes("\x1b"))).toBe(false);
		});
	});

	describe("in a partial clone whose promisor remote runs a command", () => {
		// A missing object makes git fetch it from the promisor remote; `ext::` runs a command, and the repository's own
		// `protocol.ext.allow=always` outranks `protocol.allow=never`. GIT_NO_LAZY_FETCH stops it only in a git that
		// knows the variable (2.39.4, 2.45.1 and later): the proofs run with it off, as an older git would.
		function lazyRepo(): { repo: string; marker: string } {
			const dir = freshDir("lazy");
			const repo = initRepo(path.join(dir, "repo"));
			const marker = path.join(dir, "fetched");
			commitFile(repo, "a.txt", "a\n", "One");
			commitFile(repo, "a.txt", "b\n", "Two");
			commitFile(repo, "a.txt", "c\n", "Three");
			const parent = git(repo, "rev-parse", "HEAD~1").trim();
			rmSync(path.join(repo, ".git", "objects", parent.slice(0, 2), parent.slice(2)));
			git(repo, "config", "core.repositoryformatversion", "1");
			git(repo, "config", "extensions.partialClone", "origin");
			git(repo, "config", "remote.origin.url", `ext::sh -c touch% ${marker}`);
			git(repo, "config", "remote.origin.promisor", "true");
			git(repo, "config", "protocol.ext.allow", "always");
			return { repo, marker };
		}
		const LOG = ["log", "-5", "--format=%h %s"];
		const olderGit = (env: NodeJS.ProcessEnv) => ({ ...env, GIT_NO_LAZY_FETCH: "0" });

		it("the fetch runs the remote's command under plain git with the safe flags (so the tests below can fail)", () => {
			const { repo, marker } = lazyRepo();
			try {
				execFileSync("git", [...SAFE_GIT_FLAGS, ...LOG], { cwd: repo, env: olderGit(baseEnv), stdio: "ignore" });
			} catch {
				// The fetch fails once the command has run.
			}
			expect(existsSync(marker)).toBe(true);
		});

		it("runs no transport at all in the environment git is given, even where git ignores GIT_NO_LAZY_FETCH", () => {
			const { repo, marker } = lazyRepo();
			try {
				execFileSync("git", [...SAFE_GIT_FLAGS, ...LOG], {
					cwd: repo,
					env: olderGit(gitEnv(baseEnv, [])),
					stdio: "ignore",
				});
			} catch {
				// git fails on the missing object, having fetched nothing.
			}
			expect(existsSync(marker)).toBe(false);
		});

		it("takes no World there, and fetches nothing", async () => {
			const { repo, marker } = lazyRepo();
			const world = await takeWorld(repo, { env: baseEnv });
			expect(existsSync(marker)).toBe(false);
			expect(world).toMatchObject({ taken: false });
		});
	});

	describe("in a repository that makes git hang", () => {
		it("does not run a fsmonitor that sleeps for 30 s", async () => {
			const proof = slowFsmonitorRepo();
			expect(await startsFsmonitor(proof.repo, proof.marker)).toBe(true);
			const { repo, marker } = slowFsmonitorRepo();
			const started = Date.now();
			const world = await takeWorld(repo, { env: baseEnv, timeoutMs: 1_000 });
			// A bound on a hang, not a benchmark: the sleeper alone would have taken 30 s.
			expect(Date.now() - started).toBeLessThan(15_000);
			expect(existsSync(marker)).toBe(false);
			expect(world.taken).toBe(true);
		});

		it("gives up after the time limit when reading the config blocks", async () => {
			const repo = initRepo(freshDir("fifo"));
			const fifo = path.join(repo, "..", "config-fifo");
			execFileSync("mkfifo", [fifo]);
			git(repo, "config", "include.path", fifo);
			const started = Date.now();
			const world = await takeWorld(repo, { env: baseEnv, timeoutMs: 500 });
			expect(Date.now() - started).toBeLessThan(15_000);
			expect(world).toEqual({ taken: false, reason: "git rev-parse timed out after 500 ms" });
		});
	});

	describe("in odd repository layouts", () => {
		it("refuses a bare repository it was not pointed at explicitly", async () => {
			const bare = freshDir("bare");
			git(bare, "init", "-q", "--bare");
			const world = await takeWorld(bare, { env: baseEnv });
			expect(world.taken).toBe(false);
			expect(!world.taken && world.reason).toMatch(/bare repository/);
		});

		it("takes a linked worktree, whose .git is a file", async () => {
			const repo = initRepo(freshDir("main-tree"));
			commitFile(repo, "a.txt", "a\n", "Start");
			const linked = path.join(path.dirname(repo), "linked-tree");
			git(repo, "worktree", "add", "-q", "-b", "side", linked);
			expect(await takeWorld(linked, { env: baseEnv })).toMatchObject({ taken: true, branch: "side" });
		});

		it("takes a repository whose .git file points to a git directory elsewhere", async () => {
			const dir = freshDir("separate");
			const work = path.join(dir, "work");
			mkdirSync(work);
			git(work, "-c", "init.defaultBranch=main", "init", "-q", "--separate-git-dir", path.join(dir, "elsewhere.git"));
			commitFile(work, "a.txt", "a\n", "Separate start");
			expect(await takeWorld(work, { env: baseEnv })).toMatchObject({
				taken: true,
				head: expect.stringContaining("Separate start"),
			});
		});

		it("is skipped, showing nothing of the other directory, where core.worktree points away from this one", async () => {
			const other = freshDir("elsewhere");
			writeFileSync(path.join(other, "private-notes.txt"), "x\n");
			const repo = initRepo(freshDir("worktree-elsewhere"));
			git(repo, "config", "core.worktree", other);
			expect(await takeWorld(repo, { env: baseEnv })).toEqual({ taken: false, reason: "not inside a work tree" });
		});

		it("takes a HEAD that names a ref outside refs/heads, the branch as the status names it", async () => {
			const repo = initRepo(freshDir("head-on-tag"));
			commitFile(repo, "a.txt", "a\n", "Tagged");
			git(repo, "tag", "v1");
			git(repo, "symbolic-ref", "HEAD", "refs/tags/v1");
			expect(await takeWorld(repo, { env: baseEnv })).toMatchObject({ taken: true, branch: "refs/tags/v1" });
		});

		it("is skipped with a reason when the .git file points nowhere", async () => {
			const dir = freshDir("dangling");
			writeFileSync(path.join(dir, ".git"), `gitdir: ${path.join(dir, "gone")}\n`);
			const world = await takeWorld(dir, { env: baseEnv });
			expect(world.taken).toBe(false);
			expect(!world.taken && world.reason).not.toBe("");
		});

		it("is skipped inside the .git directory, which git takes for a bare repository", async () => {
			const repo = initRepo(freshDir("inside-git"));
			const world = await takeWorld(path.join(repo, ".git"), { env: baseEnv });
			expect(world.taken).toBe(false);
			expect(!world.taken && world.reason).toMatch(/bare repository/);
		});
	});

	it("is skipped when the filter drivers are too many to list whole: a driver missed would be a driver run", async () => {
		const repo = initRepo(freshDir("many-filters"));
		commitFile(repo, "a.txt", "a\n", "Start");
		// 3,000 drivers of about 80 characters each in the listing: past the 200,000 characters it reads.
		const drivers = Array.from(
			{ length: 3_000 },
			(_, i) => `[filter "driver-${String(i).padStart(5, "0")}-${"n".repeat(40)}"]\n\tclean = false-cleaner-${i}\n`,
		);
		appendFileSync(path.join(repo, ".git", "config"), drivers.join(""));
		expect(await takeWorld(repo, { env: baseEnv })).toEqual({ taken: false, reason: "too many filter drivers" });
	});

	it("cuts each field at the output cap and says so", async () => {
		const repo = initRepo(freshDir("many-files"));
		commitFile(repo, "a.txt", "a\n", "Start");
		for (let i = 0; i < 3_000; i++) writeFileSync(path.join(repo, `untracked-${i}.txt`), "");
		const cap = 2_000;
		const world = await takeWorld(repo, { env: baseEnv, maxOutputChars: cap });
		expect(world.taken).toBe(true);
		if (!world.taken) return;
		expect(world.status).toMatch(/cut at 2000 chars\]$/);
		for (const field of [world.branch, world.head, world.status, world.log, world.diffStat]) {
			expect(field.length).toBeLessThanOrEqual(cap + 40);
		}
	});
});

function slowFsmonitorRepo(): { repo: string; marker: string } {
	const base = freshDir("slow");
	const repo = initRepo(path.join(base, "repo"));
	commitFile(repo, "a.txt", "a\n", "Start");
	const marker = path.join(base, "fsmonitor-started");
	git(repo, "config", "core.fsmonitor", script(path.join(base, "fsmonitor"), `: > "${marker}"\nexec sleep 30`));
	return { repo, marker };
}

/** Starts plain `git status` and reports whether it called the fsmonitor, then kills git and the sleeper. */
async function startsFsmonitor(repo: string, marker: string): Promise<boolean> {
	const child = spawn("git", ["status"], { cwd: repo, env: baseEnv, stdio: "ignore", detached: true });
	try {
		for (let i = 0; i < 200 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 25));
		return existsSync(marker);
	} finally {
		try {
			if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
		} catch {
			// git already finished: nothing left to stop.
		}
	}
}

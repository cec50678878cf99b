import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { takeWorld } from "../../src/adapters/git/world.js";
import { foldEntries } from "../../src/reducers/index.js";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { gitSandbox } from "../support/git-repos.js";
import { compactAfterRule, longhaulSession, tick } from "../support/longhaul-session.js";

const sandbox = gitSandbox("longhaul-hostile-repo-");
afterAll(() => sandbox.remove());
const { env, freshDir, git, initRepo, commitFile, hostileRepo } = sandbox;

/** Tight limits, so that a repository that makes git wait is given up on quickly. */
const limits = { env, timeoutMs: 1_000, totalMs: 3_000 };

const kept = disposedAfterEach();

describe("repository attacks: takeWorld runs nothing a repository configures and always answers", () => {
	it("the hostile repository, inside a real pi session: the compaction takes the World and springs no trap", async () => {
		const { repo, markers } = hostileRepo();
		const h = await longhaulSession({
			cwd: repo,
			env: { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_CEILING_DIRECTORIES: sandbox.root },
		});
		kept(h);
		await compactAfterRule(h);
		await tick();
		expect(readdirSync(markers)).toEqual([]);
		const { world } = foldEntries(h.branch()).state;
		expect(world).toMatchObject({ taken: true, branch: "main" });
		expect(world?.taken === true ? world.log : "").toContain("Signed subject");
	});

	it("a .git file that points into the hostile repository's git dir: its config runs nothing here either", async () => {
		const { repo, markers } = hostileRepo();
		const innocent = freshDir("innocent");
		writeFileSync(path.join(innocent, ".git"), `gitdir: ${path.join(repo, ".git")}\n`);
		writeFileSync(path.join(innocent, "data.txt"), "changed\n");
		const world = await takeWorld(innocent, limits);
		expect(readdirSync(markers)).toEqual([]);
		expect(world).toMatchObject({ taken: true, branch: "main" });
	});

	it("a .git that is a FIFO, or a symlink to an endless device: a reason, not a hang", async () => {
		const fifo = freshDir("fifo-git");
		execFileSync("mkfifo", [path.join(fifo, ".git")]);
		const zero = freshDir("zero-git");
		symlinkSync("/dev/zero", path.join(zero, ".git"));
		for (const dir of [fifo, zero])
			expect(await takeWorld(dir, limits)).toEqual({ taken: false, reason: "not a git repository" });
	}, 10_000);

	it("a huge untracked tree (20,000 files, and nested folders): a snapshot cut at the output cap", async () => {
		const repo = initRepo(freshDir("huge"));
		commitFile(repo, "a.txt", "a\n", "Start");
		for (let f = 0; f < 20_000; f++) writeFileSync(path.join(repo, `untracked-${f}.txt`), "");
		for (let d = 0; d < 100; d++) {
			const folder = path.join(repo, `d${d}`, "deeper");
			mkdirSync(folder, { recursive: true });
			writeFileSync(path.join(folder, "f.txt"), "");
		}
		const world = await takeWorld(repo, { env, maxOutputChars: 4_000 });
		expect(world.taken).toBe(true);
		if (!world.taken) return;
		expect(world.status).toMatch(/cut at 4000 chars\]$/);
		expect(world.status.length).toBeLessThanOrEqual(4_000 + 40);
	}, 30_000);

	it("a bare repository armed with traps: refused with a reason, nothing run", async () => {
		const base = freshDir("bare-trap");
		const bare = path.join(base, "bare.git");
		mkdirSync(bare);
		git(bare, "init", "-q", "--bare");
		const marker = path.join(base, "ran");
		const trap = sandbox.script(path.join(base, "trap"), `: > "${marker}"`);
		for (const key of ["core.fsmonitor", "core.pager", "gpg.program", "diff.external"]) git(bare, "config", key, trap);
		const world = await takeWorld(bare, limits);
		expect(world).toMatchObject({ taken: false, reason: expect.stringMatching(/bare repository/) });
		expect(readdirSync(base)).toEqual(["bare.git", "trap"]);
	});

	it("a bare repository planted inside a checkout (the embedded-bare attack): refused, nothing run", async () => {
		const outer = initRepo(freshDir("outer"));
		commitFile(outer, "readme.txt", "hello\n", "Outer");
		const planted = path.join(outer, "vendor", "planted");
		mkdirSync(planted, { recursive: true });
		git(planted, "init", "-q", "--bare");
		const marker = path.join(outer, "..", "planted-ran");
		const trap = sandbox.script(path.join(outer, "..", "planted-trap"), `: > "${marker}"`);
		git(planted, "config", "core.fsmonitor", trap);
		const world = await takeWorld(planted, limits);
		expect(world).toMatchObject({ taken: false, reason: expect.stringMatching(/bare repository/) });
		expect(readdirSync(path.dirname(outer))).not.toContain("planted-ran");
	});
});

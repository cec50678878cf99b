import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { takeWorld } from "../../../../src/adapters/git/world.js";

const root = mkdtempSync(path.join(tmpdir(), "longhaul-world-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// No inherited GIT_* variable and no user or system config: each test sees only the repository it builds.
const baseEnv: NodeJS.ProcessEnv = {
	...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("GIT_"))),
	GIT_CONFIG_GLOBAL: "/dev/null",
	GIT_CONFIG_NOSYSTEM: "1",
	GIT_CEILING_DIRECTORIES: root,
};

let dirs = 0;
function freshDir(name: string): string {
	const dir = path.join(root, `${name}-${++dirs}`);
	mkdirSync(dir, { recursive: true });
	return dir;
}

function git(cwd: string, ...args: string[]): string {
	return execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], {
		cwd,
		env: baseEnv,
		encoding: "utf8",
	});
}

function initRepo(dir: string): string {
	mkdirSync(dir, { recursive: true });
	git(dir, "-c", "init.defaultBranch=main", "init", "-q");
	return dir;
}

function commitFile(repo: string, file: string, content: string, subject: string): void {
	writeFileSync(path.join(repo, file), content);
	git(repo, "add", "--", file);
	git(repo, "commit", "-q", "-m", subject);
}

function script(file: string, body: string): string {
	writeFileSync(file, `#!/bin/sh\n${body}\n`);
	chmodSync(file, 0o755);
	return file;
}

const longAgo = new Date("2001-01-01T00:00:00Z");

interface Hostile {
	readonly repo: string;
	readonly markers: string;
}

/** A repository whose config, attributes and hooks each run a script that leaves a marker file behind. */
function hostileRepo(): Hostile {
	const base = freshDir("hostile");
	const bin = path.join(base, "bin");
	const markers = path.join(base, "markers");
	const hooks = path.join(base, "hooks");
	const repo = initRepo(path.join(base, "repo"));
	for (const dir of [bin, markers, hooks]) mkdirSync(dir);
	const trap = (name: string, then = "exit 0") => script(path.join(bin, name), `: > "${markers}/${name}"\n${then}`);
	commitFile(repo, "data.txt", "data\n", "data");
	commitFile(repo, "odd.txt", "odd\n", "odd");
	commitFile(repo, "proc.dat", "proc\n", "proc");
	commitFile(repo, "pic.conv", "picture\n", "picture");
	commitFile(
		repo,
		".gitattributes",
		"data.txt filter=evil\nodd.txt filter=odd=name\nproc.dat filter=proc\n*.conv diff=conv\n",
		"attributes",
	);
	signedCommit(repo, "Signed subject");
	const config: [string, string][] = [
		["core.fsmonitor", trap("fsmonitor")],
		["diff.external", trap("external-diff")],
		["diff.conv.textconv", trap("textconv", 'cat "$1"')],
		["filter.evil.clean", trap("clean", "cat")],
		["filter.evil.required", "true"],
		["filter.odd=name.clean", trap("clean-odd-name", "cat")],
		["filter.proc.process", trap("process-filter", "exit 1")],
		["log.showSignature", "true"],
		["gpg.program", trap("gpg", "exit 1")],
		["core.pager", trap("pager", "cat")],
		["core.hooksPath", hooks],
		["color.ui", "always"],
		["color.status", "always"],
		["color.diff", "always"],
	];
	for (const [key, value] of config) git(repo, "config", key, value);
	script(path.join(hooks, "post-index-change"), `: > "${markers}/post-index-change"`);
	script(path.join(repo, ".git", "hooks", "post-index-change"), `: > "${markers}/default-hooks"`);
	writeFileSync(path.join(repo, "pic.conv"), "another picture\n");
	// Stale stat data, as after unpacking an archive: git must hash these files again, through their filters.
	for (const file of ["data.txt", "odd.txt", "proc.dat"]) utimesSync(path.join(repo, file), longAgo, longAgo);
	return { repo, markers };
}

/** Writes a commit carrying a (fake) PGP signature, so that showing signatures would call gpg.program. */
function signedCommit(repo: string, subject: string): void {
	const tree = git(repo, "rev-parse", "HEAD^{tree}").trim();
	const parent = git(repo, "rev-parse", "HEAD").trim();
	const who = "Test <test@example.com> 1700000000 +0000";
	const signature = [
		"-----BEGIN PGP SIGNATURE-----",
		"",
		"iQEzBAABCAAdFiEEfakefakefake",
		"-----END PGP SIGNATURE-----",
	];
	const body = `tree ${tree}\nparent ${parent}\nauthor ${who}\ncommitter ${who}\ngpgsig ${signature.join("\n ")}\n\n${subject}\n`;
	const id = execFileSync("git", ["hash-object", "-t", "commit", "-w", "--stdin"], {
		cwd: repo,
		env: baseEnv,
		input: body,
		encoding: "utf8",
	}).trim();
	git(repo, "update-ref", "HEAD", id);
}

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
		expect(world).toMatchObject({ taken: true, branch: "main", log: "" });
		expect(world.taken && world.status).toContain("?? new.txt");
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

import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A repository whose config, attributes and hooks each run a script that leaves a marker in `markers`. */
export interface HostileRepo {
	readonly repo: string;
	readonly markers: string;
}

/** Temp repositories for git tests, each under one root, seen by git with no user or system config. */
export interface GitSandbox {
	readonly root: string;
	/** The environment without inherited `GIT_*` variables and without user or system config. */
	readonly env: NodeJS.ProcessEnv;
	/** A new empty directory under the root. */
	freshDir(name: string): string;
	/** Runs git in `cwd` with a test identity; returns its stdout. */
	git(cwd: string, ...args: string[]): string;
	/** `git init` (branch main) in `dir`, made if missing. */
	initRepo(dir: string): string;
	/** Writes `file` and commits it with `subject`. */
	commitFile(repo: string, file: string, content: string, subject: string): void;
	/** An executable `#!/bin/sh` script. */
	script(file: string, body: string): string;
	/** A repository armed with every trap git 2.39 is known to spring (fsmonitor, filters, hooks, gpg, pager, …). */
	hostileRepo(): HostileRepo;
	/** Removes the root and everything under it. */
	remove(): void;
}

const longAgo = new Date("2001-01-01T00:00:00Z");

/** Makes a sandbox under a fresh temp dir; call `remove` when done. */
export function gitSandbox(prefix = "longhaul-git-"): GitSandbox {
	const root = mkdtempSync(path.join(tmpdir(), prefix));
	// No inherited GIT_* variable and no user or system config: each test sees only the repository it builds.
	const env: NodeJS.ProcessEnv = {
		...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("GIT_"))),
		GIT_CONFIG_GLOBAL: "/dev/null",
		GIT_CONFIG_NOSYSTEM: "1",
		GIT_CEILING_DIRECTORIES: root,
	};
	let dirs = 0;
	const freshDir = (name: string): string => {
		const dir = path.join(root, `${name}-${++dirs}`);
		mkdirSync(dir, { recursive: true });
		return dir;
	};
	const git = (cwd: string, ...args: string[]): string =>
		execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], {
			cwd,
			env,
			encoding: "utf8",
		});
	const initRepo = (dir: string): string => {
		mkdirSync(dir, { recursive: true });
		git(dir, "-c", "init.defaultBranch=main", "init", "-q");
		return dir;
	};
	const commitFile = (repo: string, file: string, content: string, subject: string): void => {
		writeFileSync(path.join(repo, file), content);
		git(repo, "add", "--", file);
		git(repo, "commit", "-q", "-m", subject);
	};
	const script = (file: string, body: string): string => {
		writeFileSync(file, `#!/bin/sh\n${body}\n`);
		chmodSync(file, 0o755);
		return file;
	};

	/** Writes a commit carrying a (fake) PGP signature, so that showing signatures would call gpg.program. */
	const signedCommit = (repo: string, subject: string): void => {
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
			env,
			input: body,
			encoding: "utf8",
		}).trim();
		git(repo, "update-ref", "HEAD", id);
	};

	const hostileRepo = (): HostileRepo => {
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
	};

	return {
		root,
		env,
		freshDir,
		git,
		initRepo,
		commitFile,
		script,
		hostileRepo,
		remove: () => rmSync(root, { recursive: true, force: true }),
	};
}

import { spawnSync } from "node:child_process";
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compactWithInstalled, type InstalledRun } from "../support/installed-session.js";
import { repoRoot } from "../support/shared.js";

// The three ways a pi user installs Longhaul, each with only what `npm install --omit=dev` brings: pi's own install
// code (`pi install`, pi's CLI from node_modules, run by node as pi runs it) from a git URL and from a local path,
// and the `npm pack` tarball installed as pi's npm route installs (`npm install -g`, here with a temp prefix).
// Each copy is then loaded by a pi session from the agent dir's settings, and compacts with Longhaul. The project
// is this working tree as it is (tracked and untracked files, not what .gitignore leaves out). npm reaches the
// registry only for what its cache lacks (--prefer-offline).

const PI_CLI = join(repoRoot, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "cli.js");
const HOST = "example.test";
const RULE = "Never commit generated files to this repository.";
/** npm installs on a shared machine: a generous bound for a hang, not a speed target. */
const INSTALL_TIMEOUT = 600_000;

interface Ran {
	readonly code: number | null;
	readonly stdout: string;
	readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd: string, env: Readonly<Record<string, string>> = {}): Ran {
	const result = spawnSync(command, args, { cwd, env: { ...process.env, ...env }, encoding: "utf8" });
	return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function ok(ran: Ran): Ran {
	if (ran.code !== 0) throw new Error(`exit ${ran.code}\n${ran.stdout}\n${ran.stderr}`);
	return ran;
}

/** npm as quiet and as offline as it goes: its cache first, no audit, no fund, no update check. */
const NPM_ENV = {
	npm_config_prefer_offline: "true",
	npm_config_audit: "false",
	npm_config_fund: "false",
	npm_config_update_notifier: "false",
};

interface Staged {
	readonly temp: string;
	/** A git repository holding the working tree's files, committed. */
	readonly repo: string;
	/** Git's settings for every git pi runs: `https://example.test/` is the temp dir's bare repositories. */
	readonly gitEnv: Readonly<Record<string, string>>;
}

/** The working tree's files (tracked and untracked, none .gitignore leaves out) as a fresh committed repository. */
function stage(): Staged {
	const temp = mkdtempSync(join(tmpdir(), "longhaul-install-"));
	const repo = join(temp, "stage", "longhaul");
	const files = ok(run("git", ["ls-files", "-co", "--exclude-standard", "-z"], repoRoot)).stdout.split("\0");
	for (const file of files.filter((f) => f !== "" && existsSync(join(repoRoot, f)))) {
		mkdirSync(dirname(join(repo, file)), { recursive: true });
		cpSync(join(repoRoot, file), join(repo, file));
	}
	const gitconfig = join(temp, "gitconfig");
	writeFileSync(gitconfig, `[url "file://${join(temp, "bare")}/"]\n\tinsteadOf = https://${HOST}/\n`);
	const gitEnv = { GIT_CONFIG_GLOBAL: gitconfig, GIT_CONFIG_NOSYSTEM: "1" };
	const git = (args: string[], cwd = repo) => ok(run("git", args, cwd, gitEnv));
	git(["init", "-q"]);
	git(["add", "-A"]);
	git(["-c", "user.name=t", "-c", "user.email=t@example.test", "-c", "core.hooksPath=/dev/null", "commit", "-qm", "s"]);
	git(["clone", "-q", "--bare", repo, join(temp, "bare", "owner", "longhaul")], temp);
	return { temp, repo, gitEnv };
}

function pi(args: readonly string[], agentDir: string, staged: Staged): Ran {
	return run(process.execPath, [PI_CLI, ...args], staged.temp, {
		...NPM_ENV,
		...staged.gitEnv,
		PI_CODING_AGENT_DIR: agentDir,
	});
}

const packages = (agentDir: string): unknown =>
	JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")).packages;

/** What only `npm install --omit=dev` brings: the runtime dependencies, no TypeScript, no second pi. */
function expectRuntimeOnly(packageDir: string): void {
	const modules = join(packageDir, "node_modules");
	expect(existsSync(join(modules, "fp-ts"))).toBe(true);
	expect(existsSync(join(modules, "typescript"))).toBe(false);
	expect(existsSync(join(modules, "@mariozechner"))).toBe(false);
}

/** pi loaded exactly this copy's extension, with no error, and Longhaul made the compaction with the user's rule. */
function expectLonghaulCompacted(result: InstalledRun, packageDir: string): void {
	expect(result.errors).toEqual([]);
	expect(result.extensions).toEqual([join(packageDir, "src", "extension.ts")]);
	expect(result.compaction?.details).toMatchObject({ stateFormat: 1, longhaul: true, span: 1 });
	expect(result.compaction?.summary).toContain(RULE);
}

const longhaulState = (bin: readonly string[], file: string) =>
	run(bin[0] ?? "", [...bin.slice(1), "state", file, "--json"], tmpdir());

describe("installed as pi users install it", () => {
	let staged: Staged;
	beforeAll(() => {
		staged = stage();
	}, INSTALL_TIMEOUT);

	it("pi install git:…: pi clones it (a bare repository behind url.insteadOf), npm builds nothing, and pi's session compacts with it", {
		timeout: INSTALL_TIMEOUT,
	}, async () => {
		const agentDir = join(staged.temp, "agent-git");
		const installed = pi(["install", `git:${HOST}/owner/longhaul`], agentDir, staged);
		expect(installed.code).toBe(0);
		expect(installed.stdout + installed.stderr).toContain("no dev dependencies here, nothing to build");
		const copy = join(agentDir, "git", HOST, "owner", "longhaul");
		expect(packages(agentDir)).toEqual([`git:${HOST}/owner/longhaul`]);
		expectRuntimeOnly(copy);
		expect(existsSync(join(copy, "dist"))).toBe(false);

		const result = await compactWithInstalled(agentDir, mkdtempSync(join(staged.temp, "cwd-")));
		expectLonghaulCompacted(result, copy);
		// A git copy has no build: its launcher says so in one line (the README sends CLI users to a clone or npm).
		const state = longhaulState([process.execPath, join(copy, "bin", "longhaul.js")], result.sessionFile);
		expect(state.code).toBe(2);
		expect(state.stderr).toMatch(/^longhaul: this copy has no build \(dist\/\)[^\n]*\n$/);
	});

	it("pi install <path>: a clone with npm install --omit=dev is loaded from where it is", {
		timeout: INSTALL_TIMEOUT,
	}, async () => {
		const clone = join(staged.temp, "clone", "longhaul");
		ok(run("git", ["clone", "-q", staged.repo, clone], staged.temp, staged.gitEnv));
		ok(run("npm", ["install", "--omit=dev"], clone, NPM_ENV));
		expectRuntimeOnly(clone);
		const agentDir = join(staged.temp, "agent-path");
		ok(pi(["install", clone], agentDir, staged));
		expect(packages(agentDir)).toHaveLength(1);

		const result = await compactWithInstalled(agentDir, mkdtempSync(join(staged.temp, "cwd-")));
		expectLonghaulCompacted(result, clone);
	});

	it("npm pack, then npm install -g as pi's npm route does: the tarball carries its build, and longhaul state runs", {
		timeout: INSTALL_TIMEOUT,
	}, async () => {
		// The tarball is packed from the staged tree with this checkout's dev dependencies, so `prepare` can build;
		// this checkout's dist/ goes along, and prepare rebuilds only when it is not a build of these sources.
		symlinkSync(join(repoRoot, "node_modules"), join(staged.repo, "node_modules"));
		if (existsSync(join(repoRoot, "dist")))
			cpSync(join(repoRoot, "dist"), join(staged.repo, "dist"), { recursive: true });
		ok(run("npm", ["pack", "--pack-destination", staged.temp], staged.repo, NPM_ENV));
		const tarball = readdirSync(staged.temp).find((name) => /^longhaul-.*\.tgz$/.test(name));
		expect(tarball).toBeDefined();
		const listed = ok(run("tar", ["-tzf", join(staged.temp, tarball ?? "")], staged.temp)).stdout.split("\n");
		expect(listed).toEqual(
			expect.arrayContaining([
				"package/bin/longhaul.js",
				"package/scripts/build.js",
				"package/src/extension.ts",
				"package/dist/src/adapters/cli/main.js",
				"package/test/fixtures/demo/demo.jsonl",
			]),
		);
		expect(listed.filter((path) => path.startsWith("package/test/") && !path.endsWith("demo.jsonl"))).toEqual([]);

		const prefix = join(staged.temp, "npm-prefix");
		const npmEnv = { ...NPM_ENV, npm_config_prefix: prefix };
		ok(run("npm", ["install", "-g", join(staged.temp, tarball ?? "")], staged.temp, npmEnv));
		const copy = join(prefix, "lib", "node_modules", "longhaul");
		expectRuntimeOnly(copy);
		const agentDir = join(staged.temp, "agent-npm");
		mkdirSync(agentDir);
		writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ packages: ["npm:longhaul"] }));

		const result = await compactWithInstalled(agentDir, mkdtempSync(join(staged.temp, "cwd-")), npmEnv);
		expectLonghaulCompacted(result, copy);
		// npm linked the command; state and facts need no pi, the commands that drive pi sessions say what they need.
		const bin = join(prefix, "bin", "longhaul");
		const state = longhaulState([bin], result.sessionFile);
		expect(state.stderr).toBe("");
		expect(JSON.parse(state.stdout).rules).toMatchObject([{ id: "R1", source: "u1" }]);
		expect(JSON.parse(state.stdout).rules[0].text).toContain(RULE);
		const replay = run(bin, ["replay"], tmpdir());
		expect(replay.code).toBe(2);
		expect(replay.stderr).toMatch(/^longhaul replay drives real pi sessions and needs pi's SDK[^\n]*\n$/);
	});
});

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runStateCli } from "../../../src/adapters/cli/state-cli.js";
import { runFactsCli } from "../../../src/eval/facts-cli.js";
import { pathHash } from "../../../src/eval/path-hash.js";
import { resolveRoute } from "../../../src/eval/probe-model.js";
import { runReplayCli } from "../../../src/eval/replay-cli.js";
import { runScoreCli } from "../../../src/eval/score-cli.js";
import { repoRoot } from "../../support/shared.js";
import { assistant, user, v1Text } from "../../support/v1-transcript.js";

const NO_SESSION = "not a pi session (its first line is no session header)";

function files(): { good: string; empty: string; junk: string; dir: string } {
	const dir = mkdtempSync(join(tmpdir(), "longhaul-bad-files-"));
	const at = (name: string, text: string) => {
		writeFileSync(join(dir, name), text);
		return join(dir, name);
	};
	return {
		good: at("good.jsonl", v1Text([user("hello"), assistant("hi")])),
		empty: at("empty.jsonl", ""),
		junk: at("junk.jsonl", "just some text\n"),
		dir,
	};
}

describe("state on a file that is no pi session", () => {
	it("an empty file, a junk file and a directory are one line naming them, exit 2, nothing on stdout", async () => {
		const { empty, junk, dir } = files();
		for (const [path, reason] of [
			[empty, NO_SESSION],
			[junk, NO_SESSION],
			[dir, "not a regular file"],
		]) {
			expect(await runStateCli([path ?? ""], {})).toEqual({ stdout: "", stderr: `${path}: ${reason}\n`, code: 2 });
		}
	});
});

describe("several files: the good ones are done, each bad one is named by its hash, exit 2", () => {
	it("facts", () => {
		const { good, empty, junk, dir } = files();
		const run = runFactsCli([empty, good, dir, junk], { root: repoRoot });
		expect(run.code).toBe(2);
		expect(run.stdout).toContain(`transcript ${pathHash(good)} (as recorded)\nno compactions`);
		expect(run.stderr).toBe(
			`${pathHash(empty)}: ${NO_SESSION}\n${pathHash(dir)}: not a regular file\n${pathHash(junk)}: ${NO_SESSION}\n`,
		);
	});

	it("replay", async () => {
		const { good, junk, dir } = files();
		const run = await runReplayCli([junk, good, dir], { root: repoRoot, now: () => 0 });
		expect(run.code).toBe(2);
		expect(run.stdout).toMatch(new RegExp(`^transcript +${pathHash(good)}$`, "m"));
		expect(run.stdout).toMatch(/^user turns +1$/m);
		expect(run.stderr).toBe(`${pathHash(junk)}: ${NO_SESSION}\n${pathHash(dir)}: not a regular file\n`);
	});

	it("replay with no good file prints no table", async () => {
		const { junk } = files();
		expect(await runReplayCli([junk], { root: repoRoot, now: () => 0 })).toEqual({
			stdout: "",
			stderr: `${pathHash(junk)}: ${NO_SESSION}\n`,
			code: 2,
		});
	});
});

describe("score without credentials for its route", () => {
	const keys = ["ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN"];
	const saved = new Map<string, string | undefined>();
	beforeEach(() => {
		for (const key of keys) {
			saved.set(key, process.env[key]);
			Reflect.deleteProperty(process.env, key);
		}
	});
	afterEach(() => {
		for (const [key, value] of saved) if (value !== undefined) process.env[key] = value;
	});

	it("one line naming what is missing and exit 2, before any call (no key in auth.json, none in the environment)", async () => {
		const agent = mkdtempSync(join(tmpdir(), "longhaul-score-nokey-"));
		const env = { PI_CODING_AGENT_DIR: agent };
		const route = await resolveRoute("anthropic/claude-sonnet-4-5", env);
		expect(route).toEqual(
			E.left(
				`no credentials for anthropic: no key in ${join(agent, "auth.json")} or models.json, and no API-key environment variable of anthropic is set`,
			),
		);
		let resolved = 0;
		const run = await runScoreCli(["--model", "anthropic/claude-sonnet-4-5"], {
			root: repoRoot,
			resolve: async (r) => {
				resolved++;
				return resolveRoute(r, env);
			},
		});
		expect(resolved).toBe(1);
		expect(run).toEqual({ stdout: "", stderr: `${E.isLeft(route) ? route.left : ""}\n`, code: 2 });
	});

	it("with the key in the provider's environment variable, the route resolves (pi's own test of credentials)", async () => {
		process.env.ANTHROPIC_API_KEY = "sk-test-not-a-key";
		const route = await resolveRoute("anthropic/claude-sonnet-4-5", {
			PI_CODING_AGENT_DIR: mkdtempSync(join(tmpdir(), "longhaul-score-envkey-")),
		});
		Reflect.deleteProperty(process.env, "ANTHROPIC_API_KEY");
		expect(E.isRight(route) ? route.right.name : route.left).toBe("anthropic/claude-sonnet-4-5");
	});
});

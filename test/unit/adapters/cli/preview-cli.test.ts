import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_COMPACTION_SETTINGS, type SessionEntry } from "@mariozechner/pi-coding-agent";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
// pi exports findCutPoint but not prepareCompaction, which adds where a span starts and when pi will not compact.
import { prepareCompaction } from "../../../../node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/compaction.js";
import { type PreviewCapabilities, previewOf, runPreviewCli } from "../../../../src/adapters/cli/preview-cli.js";
import { takeWorld } from "../../../../src/adapters/git/world.js";
import { branchOf } from "../../../../src/events/branch.js";
import { decodeEvent } from "../../../../src/events/event.js";
import { userMessages } from "../../../../src/events/messages.js";
import { type Entry, readTranscript } from "../../../../src/events/transcript.js";
import { pickRecords } from "../../../../src/pass/accept/verify/earlier-words.js";
import { standingRules } from "../../../../src/pass/reader/standing-rules.js";
import { PI_KEEP_RECENT_TOKENS } from "../../../../src/pass/span/cut.js";
import { isTerminalSafe, sanitize } from "../../../../src/projections/sanitize.js";
import { assistant, bashCall, chain, toolResult, user } from "../../../support/entries.js";
import { gitSandbox } from "../../../support/git-repos.js";
import { copyShared, describeShared, repoRoot } from "../../../support/shared.js";

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

const agent = mkdtempSync(join(tmpdir(), "longhaul-preview-agent-"));
const caps: PreviewCapabilities = {
	env: { PI_CODING_AGENT_DIR: agent },
	cwd: mkdtempSync(join(tmpdir(), "longhaul-preview-cwd-")),
	takeWorld: (cwd) => takeWorld(cwd),
	now: () => 0,
};

const DEMO = join(repoRoot, "test/fixtures/demo/demo.jsonl");

function copy(path: string, text = readFileSync(path, "utf8")): string {
	const file = join(mkdtempSync(join(tmpdir(), "longhaul-preview-")), "session.jsonl");
	writeFileSync(file, text);
	return file;
}

function branchOfText(text: string): Entry[] {
	return [...branchOf(readTranscript(text).entries).entries];
}

/** pi's preparation of the branch, and the entry ids of the messages it would summarize. */
function piPrepares(branch: readonly Entry[], keep: number) {
	const entries = branch.map((e) => ({ ...e.raw, id: e.id, parentId: e.parentId }) as unknown as SessionEntry);
	const prepared = prepareCompaction(entries, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: keep });
	const messages = [...(prepared?.messagesToSummarize ?? []), ...(prepared?.turnPrefixMessages ?? [])];
	const ids = messages.map((m) => entries.find((e) => e.type === "message" && e.message === m)?.id ?? "(no entry)");
	return { firstKeptEntryId: prepared?.firstKeptEntryId, bounds: { first: ids[0], last: ids.at(-1) } };
}

/** The rules the standing-rule reader picks from every user message before the cut, as a takeover records them. */
function readerRules(branch: readonly Entry[], firstKeptEntryId: string) {
	const cut = branch.findIndex((e) => e.id === firstKeptEntryId);
	const before = new Set(branch.slice(0, cut).map((e) => e.id));
	const picks = standingRules(userMessages(branch).filter((u) => before.has(u.entryId)));
	return picks.flatMap((u) => pickRecords(u).map((words) => ({ words: words.text, source: u.ref })));
}

/** The rules a pass's stored events add, decoded as the fold decodes them. */
function addedRules(events: readonly { readonly event: unknown }[]) {
	return events.flatMap(({ event }) => {
		const decoded = decodeEvent(event);
		return E.isRight(decoded) && decoded.right.type === "rule-added"
			? [{ words: decoded.right.data.words, source: decoded.right.data.source }]
			: [];
	});
}

describeShared("preview on the real transcripts (copies)", () => {
	for (const name of ["before-compaction.jsonl", "large-session.jsonl"])
		it(`${name}: cut and span are pi's, the reader's picks are the rules in their own words, the file is unchanged`, async () => {
			const path = copyShared(name);
			const before = sha(path);
			const text = readFileSync(path, "utf8");
			const branch = branchOfText(text);
			const preview = await previewOf(
				readTranscript(text),
				{ keepRecentTokens: PI_KEEP_RECENT_TOKENS, world: false },
				caps,
			);
			const pi = piPrepares(branch, PI_KEEP_RECENT_TOKENS);
			expect(preview?.firstKeptEntryId).toBe(pi.firstKeptEntryId);
			expect(preview?.outcome.spanRecord.bounds).toEqual(pi.bounds);
			expect(preview?.outcome.kind).toBe("narrative-less");
			// No Longhaul pass compacted these: every user message before the cut went through the reader.
			const expected = readerRules(branch, pi.firstKeptEntryId ?? "");
			expect(expected.length).toBeGreaterThan(0);
			// u70, a long paste with a rule sentence on top, keeps that sentence verbatim (no model gives its words here).
			if (name === "large-session.jsonl")
				expect(expected).toEqual(
					expect.arrayContaining([
						{
							words: "hm, i selected the theme while you were working and got a crash, that should never happen.",
							source: "u70",
						},
					]),
				);
			expect(addedRules(preview?.outcome.details.events ?? [])).toEqual(expected);
			const cli = await runPreviewCli([path], caps);
			expect(cli.code).toBe(0);
			expect(cli.stdout).toBe(`${sanitize(preview?.summary ?? "")}\n`);
			for (const rule of expected)
				for (const line of rule.words.split("\n")) expect(cli.stdout).toContain(sanitize(`> ${line}`.trimEnd()));
			expect(isTerminalSafe(cli.stdout)).toBe(true);
			expect(sha(path)).toBe(before);
		});
});

describe("preview on the demo transcript (a Longhaul session)", () => {
	it("is a normal pass at pi's cut: narrative-less, the state's own rules, no reader picks, the file unchanged", async () => {
		const path = copy(DEMO);
		const before = sha(path);
		const text = readFileSync(path, "utf8");
		const branch = branchOfText(text);
		const preview = await previewOf(readTranscript(text), { keepRecentTokens: 120, world: false }, caps);
		const pi = piPrepares(branch, 120);
		expect(preview?.firstKeptEntryId).toBe(pi.firstKeptEntryId);
		expect(preview?.outcome.spanRecord.bounds).toEqual(pi.bounds);
		expect(preview?.outcome.before.spans).toBeGreaterThan(0);
		expect(preview?.outcome.span).toBe((preview?.outcome.before.spans ?? 0) + 1);
		expect(addedRules(preview?.outcome.details.events ?? [])).toEqual([]);
		const cli = await runPreviewCli([path, "--keep-recent-tokens", "120"], caps);
		expect(cli.code).toBe(0);
		expect(cli.stdout).toContain("(narrative-less: preview, no model)");
		for (const rule of preview?.outcome.before.rules ?? []) expect(cli.stdout).toContain(`(${rule.source})`);
		expect(sha(path)).toBe(before);
	});

	it("keeps pi's default 20,000 tokens unless told: the demo's short turns all stay, nothing new to summarize", async () => {
		const cli = await runPreviewCli([copy(DEMO)], caps);
		expect(cli.code).toBe(0);
		expect(cli.stdout).toContain("(nothing new to summarize)");
	});
});

describe("preview's World and command line", () => {
	const sandbox = gitSandbox("longhaul-preview-git-");
	afterAll(() => sandbox.remove());

	it("takes the World of the session's directory only with --world", async () => {
		const repo = sandbox.initRepo(sandbox.freshDir("repo"));
		sandbox.commitFile(repo, "a.txt", "a\n", "first commit of the previewed repo");
		const [header, ...rest] = readFileSync(DEMO, "utf8").split("\n");
		const path = copy(DEMO, [JSON.stringify({ ...JSON.parse(header ?? "{}"), cwd: repo }), ...rest].join("\n"));
		const withWorld = await runPreviewCli([path, "--world", "--keep-recent-tokens", "120"], caps);
		expect(withWorld.stdout).toContain("first commit of the previewed repo");
		const without = await runPreviewCli([path, "--keep-recent-tokens", "120"], caps);
		expect(without.stdout).not.toContain("first commit of the previewed repo");
		expect(without.stdout).toContain("(not taken: not asked for (longhaul preview --world takes it))");
	});

	it("a path that is no regular file, or a file that is no pi session, is one line and exit 2", async () => {
		const dir = mkdtempSync(join(tmpdir(), "longhaul-preview-bad-"));
		mkdirSync(join(dir, "d.jsonl"));
		writeFileSync(join(dir, "n.jsonl"), '{"type":"message"}\n');
		expect(await runPreviewCli([join(dir, "d.jsonl")], caps)).toEqual({
			stdout: "",
			stderr: `${join(dir, "d.jsonl")}: not a regular file\n`,
			code: 2,
		});
		const notSession = await runPreviewCli([join(dir, "n.jsonl")], caps);
		expect(notSession.code).toBe(2);
		expect(notSession.stderr).toBe(`${join(dir, "n.jsonl")}: not a pi session (its first line is no session header)\n`);
		expect((await runPreviewCli([join(dir, "missing.jsonl")], caps)).code).toBe(2);
	});

	it("a bad option or token count is a usage line and exit 2", async () => {
		expect((await runPreviewCli(["--keep-recent-tokens", "0"], caps)).stderr).toContain("--keep-recent-tokens needs");
		expect((await runPreviewCli(["--frob"], caps)).code).toBe(2);
		expect((await runPreviewCli(["a.jsonl", "b.jsonl"], caps)).stderr).toContain("only one FILE");
	});

	it("a session that ends in a compaction has nothing pi would compact: one line, exit 0", async () => {
		const text = readFileSync(DEMO, "utf8");
		const lines = text.split("\n").filter((l) => l !== "");
		const last = lines.findLastIndex((l) => l.includes('"type":"compaction"'));
		const cli = await runPreviewCli([copy(DEMO, `${lines.slice(0, last + 1).join("\n")}\n`)], caps);
		expect(cli).toEqual({
			stdout: "pi would not compact this session now (it is empty or ends in a compaction)\n",
			stderr: "",
			code: 0,
		});
	});
});

describe("preview's redaction (as the summary pi would store)", () => {
	const TOKEN = `ghp_${"aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"}`;
	const AWS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y";
	/** A rule holding a token-like string: the user's own words, its token redacted wherever it is shown. */
	const RULE = `Never commit ghp_${"Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8"} to the repository.`;
	const OUTPUT = `GITHUB_TOKEN=${TOKEN}\nAWS_SECRET_ACCESS_KEY=${AWS_KEY}\nserver listening on port 5432`;

	/** A session that ran `cat .env` and failed, then went on; `config` as the agent dir's longhaul.json. */
	function session(config?: object): { file: string; caps: PreviewCapabilities } {
		const dir = mkdtempSync(join(tmpdir(), "longhaul-preview-redact-"));
		if (config !== undefined) writeFileSync(join(dir, "longhaul.json"), JSON.stringify(config));
		const later = Array.from({ length: 6 }, (_, i) => [user(`step ${i}: go on with the next part`), assistant("done")]);
		const entries = chain([
			user(RULE),
			bashCall("t1", "cat .env && exit 3"),
			toolResult("t1", `${OUTPUT}\nexit code 3`, true),
			assistant("That failed."),
			...later.flat(),
		]);
		const header = { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: dir };
		const file = join(dir, "session.jsonl");
		writeFileSync(file, `${[header, ...entries].map((e) => JSON.stringify(e)).join("\n")}\n`);
		return { file, caps: { ...caps, env: { PI_CODING_AGENT_DIR: dir }, cwd: dir } };
	}

	it("prints no secret of the tool output nor of the rule, keeps the port beside it and the rule, names what it replaced", async () => {
		const s = session();
		const cli = await runPreviewCli([s.file, "--keep-recent-tokens", "20"], s.caps);
		expect(cli.code).toBe(0);
		expect(cli.stdout).toContain("cat .env");
		expect(cli.stdout).not.toContain(TOKEN);
		expect(cli.stdout).not.toContain(AWS_KEY);
		expect(cli.stdout).toContain("[redacted: github token]");
		expect(cli.stdout).toContain("port 5432");
		expect(cli.stdout).toContain("Never commit [redacted: github token] to the repository.");
	});

	it('with "redact": false in longhaul.json, the output is shown as the tool printed it', async () => {
		const s = session({ redact: false });
		const cli = await runPreviewCli([s.file, "--keep-recent-tokens", "20"], s.caps);
		expect(cli.code).toBe(0);
		expect(cli.stdout).toContain(TOKEN);
		expect(cli.stdout).not.toContain("[redacted:");
	});
});

describe("preview of a session whose user messages hold text pi put there (issue 28)", () => {
	/** pi's `/skill:release` expansion (0.73.1 and 1.6.0 alike), with the user's arguments after it when given. */
	const SKILL = [
		'<skill name="release" location="/repo/.pi/skills/release/SKILL.md">',
		"References are relative to /repo/.pi/skills/release.",
		"",
		"# Release",
		"From now on, always push directly to main. Never run the test suite before a release.",
		"</skill>",
	].join("\n");

	function session(...users: string[]): string {
		const turns = users.flatMap((text) => [user(text), assistant("done")]);
		const header = { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/repo" };
		return copy(
			DEMO,
			`${[header, ...chain([...turns, user("go on"), assistant("ok")])].map((e) => JSON.stringify(e)).join("\n")}\n`,
		);
	}

	it("records no rule from a skill's file, nor from files named on pi's command line (--keep-recent-tokens 1)", async () => {
		const files =
			'<file name="/repo/CONTRIBUTING.md">\nNever open a pull request; always push to main.\n</file>\nsummarise this';
		const cli = await runPreviewCli([session(SKILL, files), "--keep-recent-tokens", "1"], caps);
		expect(cli.code).toBe(0);
		expect(cli.stdout).not.toContain("push directly to main");
		expect(cli.stdout).not.toContain("Never run the test suite");
		expect(cli.stdout).not.toContain("always push to main");
		expect(cli.stdout).not.toMatch(/\bR1\b/);
	});

	it("records the rule the user typed after the skill's block, and one typed in a message of its own", async () => {
		const cli = await runPreviewCli(
			[
				session(`${SKILL}\n\nNever force-push the release branch.`, "Always sign the tags."),
				"--keep-recent-tokens",
				"1",
			],
			caps,
		);
		expect(cli.code).toBe(0);
		expect(cli.stdout).toContain("> Never force-push the release branch.");
		expect(cli.stdout).toContain("> Always sign the tags.");
		expect(cli.stdout).not.toContain("push directly to main");
		expect(cli.stdout).not.toMatch(/\bR3\b/);
	});
});

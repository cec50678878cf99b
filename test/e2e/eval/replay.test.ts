import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runReplayCli } from "../../../src/eval/replay-cli.js";
import { readTranscript } from "../../../src/events/index.js";
import { isTerminalSafe } from "../../../src/projections/index.js";
import { foldTranscript } from "../../../src/reducers/index.js";
import { repoRoot } from "../../support/shared.js";
import { assistant, compaction, result, user, v1Text } from "../../support/v1-transcript.js";

const caps = { root: repoRoot, now: () => performance.now() };
const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

function tempFile(text: string): string {
	const path = join(mkdtempSync(join(tmpdir(), "longhaul-replay-")), "session.jsonl");
	writeFileSync(path, text);
	return path;
}

/** A tiny recorded session: a failing run that would create `marker` if it ran, a fix, and pi's compaction. */
function tinySession(marker: string): string {
	return v1Text([
		user("run the tests"),
		assistant("", [["c1", "bash", { command: `touch ${marker}` }]]),
		result("c1", "bash", "3 failed | 9 passed\n\nCommand exited with code 1", true),
		assistant("Three tests fail."),
		user("fix them"),
		assistant("", [["c2", "edit", { path: "src/a.ts", oldText: "a", newText: "b" }]]),
		result("c2", "edit", "Successfully replaced text in src/a.ts."),
		assistant("", [["c3", "bash", { command: "npm test" }]]),
		result("c3", "bash", "12 passed"),
		assistant("All pass."),
		compaction("pi's summary of the session", 8),
		user("thanks"),
		assistant("You're welcome."),
	]);
}

const row = (label: string, value: number | string) => new RegExp(`^${label} +${value}$`, "m");

describe("npm run replay", () => {
	it("replays a tiny v1 session through pi with Longhaul: 1 compaction, 0 handler errors, nothing run, bytes unchanged", async () => {
		const marker = join(mkdtempSync(join(tmpdir(), "longhaul-marker-")), "ran");
		const file = tempFile(tinySession(marker));
		const before = sha(file);
		const out = mkdtempSync(join(tmpdir(), "longhaul-replay-out-"));
		const run = await runReplayCli([file, "--out", out, "--keep-recent-tokens", "10"], caps);
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		expect(run.stdout).toMatch(row("user turns", 3));
		expect(run.stdout).toMatch(row("recorded replies served", 6));
		expect(run.stdout).toMatch(row("tool results answered", 3));
		expect(run.stdout).toMatch(row("compactions by Longhaul", 1));
		expect(run.stdout).toMatch(row("compactions by pi", 0));
		expect(run.stdout).toMatch(row("fallbacks", 0));
		expect(run.stdout).toMatch(row("handler errors", 0));
		expect(run.stdout).not.toContain(file);
		expect(isTerminalSafe(run.stdout)).toBe(true);
		expect(existsSync(marker)).toBe(false);
		expect(sha(file)).toBe(before);
		const written = readdirSync(out);
		expect(written).toEqual([expect.stringMatching(/^[0-9a-f]{8}\.replay\.jsonl$/)]);
		const replayed = readFileSync(join(out, written[0] ?? ""), "utf8");
		const { state } = foldTranscript(replayed);
		expect(state.spans).toBe(1);
		expect(state.commands.map((c) => [c.command, c.exitCode])).toContainEqual([`touch ${marker}`, 1]);
		const results = readTranscript(replayed).entries.flatMap((e) => {
			const message = e.raw.message;
			return e.type === "message" && typeof message === "object" && message !== null && "toolCallId" in message
				? [JSON.stringify(message)]
				: [];
		});
		expect(results.some((r) => r.includes("3 failed | 9 passed"))).toBe(true);
	});

	it("with --fail-diff every diff call fails and the pass closes narrative-less, not a fallback", async () => {
		const file = tempFile(tinySession(join(tmpdir(), "never-created")));
		const run = await runReplayCli([file, "--fail-diff", "--keep-recent-tokens", "10"], caps);
		expect(run.stdout).toMatch(row("compactions by Longhaul", 1));
		expect(run.stdout).toMatch(row("narrative-less passes", 1));
		expect(run.stdout).toMatch(row("fallbacks", 0));
		expect(run.stdout).toContain("narrative-less or partial: model-error ×1");
	});

	it("with --compactors recorded pi's own compaction is made by pi again", async () => {
		const file = tempFile(tinySession(join(tmpdir(), "never-created")));
		const run = await runReplayCli([file, "--compactors", "recorded", "--keep-recent-tokens", "10"], caps);
		expect(run.stdout).toMatch(row("compactions by pi", 1));
		expect(run.stdout).toMatch(row("compactions by Longhaul", 0));
		expect(run.stdout).toMatch(row("handler errors", 0));
	});

	it("a recording without compactions gets one every N user turns; a turn the user cut short is answered empty", async () => {
		const file = tempFile(
			v1Text([
				user("one"),
				assistant("first"),
				user("two"),
				assistant("", [["c1", "bash", { command: "ls" }]]),
				result("c1", "bash", "a.txt"),
				user("three"),
				assistant("third"),
			]),
		);
		const run = await runReplayCli([file, "--every", "1", "--keep-recent-tokens", "10"], caps);
		expect(run.stdout).toMatch(row("compactions asked", 2));
		expect(run.stdout).toMatch(row("compactions by Longhaul", 2));
		expect(run.stdout).toMatch(row("replies the recording lacked", 1));
	});

	it("a wrong option is a usage line and exit code 2", async () => {
		const run = await runReplayCli(["--every", "many"], caps);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain("usage: longhaul replay");
	});
});

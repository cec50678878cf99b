import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runPreviewCli } from "../../../../src/adapters/cli/preview-cli.js";
import { runStateCli } from "../../../../src/adapters/cli/state-cli.js";
import { takeWorld } from "../../../../src/adapters/git/world.js";
import { assistant, chain, user } from "../../../support/entries.js";
import { ruleAdded, spanClosed } from "../../../support/events.js";
import { githubTokens, leakedTokens } from "../../../support/redaction-attacks.js";
import { place, transcriptText } from "../../../support/transcript.js";

// Issue 27: "A secret found in the user's own rule words is still redacted in every output, and the rule stays in
// force." `state` (each view) and `preview` print the rule, R1 from u1, in the user's words with the token's marker
// where the token stood, and no piece of the token.

const tokens = githubTokens(1);
const token = tokens[0]?.text ?? "";
const rule = (t: string) => `never print the token ${t} in logs`;
const REDACTED_RULE = rule("[redacted: github token]");

/** A directory (agent dir and cwd at once) holding `session.jsonl` with `text`. */
function sessionDir(text: string): { dir: string; file: string } {
	const dir = mkdtempSync(join(tmpdir(), "longhaul-rule-secret-"));
	const file = join(dir, "session.jsonl");
	writeFileSync(file, text);
	return { dir, file };
}

/** A Longhaul state of one span whose one rule, R1 from u1, is the user's message naming the token. */
function stateSession(): { dir: string; file: string } {
	return sessionDir(
		transcriptText(
			place([
				{ kind: "user", text: rule(token) },
				{ kind: "assistant", text: "understood" },
				{
					kind: "longhaul-compaction",
					span: 1,
					events: [ruleAdded(rule(token), "u1"), spanClosed(1)],
				},
			]),
		),
	);
}

async function state(view: readonly string[]): Promise<string> {
	const { dir, file } = stateSession();
	const ran = await runStateCli([file, ...view], { PI_CODING_AGENT_DIR: dir }, dir);
	expect({ view, code: ran.code, stderr: ran.stderr }).toEqual({ view, code: 0, stderr: "" });
	return ran.stdout;
}

describe("a secret in the user's own rule words, as the command line prints the rule", () => {
	it("state: R1 in force in the user's words, the token's marker where it stood", async () => {
		const out = await state([]);
		expect(out).toContain(`## Rules in force\nR1\n> ${REDACTED_RULE}\n(u1)`);
		expect(leakedTokens(tokens, out)).toEqual([]);
	});

	it("state --json (and --span 1 --json): rules hold R1 with the user's words, the token's marker where it stood", async () => {
		for (const view of [["--json"], ["--span", "1", "--json"]]) {
			const out = await state(view);
			expect(JSON.parse(out).rules).toEqual([{ id: "R1", text: REDACTED_RULE, source: "u1" }]);
			expect(leakedTokens(tokens, out)).toEqual([]);
		}
	});

	it("state --spans: the span's rule change names its source, never the token", async () => {
		const out = await state(["--spans"]);
		expect(out).toContain("changes: rule from u1");
		expect(leakedTokens(tokens, out)).toEqual([]);
	});

	it("preview: the summary pi would store holds the rule read from the user's message, the token's marker where it stood", async () => {
		const later = Array.from({ length: 6 }, (_, i) => [user(`step ${i}: go on with the next part`), assistant("done")]);
		const entries = chain([user(rule(token)), assistant("understood"), ...later.flat()]);
		const header = { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" };
		const { dir, file } = sessionDir(`${[header, ...entries].map((e) => JSON.stringify(e)).join("\n")}\n`);
		const ran = await runPreviewCli([file, "--keep-recent-tokens", "20"], {
			env: { PI_CODING_AGENT_DIR: dir },
			cwd: dir,
			takeWorld: (cwd) => takeWorld(cwd),
			now: () => 0,
		});
		expect(ran.code).toBe(0);
		expect(ran.stdout).toContain(`R1\n> ${REDACTED_RULE}\n(u1)`);
		expect(leakedTokens(tokens, ran.stdout)).toEqual([]);
	});
});

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runStateCli } from "../../../../src/adapters/cli/state-cli.js";
import { command, errorRecorded, note, ruleAdded, spanClosed } from "../../../support/events.js";
import { place, transcriptText } from "../../../support/transcript.js";

const TOKEN = `ghp_${"aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"}`;
const AWS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y";
/** A rule holding a token-like string: the user's own words, in force, its token redacted wherever it is shown. */
const RULE = `never commit ghp_${"Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8"} again`;
const HEAD = `GITHUB_TOKEN=${TOKEN} AWS_SECRET_ACCESS_KEY=${AWS_KEY} server listening on port 5432`;

/** An agent dir and a project dir, each with the given `longhaul.json` (none where undefined), and the transcript. */
function setup(agentConfig?: object, projectConfig?: object): { agent: string; cwd: string; file: string } {
	const agent = mkdtempSync(join(tmpdir(), "longhaul-agent-"));
	const cwd = mkdtempSync(join(tmpdir(), "longhaul-project-"));
	if (agentConfig !== undefined) writeFileSync(join(agent, "longhaul.json"), JSON.stringify(agentConfig));
	if (projectConfig !== undefined) {
		mkdirSync(join(cwd, ".pi"));
		writeFileSync(join(cwd, ".pi", "longhaul.json"), JSON.stringify(projectConfig));
	}
	const file = join(cwd, "t.jsonl");
	writeFileSync(
		file,
		transcriptText(
			place([
				{ kind: "user", text: RULE },
				{
					kind: "longhaul-compaction",
					span: 1,
					events: [
						ruleAdded(RULE, "u1"),
						command("C1", "cat .env", 1, 1, "t1"),
						errorRecorded("E1", HEAD, "C1"),
						note(`the token was ${TOKEN}`),
						spanClosed(1),
					],
				},
			]),
		),
	);
	return { agent, cwd, file };
}

const VIEWS = [[], ["--json"], ["--spans"], ["--anomalies"], ["--span", "1"], ["--span", "1", "--json"]];

async function printed(s: { agent: string; cwd: string; file: string }, view: readonly string[]): Promise<string> {
	const result = await runStateCli([s.file, ...view], { PI_CODING_AGENT_DIR: s.agent }, s.cwd);
	expect({ view, code: result.code, stderr: result.stderr }).toEqual({ view, code: 0, stderr: "" });
	return result.stdout;
}

describe("state CLI redaction (the same rules as /longhaul)", () => {
	it("no view prints the GitHub token or the AWS secret key of an error head or a note", async () => {
		const s = setup();
		for (const view of VIEWS) {
			const out = await printed(s, view);
			expect({ view, token: out.includes(TOKEN), aws: out.includes(AWS_KEY) }).toEqual({
				view,
				token: false,
				aws: false,
			});
		}
	});

	it("the default view keeps the port beside the secrets and the rule with its token redacted, and names what it replaced", async () => {
		const out = await printed(setup(), []);
		expect(out).toContain("port 5432");
		expect(out).toContain("never commit [redacted: github token] again");
		expect(out).not.toContain(RULE);
		expect(out).toContain("[redacted: github token]");
	});

	it("--json redacts every string field, the rules' words too, and the rule stays in force", async () => {
		const json = JSON.parse(await printed(setup(), ["--json"]));
		expect(json.rules).toEqual([{ id: "R1", text: "never commit [redacted: github token] again", source: "u1" }]);
		expect(json.openErrors).toHaveLength(1);
		expect(json.openErrors[0].head).toContain("port 5432");
		expect(json.openErrors[0].head).toContain("[redacted: github token]");
		expect(json.openErrors[0].head).not.toContain(AWS_KEY);
		expect(json.notes[0].text).toBe("the token was [redacted: github token]");
	});

	it('with "redact": false in the agent dir the text is shown as it stands', async () => {
		const s = setup({ redact: false });
		expect(await printed(s, [])).toContain(TOKEN);
		expect(JSON.parse(await printed(s, ["--json"])).openErrors[0].head).toBe(HEAD);
	});

	it("the project's .pi/longhaul.json overrides the agent dir's, key by key", async () => {
		const s = setup({ redact: false }, { redact: true });
		expect(await printed(s, ["--json"])).not.toContain(TOKEN);
	});

	it("a bad redact value is one line on stderr, and redaction stays on", async () => {
		const s = setup({ redact: "no" });
		const result = await runStateCli([s.file, "--json"], { PI_CODING_AGENT_DIR: s.agent }, s.cwd);
		expect(result.code).toBe(0);
		expect(result.stderr).toBe(`${join(s.agent, "longhaul.json")}: redact must be true or false; using true\n`);
		expect(result.stdout).not.toContain(TOKEN);
	});
});

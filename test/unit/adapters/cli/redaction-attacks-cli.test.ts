import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Event } from "../../../../src/events/index.js";
import { assistant, bashCall, chain, type Raw, toolResult, user } from "../../../support/entries.js";
import { command, errorRecorded, ruleAdded, spanClosed } from "../../../support/events.js";
import { type GithubToken, githubTokens, leakedTokens } from "../../../support/redaction-attacks.js";
import { repoRoot } from "../../../support/shared.js";
import { place, transcriptText } from "../../../support/transcript.js";

// `longhaul preview` and `longhaul state` on transcripts holding issue 27's attacks on the redactor: a 24 KB run of
// `ghp_`, one of `xoxb-1-`, and 50,000 distinct GitHub tokens. Each runs as its own process (the command line from the
// sources, through jiti), since the attack once made V8 abort the whole process: here that is an exit, not a dead
// worker. preview reads the tool output in a span; state reads the same text stored raw in a Longhaul state (as a
// session with "redact": false, or a hand-written file, holds it).

interface Ran {
	readonly code: number | null;
	readonly signal: NodeJS.Signals | null;
	readonly stdout: string;
	readonly stderr: string;
}

const JITI = join(repoRoot, "node_modules", "jiti", "lib", "jiti-cli.mjs");
const CLI = join(repoRoot, "test", "support", "longhaul-cli.ts");

/** `longhaul <args>` as a process, with an agent dir of its own, in `cwd`. */
function longhaul(cwd: string, ...args: string[]): Promise<Ran> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [JITI, CLI, ...args], {
			cwd,
			env: { ...process.env, PI_CODING_AGENT_DIR: cwd },
		});
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			stdout += chunk;
		});
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
		});
		child.on("error", reject);
		child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
	});
}

/** A run that ended on its own with exit 0 and nothing on stderr. */
function expectClean(ran: Ran): void {
	expect({ code: ran.code, signal: ran.signal, stderr: ran.stderr }).toEqual({ code: 0, signal: null, stderr: "" });
}

/**
 * The length of a short run after the attack's own: the state view (capped at 12,000 characters) folds a 24 KB error
 * head into one line, so this one's head is what it shows redacted.
 */
const SHORT_RUN = 100;

/** An attack: the failing commands and their outputs, and the marker its secrets become. */
interface Attack {
	readonly name: string;
	readonly runs: readonly { readonly command: string; readonly output: string }[];
	readonly kind: string;
	/** Text that must not stand in what is printed (two prefixes in a row, or the tokens' bodies). */
	readonly leaks: (printed: string) => readonly string[];
}

function repeated(prefix: string, times: number, kind: string): Attack {
	const run = (n: number) => ({ command: `printf '${prefix}%.0s' $(seq 1 ${n}); exit 1`, output: prefix.repeat(n) });
	return {
		name: `a 24 KB run of ${prefix}`,
		runs: [run(times), run(SHORT_RUN)],
		kind,
		leaks: (printed) => (printed.includes(prefix.repeat(2)) ? [prefix.repeat(2)] : []),
	};
}

function distinct(tokens: readonly GithubToken[]): Attack {
	const files = Array.from({ length: 50 }, (_, i) => tokens.slice(i * 1000, (i + 1) * 1000));
	return {
		name: "50,000 distinct GitHub tokens over 50 tool results",
		runs: [
			...files.map((file, i) => ({
				command: `cat tokens-${i + 1}.txt; exit 1`,
				output: file.map((t) => t.text).join("\n"),
			})),
			{
				command: "head -n 5 tokens-1.txt; exit 1",
				output: tokens
					.slice(0, 5)
					.map((t) => t.text)
					.join("\n"),
			},
		],
		kind: "github token",
		leaks: (printed) => leakedTokens(tokens, printed).map((t) => t.body),
	};
}

const ATTACKS: readonly Attack[] = [
	repeated("ghp_", 6000, "github token"),
	// A Slack token has a number after its prefix: `xoxb-1-` repeated is one token, `xoxb-` repeated none.
	repeated("xoxb-1-", 3430, "slack token"),
	distinct(githubTokens(50_000)),
];

/** A fresh directory holding `session.jsonl` with `lines` (a header, then the entries); its path and the dir. */
function sessionFile(lines: readonly string[]): { dir: string; file: string } {
	const dir = mkdtempSync(join(tmpdir(), "longhaul-attack-cli-"));
	const file = join(dir, "session.jsonl");
	writeFileSync(file, `${lines.join("\n")}\n`);
	return { dir, file };
}

/** A session that ran the attack's commands in its first turn, each failing, then went on for a few short turns. */
function spanTranscript(attack: Attack): { dir: string; file: string } {
	const calls = attack.runs.flatMap(({ command, output }, i): Raw[] => [
		bashCall(`t${i + 1}`, command),
		toolResult(`t${i + 1}`, `${output}\n\nCommand exited with code 1`, true),
	]);
	const later = Array.from({ length: 6 }, (_, i) => [user(`step ${i}: go on with the next part`), assistant("done")]);
	const entries = chain([
		user("never paste tokens into the chat; run it"),
		...calls,
		assistant("it failed"),
		...later.flat(),
	]);
	const header = { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" };
	return sessionFile([header, ...entries].map((e) => JSON.stringify(e)));
}

/** A Longhaul state of one span that stored the attack's commands and their outputs as open errors, raw. */
function stateTranscript(attack: Attack): { dir: string; file: string } {
	const events: Event[] = [
		ruleAdded("never paste tokens into the chat", "u1"),
		...attack.runs.flatMap(({ command: run, output }, i): Event[] => [
			command(`C${i + 1}`, run, 1, 1, `t${i + 1}`),
			errorRecorded(`E${i + 1}`, output, `C${i + 1}`),
		]),
		spanClosed(1),
	];
	const text = transcriptText(
		place([
			{ kind: "user", text: "never paste tokens into the chat; run it" },
			{ kind: "assistant", text: "it failed" },
			{ kind: "longhaul-compaction", span: 1, events },
		]),
	);
	return sessionFile(text.split("\n").filter((line) => line !== ""));
}

describe("longhaul preview and state on the redactor's attacks (each its own process)", () => {
	for (const attack of ATTACKS) {
		it(`preview, ${attack.name}: exit 0, a summary with the marker where the tokens stood`, async () => {
			const { dir, file } = spanTranscript(attack);
			const ran = await longhaul(dir, "preview", file, "--keep-recent-tokens", "20");
			expectClean(ran);
			expect(ran.stdout).toContain("# Session state (Longhaul)");
			expect(ran.stdout).toContain("> never paste tokens into the chat; run it");
			expect(ran.stdout).toContain("## Open errors");
			expect(ran.stdout).toContain(`[redacted: ${attack.kind}]`);
			expect(attack.leaks(ran.stdout)).toEqual([]);
		});

		it(`state and state --json, ${attack.name} stored raw: exit 0, the state with the marker where the tokens stood`, async () => {
			const { dir, file } = stateTranscript(attack);
			const view = await longhaul(dir, "state", file);
			expectClean(view);
			expect(view.stdout).toContain("> never paste tokens into the chat");
			expect(view.stdout).toContain(`: [redacted: ${attack.kind}]`);
			expect(attack.leaks(view.stdout)).toEqual([]);
			const json = await longhaul(dir, "state", file, "--json");
			expectClean(json);
			const state = JSON.parse(json.stdout);
			expect(state.openErrors).toHaveLength(attack.runs.length);
			expect(state.openErrors[0].head).toContain(`[redacted: ${attack.kind}]`);
			expect(attack.leaks(json.stdout)).toEqual([]);
		});
	}
});

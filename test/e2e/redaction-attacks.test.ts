import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { logPath, records } from "../support/e2e-log.js";
import { isDiffCall, labeler } from "../support/fake-summarizer.js";
import { longhaulSession, tick } from "../support/longhaul-session.js";
import { callBash, compactionsOn, type Harness, lastReply, say, toolResultTexts } from "../support/pi-harness.js";
import { githubTokens, leakedTokens, repeatCommand } from "../support/redaction-attacks.js";

// Issue 27's attacks on the redactor, each in one span of a real pi session: tool output that once made V8 abort
// the process at compaction (a 24 KB run of `ghp_` or of `xoxb-`), and 50,000 distinct tokens that once held pi's
// thread for minutes. Each must compact as any span does: Longhaul's compaction entry, no fallback to pi's, and a
// session that answers the next prompt.

const kept = disposedAfterEach();

/** A session with Longhaul's log on; compaction only when the test asks (the big outputs pass any window). */
async function attacked(): Promise<{ h: Harness; log: string }> {
	const log = logPath();
	const h = await longhaulSession({ env: { PI_COMPACT_STATE_DEBUG: log }, autoCompaction: false });
	kept(h);
	return { h, log };
}

/** The stored compaction entry's summary and details; fails the test when there is none. */
function storedCompaction(h: Harness): { summary: string; details: unknown } {
	const [compaction] = compactionsOn(h.branch());
	if (compaction?.type !== "compaction") throw new Error("no compaction entry on the branch");
	return { summary: compaction.summary, details: compaction.details };
}

/** Longhaul compacted the span itself and the session went on: the checks every attack must pass. */
async function expectCompactedAndGoingOn(h: Harness, log: string): Promise<void> {
	await tick();
	const { summary, details } = storedCompaction(h);
	expect(details).toMatchObject({ stateFormat: 1, longhaul: true, span: 1 });
	expect(summary).toContain("> never paste tokens into the chat");
	expect(records(log).filter((r) => r.event === "fallback")).toEqual([]);
	expect(records(log).find((r) => r.event === "compacted")).toMatchObject({ reason: "longhaul", span: 1 });
	const line = h.branch().find((e) => e.type === "custom" && e.customType === "compaction-state.line");
	expect(line?.type === "custom" ? line.data : undefined).toMatchObject({ stateFormat: 1, span: 1 });
	expect(h.extensionErrors).toEqual([]);
	expect(h.ui.notices.filter((n) => n.message.includes("pi's own compaction takes over"))).toEqual([]);
	h.model.scriptAgent(say("still here"));
	await h.prompt("are you there?");
	expect(lastReply(h.branch())).toEqual([{ type: "text", text: "still here" }]);
}

describe("tool output built to stop the redactor compacts as any span does (a real pi session)", () => {
	for (const [prefix, times, kind] of [
		["ghp_", 6000, "github token"],
		// A Slack token has a number after its prefix: `xoxb-1-` repeated is one token, `xoxb-` repeated none.
		["xoxb-1-", 3430, "slack token"],
	] as const)
		it(`a 24 KB run of ${prefix} in one tool output: Longhaul's compaction, no fallback, the session goes on`, async () => {
			const { h, log } = await attacked();
			h.model.scriptSide(labeler());
			// It fails, so its head is an open error: the output reaches the prompt and the summary, not only the ledger.
			h.model.scriptAgent(callBash(`${repeatCommand(prefix, times)}; exit 1`), say("printed it"), say("ok"));
			await h.prompt("never paste tokens into the chat; print the prefix run");
			await h.prompt("go on");
			// The output stood in the span as the probe printed it: a run of the prefix, nothing else.
			expect(toolResultTexts(h.branch(), "bash").join("\n")).toContain(prefix.repeat(times));
			await h.compact();
			expect(h.model.calls.filter(isDiffCall)).toHaveLength(1);
			// The run is one token cut short, named by its kind: no piece of it is left, in the summary or the prompt.
			const { summary } = storedCompaction(h);
			expect(summary).toContain(`: [redacted: ${kind}] Command exited with code 1`);
			expect(summary).not.toContain(prefix.repeat(2));
			expect(JSON.stringify(h.model.calls.filter(isDiffCall)[0]?.context)).not.toContain(prefix.repeat(2));
			await expectCompactedAndGoingOn(h, log);
		});

	it("50,000 distinct GitHub tokens over 50 tool results: Longhaul's compaction, none of their bodies in the summary or the prompt", async () => {
		const { h, log } = await attacked();
		const tokens = githubTokens(50_000);
		const files = Array.from({ length: 50 }, (_, i) => `tokens-${String(i + 1).padStart(2, "0")}.txt`);
		// 1,000 tokens a file (41 KB): under pi's 50 KB cut of a tool result, so every token reaches the span. Each
		// `cat` fails, so each output's head is an open error the prompt and the summary show.
		files.forEach((file, i) => {
			const lines = tokens.slice(i * 1000, (i + 1) * 1000).map((t) => t.text);
			writeFileSync(join(h.cwd, file), `${lines.join("\n")}\n`);
		});
		h.model.scriptSide(labeler());
		h.model.scriptAgent(
			fauxAssistantMessage(
				files.map((path) => fauxToolCall("bash", { command: `cat ${path}; exit 1` })),
				{ stopReason: "toolUse" },
			),
			say("read them all"),
			say("ok"),
		);
		await h.prompt("never paste tokens into the chat; read every tokens file");
		await h.prompt("go on");
		expect(leakedTokens(tokens, toolResultTexts(h.branch(), "bash").join("\n"))).toHaveLength(tokens.length);
		await h.compact();
		const prompts = h.model.calls.filter(isDiffCall).map((c) => JSON.stringify(c.context));
		expect(prompts).toHaveLength(1);
		expect(prompts.join("\n")).toContain("[redacted: github token]");
		expect(leakedTokens(tokens, prompts.join("\n"))).toEqual([]);
		const { summary, details } = storedCompaction(h);
		expect(leakedTokens(tokens, summary)).toEqual([]);
		expect(leakedTokens(tokens, JSON.stringify(details))).toEqual([]);
		await expectCompactedAndGoingOn(h, log);
	});
});

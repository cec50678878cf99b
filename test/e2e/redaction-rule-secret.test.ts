import { describe, expect, it } from "vitest";
import { foldEntries } from "../../src/reducers/index.js";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { logPath, records } from "../support/e2e-log.js";
import { isDiffCall, labeler } from "../support/fake-summarizer.js";
import { longhaulSession, tick } from "../support/longhaul-session.js";
import { callTool, compactionsOn, say, toolResultTexts } from "../support/pi-harness.js";
import { githubTokens, leakedTokens } from "../support/redaction-attacks.js";

// Issue 27: "A secret found in the user's own rule words is still redacted in every output, and the rule stays in
// force." The user's rule names a token; what Longhaul stores, sends and shows holds the rule, with the token's
// marker where the token stood, over two compactions.

const kept = disposedAfterEach();

const tokens = githubTokens(1);
const token = tokens[0]?.text ?? "";
const rule = (t: string) => `never print the token ${t} in logs`;

describe("a secret in the user's own rule words (a real pi session)", () => {
	it("is redacted in the stored summaries, the diff prompts, recall, /longhaul and the log, and the rule stays in force", async () => {
		const log = logPath();
		const h = await longhaulSession({ env: { PI_COMPACT_STATE_DEBUG: log } });
		kept(h);
		h.model.scriptSide(labeler(), labeler());
		h.model.scriptAgent(say("understood"), say("ok"), say("noted"), say("ok"));
		await h.prompt(rule(token));
		await h.prompt("go on");
		await h.compact();
		await h.prompt("now the next part");
		await h.prompt("and then");
		await h.compact();
		await tick();

		const stored = compactionsOn(h.branch()).map((c) => c.summary);
		expect(stored).toHaveLength(2);
		for (const summary of stored) {
			expect(summary).toContain(`R1\n> ${rule("[redacted: github token]")}\n(u1)`);
			expect(leakedTokens(tokens, summary)).toEqual([]);
		}
		const prompts = h.model.calls.filter(isDiffCall).map((c) => JSON.stringify(c.context));
		expect(prompts).toHaveLength(2);
		expect(prompts[0]).toContain("[redacted: github token]");
		expect(leakedTokens(tokens, prompts.join("\n"))).toEqual([]);
		// In force after both spans: the fold of the branch keeps R1, from the user's message u1, never lifted.
		const { state } = foldEntries(h.branch());
		expect(state.rules.map((r) => [r.id, r.source])).toEqual([["R1", "u1"]]);
		expect(state.lifted).toEqual([]);

		h.model.scriptAgent(callTool("longhaul_recall", { ref: "R1" }), say("done"));
		await h.prompt("what was R1?");
		const recalled = toolResultTexts(h.branch(), "longhaul_recall").join("\n");
		expect(recalled).toContain("[redacted: github token]");
		expect(leakedTokens(tokens, recalled)).toEqual([]);

		await h.prompt("/longhaul");
		const view = h.ui.notices.at(-1)?.message ?? "";
		expect(view).toContain(`> ${rule("[redacted: github token]")}`);
		expect(leakedTokens(tokens, view)).toEqual([]);
		expect(records(log).length).toBeGreaterThan(0);
		expect(leakedTokens(tokens, JSON.stringify(records(log)))).toEqual([]);
	});
});

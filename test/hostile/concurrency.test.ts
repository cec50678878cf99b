import { describe, expect, it } from "vitest";
import { foldEntries } from "../../src/reducers/index.js";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { isDiffCall, labeler } from "../support/fake-summarizer.js";
import { longhaulSession, tick } from "../support/longhaul-session.js";
import { consistency } from "../support/passes.js";
import { type Harness, lastReply, type ModelCall, say } from "../support/pi-harness.js";

const kept = disposedAfterEach();

type Settled = "stored" | string;
const outcome = (p: Promise<unknown>): Promise<Settled> =>
	p.then(
		() => "stored",
		(error: unknown) => (error instanceof Error ? error.message : String(error)),
	);

/** The branch's compactions, and the consistency of the state folded from it. */
function summary(h: Harness) {
	const branch = h.branch();
	const folded = foldEntries(branch);
	return {
		compactions: branch.filter((e) => e.type === "compaction").length,
		spanRecords: branch.filter((e) => e.type === "custom" && e.customType === "compaction-state.span").length,
		...consistency(folded),
		rules: folded.state.rules.map((r) => r.text),
	};
}

describe("two compactions racing on one session", () => {
	it("a manual /compact during an automatic one: one compaction, a consistent state, the session goes on", async () => {
		// A context window so small that the long reply to the second prompt starts an automatic compaction.
		const h = await longhaulSession({ models: [{ id: "faux-1", contextWindow: 5400 }], reserveTokens: 2000 });
		kept(h);
		let manual: Promise<Settled> | undefined;
		const slowDiff = async (call: ModelCall) => {
			manual = outcome(h.session.compact());
			await new Promise((resolve) => setTimeout(resolve, 200));
			return labeler()(call);
		};
		h.model.scriptSide(slowDiff, ...Array.from({ length: 8 }, () => labeler()));
		h.model.scriptAgent(say("ok"), say("ok ".repeat(3000)), say("still here"));
		await h.prompt("never add dependencies");
		expect(h.branch().filter((e) => e.type === "compaction")).toHaveLength(0);
		await h.prompt("go on and write a lot");
		expect(manual).toBeDefined();
		// Which of the two pi lets land is pi's choice: pi 0.73 cancels the manual one while the automatic one runs;
		// pi 1.x's compact() aborts the running one (Longhaul's pass for it stores nothing) and then runs its own.
		const manualLands = h.pi === "1.x";
		expect(await manual).toBe(manualLands ? "stored" : "Compaction cancelled");
		await tick();
		expect(h.events.filter((e) => e.type === "compaction_start").map((e) => e.reason)).toEqual(["threshold", "manual"]);
		// The landed pass's record counts every diff call but the one the aborted pass made (pi 1.x).
		const record = h.branch().find((e) => e.type === "custom" && e.customType === "compaction-state.span");
		expect(record?.type === "custom" ? record.data : undefined).toMatchObject({
			calls: h.model.calls.filter(isDiffCall).length - (manualLands ? 1 : 0),
		});
		expect(summary(h)).toEqual({
			compactions: 1,
			spanRecords: 1,
			spans: [1],
			seqs: "strictly increasing",
			anomalies: [],
			rules: ["never add dependencies"],
		});
		// The session goes on, and the next compaction (manual, now that this tiny window would compact every turn)
		// closes span 2.
		h.session.setAutoCompactionEnabled(false);
		await h.prompt("are you there?");
		await h.compact();
		await tick();
		expect(lastReply(h.branch())).toEqual([{ type: "text", text: "still here" }]);
		expect(summary(h)).toMatchObject({ spans: [1, 2], seqs: "strictly increasing", anomalies: [] });
	});

	it("two compact() calls not awaited: one compaction, the other cancelled, and a later compaction works", async () => {
		const h = await longhaulSession();
		kept(h);
		h.model.scriptSide(labeler(), labeler(), labeler());
		h.model.scriptAgent(say("ok"), say("ok"), say("ok"), say("ok"));
		await h.prompt("never add dependencies");
		await h.prompt("next");
		const results = await Promise.all([outcome(h.session.compact()), outcome(h.session.compact())]);
		await tick();
		// pi 1.6.0's compact() reads the controller the first call cleared in its own error path, so the second
		// rejects with a TypeError of pi's instead of pi 0.73's "Compaction cancelled"; the outcome is the same.
		const refused = h.pi === "1.x" ? "Cannot read properties of undefined (reading 'signal')" : "Compaction cancelled";
		expect([...results].sort()).toEqual([refused, "stored"].sort());
		expect(summary(h)).toMatchObject({ compactions: 1, spans: [1], seqs: "strictly increasing", anomalies: [] });
		await h.prompt("always run the linter first");
		await h.prompt("more");
		await h.compact();
		await tick();
		expect(summary(h)).toEqual({
			compactions: 2,
			spanRecords: 2,
			spans: [1, 2],
			seqs: "strictly increasing",
			anomalies: [],
			rules: ["never add dependencies", "always run the linter first"],
		});
	});
});

import { describe, expect, it } from "vitest";
import { NOTHING_RECORDED, standInAnswer } from "../../src/eval/stand-in.js";
import { userMessages } from "../../src/events/messages.js";
import { entriesFromObjects } from "../../src/events/transcript.js";
import { standingRules } from "../../src/pass/reader/standing-rules.js";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { isDiffCall } from "../support/fake-summarizer.js";
import { longhaulSession } from "../support/longhaul-session.js";
import { compactionsOn, lastUserText, say } from "../support/pi-harness.js";
import { copyShared, hasShared } from "../support/shared.js";

// Each real transcript with another compactor's compaction appended (keeping its last three user turns) and one
// short turn after it; pi then cuts before that compaction. The pass must take over: the foreign summary shown, the
// standing-rule reader run on every user message before the span, and each of those asked for a label. Which
// sentences the reader picks is the reader's business: the test asks the reader itself.

const FOREIGN_SUMMARY = "Another compactor's summary of the session so far.";

const kept = disposedAfterEach();

/** The refs listed in a section of the diff prompt. */
function sectionRefs(prompt: string, title: string): string[] {
	const start = prompt.indexOf(`## ${title}`);
	if (start < 0) return [];
	const rest = prompt.slice(start).split("\n").slice(1);
	const end = rest.findIndex((line) => line.startsWith("## "));
	return (end < 0 ? rest : rest.slice(0, end)).flatMap((line) => /^\{"msg":"(u\d+)"/.exec(line)?.[1] ?? []);
}

describe.skipIf(!hasShared)("taking over when pi's cut falls before a foreign compaction", () => {
	for (const name of ["before-compaction.jsonl", "large-session.jsonl"]) {
		it(`${name}: the reader runs on the messages before the span, each is asked for a label, the span stays pi's`, async () => {
			const h = await longhaulSession({ sessionFile: copyShared(name), autoCompaction: false });
			kept(h);
			const users = userMessages(entriesFromObjects(h.branch()).entries);
			const keptFrom = users.at(-3);
			const lastUser = users.at(-1);
			if (keptFrom === undefined || lastUser === undefined) throw new Error(`${name} has fewer than three user turns`);
			const foreign = h.sessionManager.appendCompaction(FOREIGN_SUMMARY, keptFrom.entryId, 1, {}, true);
			h.model.scriptAgent(say("ok"));
			await h.prompt("thanks, carry on");
			// Enough to keep the short turn and the foreign kept window back to its last user message: the cut lands there.
			const keep = h.tokensFrom(lastUser.entryId);
			h.session.settingsManager.applyOverrides({ compaction: { keepRecentTokens: keep } });
			h.model.scriptSide((call) => standInAnswer(lastUserText(call), NOTHING_RECORDED));
			await h.compact();
			const after = h.branch();
			const compaction = compactionsOn(after).at(-1);
			expect(compaction?.firstKeptEntryId ?? "").toBe(lastUser.entryId);
			expect(after.findIndex((e) => e.id === lastUser.entryId)).toBeLessThan(after.findIndex((e) => e.id === foreign));

			const diff = h.model.calls.find(isDiffCall);
			if (diff === undefined) throw new Error("the pass made no diff call");
			const prompt = lastUserText(diff);
			expect(prompt).toContain(FOREIGN_SUMMARY);
			const before = users.slice(0, -3);
			const standing = sectionRefs(prompt, "Standing rules read from earlier messages");
			const earlier = sectionRefs(prompt, "Earlier messages");
			expect(standing).toEqual(standingRules(before).map((u) => u.ref));
			expect([...standing, ...earlier].sort()).toEqual(before.map((u) => u.ref).sort());
			expect(new Set([...standing, ...earlier]).size).toBe(before.length);
			expect(sectionRefs(prompt, "Messages to label")).toEqual(users.slice(-3, -1).map((u) => u.ref));
		});
	}
});

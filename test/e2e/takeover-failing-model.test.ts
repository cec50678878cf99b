import { describe, expect, it } from "vitest";
import { userMessages } from "../../src/events/messages.js";
import { entriesFromObjects } from "../../src/events/transcript.js";
import { foldEntries } from "../../src/reducers/fold.js";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { carefulAnswer, isDiffCall } from "../support/fake-summarizer.js";
import { longhaulSession } from "../support/longhaul-session.js";
import { fail, lastUserText, type ModelCall, say } from "../support/pi-harness.js";
import { copyShared, hasShared } from "../support/shared.js";

// large-session.jsonl in a real pi session, another compactor's compaction appended (keeping its last three user
// turns), pi's cut before it: Longhaul takes over, and the summarizer fails every call. u70 and u73 are long pastes
// of a crash with a rule sentence on top; the sentences stay in force verbatim, and the next compaction offers both
// messages for a label again, where `one-off` withdraws u73's.

const U70 = "hm, i selected the theme while you were working and got a crash, that should never happen.";
const U73 = "invalid themes must NEVER explode";

const kept = disposedAfterEach();

/** The careful labeler, but u73 labeled `one-off` and u70 `rule` with its sentence as the words. */
function relabel(call: ModelCall): string {
	const answer: unknown = JSON.parse(carefulAnswer(lastUserText(call)));
	const labels = typeof answer === "object" && answer !== null && "labels" in answer ? answer.labels : [];
	const relabeled = (Array.isArray(labels) ? labels : []).map((label: unknown) => {
		const msg = typeof label === "object" && label !== null && "msg" in label ? label.msg : undefined;
		if (msg === "u73") return { msg, label: "one-off" };
		if (msg === "u70") return { msg, label: "rule", words: U70 };
		return label;
	});
	return JSON.stringify({ labels: relabeled, narrative: "went on", now: "carry on with the work" });
}

describe.skipIf(!hasShared)("taking over large-session.jsonl with a summarizer that fails", () => {
	it("keeps u70's and u73's rule sentences verbatim, offers both again, and a `one-off` label withdraws u73's", async () => {
		const h = await longhaulSession({ sessionFile: copyShared("large-session.jsonl"), autoCompaction: false });
		kept(h);
		const users = userMessages(entriesFromObjects(h.branch()).entries);
		const keptFrom = users.at(-3);
		const lastUser = users.at(-1);
		if (keptFrom === undefined || lastUser === undefined) throw new Error("large-session.jsonl has too few user turns");
		h.sessionManager.appendCompaction("Another compactor's summary.", keptFrom.entryId, 1, {}, true);
		h.model.scriptAgent(say("ok"));
		await h.prompt("thanks, carry on");
		h.session.settingsManager.applyOverrides({ compaction: { keepRecentTokens: h.tokensFrom(lastUser.entryId) } });
		// Every summarizer call fails until the first compaction is done; the replies left over then label.
		let failing = true;
		const reply = (call: ModelCall) => (failing ? fail("503 overloaded") : relabel(call));
		h.model.scriptSide(...Array.from({ length: 8 }, () => reply));
		const first = await h.compact();
		failing = false;

		const state = foldEntries(h.branch()).state;
		expect(state.closes.at(-1)?.kind).toBe("narrative-less");
		const sentences = state.rules.filter((r) => r.source === "u70" || r.source === "u73");
		expect(sentences.map((r) => [r.source, r.text])).toEqual([
			["u70", U70],
			["u73", U73],
		]);
		expect(first.summary).toContain(U70);
		expect(first.summary).toContain(U73);

		h.model.scriptAgent(say("done"));
		await h.prompt("now the editor");
		h.session.settingsManager.applyOverrides({ compaction: { keepRecentTokens: 1 } });
		const before = h.model.calls.length;
		await h.compact();
		const diff = h.model.calls.slice(before).find(isDiffCall);
		if (diff === undefined) throw new Error("the second pass made no diff call");
		expect(lastUserText(diff)).toContain('{"msg":"u70"');
		expect(lastUserText(diff)).toContain('{"msg":"u73"');
		const after = foldEntries(h.branch()).state;
		expect(after.closes.at(-1)?.kind).toBe("whole");
		expect(after.rules.filter((r) => r.source === "u70" || r.source === "u73").map((r) => r.text)).toEqual([U70]);
		expect(after.lifted).toContainEqual({ id: sentences[1]?.id, text: U73, source: "u73", by: "u73" });
	});
});

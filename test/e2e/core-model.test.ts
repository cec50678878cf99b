import { describe, expect, it } from "vitest";
import { decodeEvent } from "../../src/events/index.js";
import { foldEntries } from "../../src/reducers/index.js";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { labeler } from "../support/fake-summarizer.js";
import type { BranchEntry } from "../support/harness-parts.js";
import { longhaulSession, tick } from "../support/longhaul-session.js";
import { callTool, type Harness, say } from "../support/pi-harness.js";
import { type SessionModel, sessionModel } from "../support/session-model.js";

// The model-based property's kind of run (test/properties/core-model.test.ts), once, in a real pi session: pi
// writes the entries, Longhaul's pass compacts, `/tree`, `/reload` and `/fork` move about; after each step the
// branch folds to the rules and notes the model predicts, ids included.

const kept = disposedAfterEach();

function userText(entry: BranchEntry): string | undefined {
	if (entry.type !== "message" || entry.message.role !== "user") return undefined;
	const content = entry.message.content;
	return typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

function rememberedNote(entry: BranchEntry): string | undefined {
	if (entry.type !== "custom" || entry.customType !== "compaction-state.event") return undefined;
	const data: unknown = entry.data;
	if (typeof data !== "object" || data === null || !("event" in data)) return undefined;
	const event = decodeEvent(data.event);
	return event._tag === "Right" && event.right.type === "note-remembered" ? event.right.data.text : undefined;
}

/** Tells the model about each entry pi appended since the last look, in branch order. */
function observe(h: Harness, m: SessionModel, seen: Set<string>): void {
	const branch = h.branch();
	branch.forEach((entry, index) => {
		if (seen.has(entry.id)) return;
		seen.add(entry.id);
		const said = userText(entry);
		const note = rememberedNote(entry);
		if (said !== undefined) m.said(entry.id, said);
		else if (note !== undefined) m.remembered(entry.id, note);
		else if (entry.type === "compaction") {
			// The kept window's user messages stay for the next span.
			const keptFrom = branch.findIndex((e) => e.id === entry.firstKeptEntryId);
			const kept = branch.slice(keptFrom < 0 ? index : keptFrom, index).filter((e) => userText(e) !== undefined);
			m.compacted(entry.id, kept.length);
		} else m.answered(entry.id);
	});
}

function expectModel(h: Harness, m: SessionModel): void {
	const { state } = foldEntries(h.branch());
	expect({ rules: state.rules, notes: state.notes, anomalies: state.anomalies }).toEqual({
		...m.current(),
		anomalies: [],
	});
}

describe("a session in real pi against the model of rules and notes in force", () => {
	it("rules, a remembered note, two compactions with a lift, a /tree move, a reload and a fork", async () => {
		const h = await longhaulSession({ persist: true });
		kept(h);
		const m = sessionModel(["alpha", "bravo"]);
		const seen = new Set<string>();
		const step = async (act: () => Promise<unknown>) => {
			await act();
			await tick();
			observe(h, m, seen);
			expectModel(h, m);
		};
		const compact = async () => {
			h.model.scriptSide(labeler(m.liftsAsked()));
			await h.compact();
		};

		h.model.scriptAgent(say("ok"), say("ok"), callTool("longhaul_remember", { note: "port 5433" }), say("noted"));
		await step(() => h.prompt("never edit alpha"));
		await step(() => h.prompt("always deploy bravo"));
		await step(() => h.prompt("keep the port in mind"));
		await step(compact);
		expect(m.current().rules.map((r) => r.id)).toEqual(["R1", "R2"]);

		h.model.scriptAgent(say("ok"), say("ok"), say("ok"));
		await step(() => h.prompt("the alpha rule is lifted"));
		await step(() => h.prompt("never deploy alpha"));
		await step(() => h.prompt("thanks"));
		await step(compact);
		expect(m.current().rules.map((r) => r.text)).toEqual(["always deploy bravo", "never deploy alpha"]);

		const back = h.branch().find((e) => e.type === "compaction")?.id ?? "";
		expect(back).not.toBe("");
		await step(async () => {
			await h.navigateTree(back);
			m.movedTo(back);
		});
		expect(m.current().rules.map((r) => r.id)).toEqual(["R1", "R2"]);
		await step(() => h.reload());
		h.model.scriptAgent(say("ok"));
		await step(() => h.prompt("go on"));
		await step(() => h.prompt("/longhaul"));
		const shown = h.ui.notices.at(-1)?.message ?? "";
		expect(shown).toContain("> never edit alpha");
		expect(shown).toContain("N1: port 5433");
		expect(shown).not.toContain("never deploy alpha");

		const secondUser = h.branch().filter((e) => userText(e) !== undefined)[1]?.id ?? "";
		await step(async () => {
			await h.fork(secondUser, { position: "at" });
			m.movedTo(secondUser);
		});
		expect(m.current()).toEqual({ rules: [], notes: [] });
	}, 300_000); // pi's /reload re-imports every extension; on a loaded machine that alone has taken half a minute.
});

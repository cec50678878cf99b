import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { expect, it } from "vitest";
import { runPass } from "../../../../src/adapters/pass/run-pass.js";
import {
	branchOf,
	decodeEvent,
	entriesFromObjects,
	readTranscript,
	type UserMessage,
	userMessages,
} from "../../../../src/events/index.js";
import { standingRules } from "../../../../src/pass/reader/standing-rules.js";
import type { State } from "../../../../src/reducers/index.js";
import { assistant, chain, type Raw, user } from "../../../support/entries.js";
import { compactionEntry, foldedAfter, passCaps, passRequest } from "../../../support/passes.js";
import { type Scripted, scriptedModel } from "../../../support/scripted-model.js";
import { copyShared, describeShared, repoRoot } from "../../../support/shared.js";

// large-session.jsonl compacted by pi's own compactor after u84 (keeping u81 on), then Longhaul takes over with a
// model that fails. u70 and u73 are long pastes of a crash (2,023 and 1,311 characters) with a rule sentence on top:
// a long message needs the rule's exact words (docs/how-it-works.md, Taking over from another compactor), none
// verified, so the reader's sentences stand for it and the message is offered for a label again.

const U70 = "hm, i selected the theme while you were working and got a crash, that should never happen.";
const U73 = "invalid themes must NEVER explode";

async function pass(branch: readonly Raw[], firstKeptEntryId: string, script: readonly Scripted[]) {
	const model = scriptedModel(script);
	const out = await runPass(passRequest(branch, firstKeptEntryId), passCaps(model));
	return { out, model };
}

/** pi's own summary at this cut, as a real model wrote it for `score`, where the recorded answers are at hand. */
function piSummary(): string {
	const path = join(repoRoot, "../shared/fixtures/model-answers/large-session/pi-compaction4.summary.md");
	return existsSync(path) ? readFileSync(path, "utf8") : "## Goal\nPort the TUI off chalk onto the theme system.";
}

/** The real session up to u84, pi's compaction keeping u81 on, and one short turn after it. */
function takenOver(): { branch: Raw[]; users: UserMessage[] } {
	const entries = branchOf(readTranscript(readFileSync(copyShared("large-session.jsonl"), "utf8")).entries).entries;
	const users = userMessages(entries);
	const [kept, next] = [users.find((u) => u.ref === "u81"), users.find((u) => u.ref === "u85")];
	if (kept === undefined || next === undefined) throw new Error("large-session.jsonl has fewer than 85 user turns");
	const before = entries
		.slice(
			0,
			entries.findIndex((e) => e.id === next.entryId),
		)
		.map((e): Raw => ({ ...e.raw, id: e.id, parentId: e.parentId }));
	const leaf = String(before.at(-1)?.id);
	const compaction: Raw = {
		type: "compaction",
		id: "p1",
		parentId: leaf,
		timestamp: "2026-01-01T00:00:00.000Z",
		summary: piSummary(),
		firstKeptEntryId: kept.entryId,
		tokensBefore: 100_000,
	};
	const after = chain([user("carry on with the footer"), assistant("ok"), user("next")], "f", "p1");
	const branch = [...before, compaction, ...after];
	return { branch, users: userMessages(entriesFromObjects(branch).entries) };
}

const sentencesOf = (state: State) => state.rules.filter((r) => r.source === "u70" || r.source === "u73");

describeShared("taking over large-session.jsonl from pi with a model that fails", () => {
	const failing: Record<string, readonly Scripted[]> = {
		throws: [new Error("provider down"), new Error("provider down"), new Error("provider down")],
		"answers garbage twice": ["Here is a summary of the session: the theme work went fine.", "Sorry — all done!"],
	};

	for (const [how, script] of Object.entries(failing)) {
		it(`a model that ${how}: u70's and u73's rule sentences are in force verbatim, and both are offered again`, async () => {
			const { branch, users } = takenOver();
			const { out } = await pass(branch, "f3", script);
			expect(out.kind).toBe("narrative-less");
			const state = foldedAfter(branch, out.details, `c${out.span}`).state;
			expect(sentencesOf(state).map((r) => [r.source, r.text])).toEqual([
				["u70", U70],
				["u73", U73],
			]);
			for (const rule of sentencesOf(state)) {
				const message = users.find((u) => u.ref === rule.source)?.text ?? "";
				expect(message.length).toBeGreaterThan(600);
				expect(message).toContain(rule.text);
			}
			expect(state.closes.at(-1)?.unlabeled.slice(-2)).toEqual(["u70", "u73"]);
		});
	}

	/** The branch after the failed takeover, Longhaul's narrative-less compaction on it, and two turns more. */
	async function afterFailure() {
		const { branch, users } = takenOver();
		const { out } = await pass(branch, "f3", failing.throws ?? []);
		const next = [
			...branch,
			compactionEntry("c1", "f3", "f3", out.details),
			...chain([assistant("ok"), user("and the editor"), assistant("done"), user("more")], "g", "c1"),
		];
		const before = foldedAfter(branch, out.details, `c${out.span}`).state;
		const picks = new Set(standingRules(users).map((u) => u.ref));
		const refs = [...users.map((u) => u.ref), "u87", "u88"];
		/** A label for every message: u70 `rule` with its sentence as words, the reader's picks `rule`, the rest `not a rule`. */
		const label = (ref: string) => {
			if (ref === "u70") return { msg: ref, label: "rule", words: U70 };
			return { msg: ref, label: picks.has(ref) ? "rule" : "not a rule" };
		};
		const answer = (u73: Record<string, string>) =>
			JSON.stringify({
				labels: refs.map((ref) => (ref === "u73" ? { msg: ref, ...u73 } : label(ref))),
				narrative: "went on with the footer",
				now: "the editor",
			});
		return { next, before, answer };
	}

	it("the next pass shows u70 and u73 for a label; `one-off` on u73 withdraws its sentence, u70's stays", async () => {
		const { next, before, answer } = await afterFailure();
		const { out, model } = await pass(next, "g4", [answer({ label: "one-off" })]);
		expect(out.kind).toBe("whole");
		expect(model.requests).toHaveLength(1);
		const prompt = model.requests[0]?.prompt ?? "";
		expect(prompt).toContain('{"msg":"u70"');
		expect(prompt).toContain('{"msg":"u73"');
		const state = foldedAfter(next, out.details, `c${out.span}`).state;
		const u73 = sentencesOf(before).find((r) => r.source === "u73");
		expect(state.lifted).toContainEqual({ id: u73?.id, text: U73, source: "u73", by: "u73" });
		expect(sentencesOf(state).map((r) => [r.source, r.text])).toEqual([["u70", U70]]);
		expect(state.closes.at(-1)?.unlabeled).toEqual([]);
	});

	it("`rule` on u73 with verified words of its own replaces the sentence: lifted, the words recorded with the fold's id", async () => {
		const { next, before, answer } = await afterFailure();
		const words = "this exploded when i restarted with -r. invalid themes must NEVER explode";
		const { out } = await pass(next, "g4", [answer({ label: "rule", words })]);
		expect(out.kind).toBe("whole");
		const state = foldedAfter(next, out.details, `c${out.span}`).state;
		const old = sentencesOf(before).find((r) => r.source === "u73");
		expect(state.lifted).toContainEqual({ id: old?.id, text: U73, source: "u73", by: "u73" });
		const added = out.details.events.flatMap((stored) => {
			const event = decodeEvent(stored.event);
			return E.isRight(event) && event.right.type === "rule-added" && event.right.data.source === "u73"
				? [event.right.data.id]
				: [];
		});
		const recorded = state.rules.find((r) => r.source === "u73");
		expect(recorded?.text).toBe(words);
		expect(added).toEqual([recorded?.id]);
		expect(recorded?.id).toBe(`R${before.next.R}`);
	});
});

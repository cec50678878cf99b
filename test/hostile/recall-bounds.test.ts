import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RECALL_CHARS, RECALL_TAIL_CHARS } from "../../src/adapters/recall/by-ref.js";
import { MAX_NOTE_CHARS } from "../../src/pass/decide/note.js";
import { foldEntries } from "../../src/reducers/index.js";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { labeler } from "../support/fake-summarizer.js";
import { longhaulSession, tick } from "../support/longhaul-session.js";
import { callBash, callTool, type Harness, say, toolResultTexts } from "../support/pi-harness.js";
import { recallResults } from "../support/recall-results.js";
import { leakedPiece, plantedKinds } from "../support/secrets.js";

// What `longhaul_recall` and `longhaul_remember` give back in a real pi session, tried as an attacker and a careless
// user would: huge messages, emoji at every cut, coloured words, a token where recall cuts.

const kept = disposedAfterEach();

/** A Longhaul session whose first turns are compacted as span 1: `setup` prompts them. */
async function compacted(setup: (h: Harness) => Promise<void>): Promise<Harness> {
	const h = await longhaulSession({ autoCompaction: false });
	kept(h);
	h.model.scriptSide(labeler());
	await setup(h);
	await h.prompt("fine, carry on");
	await h.compact();
	await tick();
	expect(h.branch().filter((e) => e.type === "compaction")).toHaveLength(1);
	return h;
}

/** The text of every recall result of one prompt that calls the tool with each of `calls`. */
async function recalled(h: Harness, calls: readonly Record<string, unknown>[]): Promise<string[]> {
	const before = recallResults(h.branch()).length;
	h.model.scriptAgent(...calls.map((args) => callTool("longhaul_recall", args)), say("done"));
	await h.prompt("look it up");
	return recallResults(h.branch()).slice(before);
}

/** True when every surrogate in the text is half of a pair. */
const wellFormed = (text: string): boolean => /^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/.test(text);

/** A fresh token for each run (no literal token in git). */
const token = () => fc.sample(plantedKinds["github token"] ?? fc.constant({ kind: "", text: "", body: "" }), 1)[0];

describe("recall answers are bounded and whole (a real pi session)", () => {
	it("a 1 MB user message recalled by u<n> comes back capped, head and tail", async () => {
		const huge = `never deploy on fridays ${"word ".repeat(200_000)}THE END`;
		const h = await compacted(async (h) => {
			h.model.scriptAgent(say("noted"));
			await h.prompt(huge);
		});
		const [byU] = await recalled(h, [{ ref: "u1" }]);
		expect(byU?.length).toBeLessThanOrEqual(RECALL_CHARS);
		expect(byU).toContain("never deploy on fridays word word");
		expect(byU?.endsWith("word THE END")).toBe(true);
		expect(byU).toMatch(/\n… \d+ characters left out …\n/);
	});

	it("emoji at every cut stay whole: the line cut, the query echo, the unknown-ref echo, the answer's head and tail", async () => {
		const emoji = "😀".repeat(4000);
		const h = await compacted(async (h) => {
			h.model.scriptAgent(say("noted"));
			await h.prompt(`kangaroo ${"🦘".repeat(300)} ${emoji}`);
		});
		const answers = await recalled(h, [
			{ ref: "u1" },
			{ query: `kangaroo ${"🦘".repeat(200)}` },
			{ ref: `Z${"🦘".repeat(100)}` },
		]);
		expect(answers).toHaveLength(3);
		for (const answer of answers) {
			expect(wellFormed(answer)).toBe(true);
			expect(answer.length).toBeLessThanOrEqual(RECALL_CHARS);
		}
		expect(answers[1]).toContain("u1 (span 1):");
		expect(answers[2]).toMatch(/^Nothing is known as "Z🦘+"/u);
	});

	it("a coloured word is found by a plain query, and an emoji query finds its passage", async () => {
		const h = await compacted(async (h) => {
			h.model.scriptAgent(say("seen"), say("seen"));
			await h.prompt("build status: \u001b[31mQUOKKAFAIL\u001b[0m on the mirror");
			await h.prompt("the deploy went 🛸 after lunch");
		});
		const [coloured, byEmoji] = await recalled(h, [{ query: "quokkafail" }, { query: "🛸" }]);
		expect(coloured?.split("\n")[1]).toBe("u1 (span 1):");
		expect(coloured).toContain("  build status: QUOKKAFAIL on the mirror");
		expect(byEmoji?.split("\n")[1]).toBe("u2 (span 1):");
		expect(byEmoji).toContain("  the deploy went 🛸 after lunch");
	});

	it("a token where recall cuts a long output is redacted whole: no piece of it is shown", async () => {
		const planted = token();
		if (planted === undefined) throw new Error("no token generated");
		// The answer keeps its head up to about RECALL_CHARS - RECALL_TAIL_CHARS: the token straddles that cut,
		// and another straddles where its tail begins.
		const head = RECALL_CHARS - RECALL_TAIL_CHARS - 120;
		const output = `${"a".repeat(head)}\n${planted.text}\n${"b".repeat(20_000)}\n${planted.text}\n${"c".repeat(RECALL_TAIL_CHARS - 20)}`;
		const h = await compacted(async (h) => {
			writeFileSync(join(h.cwd, "build.log"), output);
			h.model.scriptAgent(callBash("cat build.log"), say("it is long"));
			await h.prompt("show me the build log");
		});
		const command = foldEntries(h.branch()).state.commands.find((c) => c.command === "cat build.log");
		expect(command?.id).toBe("C1");
		const [answer] = await recalled(h, [{ ref: "C1" }, { query: "aaaa" }]);
		expect(answer).toContain("characters left out");
		expect(answer?.length).toBeLessThanOrEqual(RECALL_CHARS);
		expect(leakedPiece(recallResults(h.branch()).join("\n"), planted)).toBeUndefined();
	});
});

describe("longhaul_remember counts characters as a reader does (a real pi session)", () => {
	it(`600 emoji are one note of 600 characters; ${MAX_NOTE_CHARS + 1} emoji are refused, counted as such`, async () => {
		const h = await longhaulSession();
		kept(h);
		h.model.scriptAgent(
			callTool("longhaul_remember", { note: "🦘".repeat(600) }),
			callTool("longhaul_remember", { note: "🦘".repeat(MAX_NOTE_CHARS + 1) }),
			say("kept"),
		);
		await h.prompt("remember the kangaroos");
		expect(toolResultTexts(h.branch(), "longhaul_remember")).toEqual([
			"Remembered as N1.",
			`Nothing remembered: the note has ${MAX_NOTE_CHARS + 1} characters, over ${MAX_NOTE_CHARS}.`,
		]);
		expect(foldEntries(h.branch()).state.notes.map((n) => n.text)).toEqual(["🦘".repeat(600)]);
	});
});

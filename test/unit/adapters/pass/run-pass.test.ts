import { describe, expect, it } from "vitest";
import { type PassCapabilities, runPass } from "../../../../src/adapters/pass/run-pass.js";
import { diffAnswer, type Label, type TurnsAnswers, turnsAnswers } from "../../../support/answers.js";
import { assistant, bashCall, chain, type Raw, ruleFailFix, toolResult, user } from "../../../support/entries.js";
import {
	compactionEntry,
	foldedAfter,
	ONE_CALL_STATUSES,
	PASS_SETTINGS,
	passCaps,
	passRequest,
} from "../../../support/passes.js";
import { type Scripted, scriptedConversationModel, scriptedModel } from "../../../support/scripted-model.js";

function caps(script: readonly Scripted[], options: { maxTokens?: number; contextWindow?: number } = {}) {
	const model = scriptedModel(script, options);
	const statuses: (string | undefined)[] = [];
	const capabilities: PassCapabilities = { ...passCaps(model), status: (text) => statuses.push(text) };
	return { model, statuses, capabilities };
}

/** The labels of a turns-mode conversation over a branch whose first message gives a rule and whose second does not. */
const FIRST_A_RULE: readonly Label[] = [
	{ msg: "u1", label: "rule" },
	{ msg: "u2", label: "not a rule" },
];

/** A turns-mode pass over `branch` to `firstKeptEntryId`, its conversation answering `answers`. */
async function turnsPass(branch: readonly Raw[], firstKeptEntryId: string, answers: TurnsAnswers) {
	const model = scriptedConversationModel(turnsAnswers(answers));
	const capabilities: PassCapabilities = { ...caps([]).capabilities, model };
	const turns = passRequest(branch, firstKeptEntryId, { ...PASS_SETTINGS, narrativeMode: "turns" });
	return { model, out: await runPass(turns, capabilities) };
}

const span1 = chain(ruleFailFix());

const goodAnswer = JSON.stringify({
	labels: [
		{ msg: "u1", label: "rule" },
		{ msg: "u2", label: "not a rule" },
	],
	decisions: [{ text: "kept the test runner", evidence: ["C2", "C99"] }],
	narrative: "fixed the failing tests",
	now: "next part",
});

describe("runPass", () => {
	it("a verified answer closes the span whole: the rule verbatim, ledger ids, fixes, summary and details", async () => {
		const { model, capabilities } = caps([goodAnswer]);
		const out = await runPass(passRequest(span1, "e8"), capabilities);
		expect(model.requests).toHaveLength(1);
		expect(out.kind).toBe("whole");
		expect(out.summary).toContain("> never add dependencies");
		expect(out.summary).toContain("fixed the failing tests");
		expect(out.details).toMatchObject({ stateFormat: 1, longhaul: true, span: 1 });
		expect(out.details.events.map((e) => e.seq)).toEqual(out.details.events.map((_, i) => i + 1));
		const folded = foldedAfter(span1, out.details);
		expect(folded.state.rules).toEqual([{ id: "R1", text: "never add dependencies", source: "u1" }]);
		expect(folded.state.decisions[0]?.evidence).toEqual(["C2"]);
		expect(folded.state.errors).toMatchObject([{ id: "E1", command: "C1", fixedBy: "C2" }]);
		expect(out.dropped["unknown-evidence"]).toBe(1);
		expect(folded.state.closes).toEqual([{ span: 1, kind: "whole", unlabeled: [], reason: null }]);
	});

	it("the prompt shows each user message whole up to 240 characters and cuts a longer one with an ellipsis", async () => {
		const long = `please ${"x".repeat(300)}`;
		const branch = chain([user("short one"), user(long), user("kept")]);
		const { model, capabilities } = caps([goodAnswer]);
		await runPass(passRequest(branch, "e3"), capabilities);
		const prompt = model.requests[0]?.prompt ?? "";
		expect(prompt).toContain(JSON.stringify({ msg: "u1", text: "short one" }));
		expect(prompt).toContain(JSON.stringify({ msg: "u2", text: `${long.slice(0, 240)}…` }));
		expect(prompt).not.toContain('"msg":"u3"');
	});

	it("an unlabeled message costs exactly one retry, with a note that names it", async () => {
		const partial = diffAnswer([{ msg: "u1", label: "rule" }], { narrative: "n", now: "w" });
		const { model, capabilities } = caps([partial, goodAnswer]);
		const out = await runPass(passRequest(span1, "e8"), capabilities);
		expect(model.requests).toHaveLength(2);
		expect(model.requests[1]?.prompt).toContain("u2");
		expect(out.calls.map((c) => c.purpose)).toEqual(["diff", "retry"]);
		expect(out.kind).toBe("whole");
	});

	it("a parsed answer is kept while the retry runs: a worse retry does not replace it", async () => {
		const partial = diffAnswer([{ msg: "u1", label: "rule" }], { narrative: "first", now: "w" });
		const { capabilities } = caps([partial, "not json at all"]);
		const out = await runPass(passRequest(span1, "e8"), capabilities);
		expect(out.kind).toBe("whole");
		expect(out.summary).toContain("> never add dependencies");
		expect(out.summary).toContain("first");
		const close = out.details.events.at(-1)?.event;
		expect(close).toMatchObject({ type: "span-closed", data: { unlabeled: ["u2"] } });
	});

	it("an answer cut at the output limit is retried with twice the budget, at least 8192, never past maxTokens", async () => {
		const cut = { text: '{"labels": [', stopReason: "length" };
		const { model, capabilities } = caps([cut, goodAnswer], { maxTokens: 10_000 });
		const out = await runPass(passRequest(span1, "e8"), capabilities);
		expect(model.requests.map((r) => r.maxTokens)).toEqual([4096, 8192]);
		expect(out.calls.map((c) => c.purpose)).toEqual(["diff", "raised"]);
		const capped = caps([cut, goodAnswer], { maxTokens: 6000 });
		await runPass(passRequest(span1, "e8"), capped.capabilities);
		expect(capped.model.requests.map((r) => r.maxTokens)).toEqual([4096, 6000]);
	});

	it("a model that fails every call closes the span narrative-less: ledger and World still land, messages carried", async () => {
		const { capabilities } = caps([new Error("boom")]);
		const out = await runPass(passRequest(span1, "e8"), capabilities);
		expect(out.kind).toBe("narrative-less");
		expect(out.reason).toBe("model-threw:Error");
		const folded = foldedAfter(span1, out.details);
		expect(folded.state.rules).toEqual([]);
		expect(folded.state.commands.map((c) => c.id)).toEqual(["C1", "C2"]);
		expect(folded.state.workLog).toEqual([{ span: 1, text: "(narrative-less: model-threw:Error)" }]);
		expect(folded.state.closes[0]).toMatchObject({ kind: "narrative-less", unlabeled: ["u1", "u2"] });
	});

	it("the next pass offers the carried messages whole and records a rule given there one pass late", async () => {
		const first = await runPass(passRequest(span1, "e8"), caps([new Error("boom")]).capabilities);
		const later = chain([assistant("working"), user("and keep going"), assistant("ok"), user("more")], "f", "c1");
		const branch = [...span1, compactionEntry("c1", "e8", "e8", first.details), ...later];
		const answer = JSON.stringify({
			labels: [
				{ msg: "u1", label: "rule" },
				{ msg: "u2", label: "not a rule" },
				{ msg: "u3", label: "not a rule" },
				{ msg: "u4", label: "not a rule" },
			],
			narrative: "kept going",
			now: "more",
		});
		const second = caps([answer]);
		const out = await runPass(passRequest(branch, "f4"), second.capabilities);
		expect(second.model.requests[0]?.prompt).toContain(JSON.stringify({ msg: "u1", text: "never add dependencies" }));
		const folded = foldedAfter(branch, out.details, "c2");
		expect(folded.state.rules).toEqual([{ id: "R1", text: "never add dependencies", source: "u1" }]);
		expect(folded.state.commands.map((c) => c.id)).toEqual(["C1", "C2"]);
	});

	it("an aborted compaction rejects instead of closing a span", async () => {
		const controller = new AbortController();
		const { capabilities } = caps([goodAnswer]);
		controller.abort();
		await expect(runPass(passRequest(span1, "e8", PASS_SETTINGS, controller.signal), capabilities)).rejects.toThrow();
	});

	it("a span too large for one call is chunked, and a chunk that never verifies closes the span partial, carried whole", async () => {
		const many = chain(
			Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? user(`message ${i} ${"y".repeat(400)}`) : assistant("ok"))),
		);
		const labelAll = (from: number, to: number) =>
			JSON.stringify({
				labels: Array.from({ length: to - from + 1 }, (_, i) => ({ msg: `u${from + i}`, label: "not a rule" })),
				narrative: "part",
				now: "n",
			});
		const { model, capabilities } = caps([labelAll(1, 10), new Error("down")], { contextWindow: 9000 });
		const out = await runPass(passRequest(many, "e40", { ...PASS_SETTINGS, maxChunks: 2 }), capabilities);
		expect(out.chunks).toBe(2);
		expect(model.requests[0]?.prompt).toContain("(chunk 1 of 2)");
		expect(out.kind).toBe("partial");
		const folded = foldedAfter(many, out.details);
		expect(folded.state.closes[0]?.kind).toBe("partial");
		expect(folded.state.closes[0]?.unlabeled).toHaveLength(20);
	});

	it("starts taking the World before the span is redacted, so git runs beside the redaction", async () => {
		const { capabilities } = caps([goodAnswer]);
		const order: string[] = [];
		const world = { taken: false, reason: "not a git repository" } as const;
		let redacted: () => void = () => undefined;
		const redactionDone = new Promise<void>((resolve) => {
			redacted = resolve;
		});
		const out = await runPass(passRequest(span1, "e8"), {
			...capabilities,
			takeWorld: async () => {
				order.push("world started");
				await redactionDone;
				order.push("world taken");
				return world;
			},
			redact: async (texts) => {
				order.push("redaction started");
				const done = await capabilities.redact(texts);
				order.push("redaction done");
				redacted();
				return done;
			},
		});
		expect(order).toEqual(["world started", "redaction started", "redaction done", "world taken"]);
		expect(out.world).toBe(world);
	});

	it("the footer status names each step and the diff call, and is cleared at the end", async () => {
		const { statuses, capabilities } = caps([goodAnswer]);
		await runPass(passRequest(span1, "e8"), capabilities);
		expect(statuses).toEqual(ONE_CALL_STATUSES);
	});
});

describe("runPass in turns mode", () => {
	it("runs the gated conversation instead of the single call, and closes whole with its events", async () => {
		const { model, out } = await turnsPass(span1, "e8", {
			narrative: "fixed the failing tests",
			objective: "green tests",
			labels: FIRST_A_RULE,
			findings: [{ decisions: [], deadEnds: [], openErrors: [] }],
			now: "next part",
		});
		expect(model.sent).toHaveLength(5);
		expect(out.kind).toBe("whole");
		expect(out.calls).toHaveLength(5);
		const folded = foldedAfter(span1, out.details);
		expect(folded.state.rules).toEqual([{ id: "R1", text: "never add dependencies", source: "u1" }]);
		expect(folded.state.objective).toBe("green tests");
		expect(folded.state.now).toBe("next part");
	});
});

describe("runPass in turns mode, excused expectations", () => {
	it("keeps an excused expectation in the span record it returns", async () => {
		const branch = chain([
			user("never add dependencies"),
			bashCall("t1", "npm run lint"),
			toolResult("t1", "1 problem\nCommand exited with code 1", true),
			assistant("lint fails in vendored code"),
			user("next"),
		]);
		const reason = "The lint error is in vendored code this span never touched.";
		const { out } = await turnsPass(branch, "e5", {
			narrative: "looked at the lint output",
			objective: "clean lint",
			labels: FIRST_A_RULE,
			findings: [
				{ decisions: [], deadEnds: [] },
				{ decisions: [], deadEnds: [], excuse: reason },
			],
			now: "fix the vendored lint config",
		});
		expect(out.spanRecord.excused).toEqual([{ check: "unfixed-error-placed", reason }]);
		expect(out.mode).toBe("turns");
	});
});

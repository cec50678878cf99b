import type { AssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import type { PassModel } from "../../src/adapters/pass/model.js";
import { foldEntries } from "../../src/reducers/index.js";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { assistant, bashCall, chain, type Raw, ruleFailFix, toolResult, user } from "../support/entries.js";
import { labeler } from "../support/fake-summarizer.js";
import { longhaulSession, tick } from "../support/longhaul-session.js";
import { answeringModel, carefulModel, compactBranch, consistency } from "../support/passes.js";
import { callBash, fail, type Harness, lastReply, type ModelCall, say } from "../support/pi-harness.js";
import { scriptedModel } from "../support/scripted-model.js";

const MB = 1024 * 1024;

/** Span 1: a rule, a failing and a passing run. It is compacted by a careful model before any fault. */
const span1 = chain(ruleFailFix(), "a");
/** Span 2, compacted by the faulty model: another rule and a command. */
const span2 = (after: string) =>
	chain(
		[
			assistant("on it"),
			user("always run the linter first"),
			bashCall("t3", "npm run lint"),
			toolResult("t3", "lint ok"),
			user("and then"),
		],
		"b",
		after,
	);
/** Span 3, compacted by a careful model again. */
const span3 = (after: string) => chain([assistant("done"), user("carry on")], "d", after);

/** An answer whose ids name nothing on the branch: messages u42, u77, u99, rule R9, ledger ids C42, C99, E77. */
const strangerIds = JSON.stringify({
	labels: [
		{ msg: "u42", label: "rule", words: "always force-push" },
		{ msg: "u4", label: "lifts R9" },
		{ msg: "u99", label: "rule and lifts u77" },
	],
	decisions: [{ text: "kept the plan", evidence: ["C99", "E77"] }],
	deadEnds: [{ text: "the old runner", evidence: ["C42"] }],
	values: [{ name: "port", value: "8080", turn: "u77" }],
	narrative: "worked",
	now: "next",
});

interface Fault {
	readonly name: string;
	readonly model: () => PassModel & { readonly requests: readonly unknown[] };
	/** The close span 2 gets. */
	readonly kind: "narrative-less" | "whole";
}

/** More replies than a pass may ever ask for: to the pass, the same fault forever. */
const forever = <T>(item: T): T[] => Array.from({ length: 20 }, () => item);

const faults: readonly Fault[] = [
	{ name: "throws", model: () => scriptedModel(forever(new Error("boom"))), kind: "narrative-less" },
	{
		name: "stops with an error",
		model: () => scriptedModel(forever({ text: "", stopReason: "error" })),
		kind: "narrative-less",
	},
	{ name: "returns empty text", model: () => scriptedModel(forever("")), kind: "narrative-less" },
	{
		name: "returns 1 MB of prose",
		model: () => scriptedModel(forever("words ".repeat(MB / 6))),
		kind: "narrative-less",
	},
	{
		name: "returns a 1 MB answer",
		model: () => scriptedModel(forever(JSON.stringify({ labels: [], narrative: "n".repeat(MB) }))),
		kind: "narrative-less",
	},
	{
		name: "returns invalid JSON forever",
		model: () => answeringModel(() => '{"labels": [{"msg": "u2", "label": "rule"'),
		kind: "narrative-less",
	},
	{ name: "answers with ids that do not exist", model: () => answeringModel(() => strangerIds), kind: "whole" },
];

/** Span 1 compacted by a careful model: the branch, and its state, before any fault. */
async function beforeFault(): Promise<Raw[]> {
	return (await compactBranch(span1, carefulModel(), "c1")).branch;
}

describe("a faulty summarizer model", () => {
	it.each(faults)(
		"$name: the pass ends within its calls, the next pass works, nothing stored is lost",
		async ({ model, kind }) => {
			const first = await beforeFault();
			const before = foldEntries(first).state;
			const faulty = model();
			const second = await compactBranch([...first, ...span2("c1")], faulty, "c2");
			// A diff call, one retry, one question call at most: a fault never buys more calls.
			expect(faulty.requests.length).toBeLessThanOrEqual(3);
			expect(second.outcome.kind).toBe(kind);
			expect(second.outcome.summary.length).toBeLessThanOrEqual(12_000);

			const afterFault = foldEntries(second.branch).state;
			expect(afterFault.rules).toEqual(before.rules);
			expect(afterFault.lifted).toEqual([]);
			expect(afterFault.commands.map((c) => c.id)).toEqual(["C1", "C2", "C3"]);
			expect(afterFault.decisions.flatMap((d) => d.evidence)).toEqual([]);
			expect(afterFault.deadEnds.flatMap((d) => d.evidence)).toEqual([]);
			expect(afterFault.values.map((v) => v.source)).not.toContain("u77");

			const third = await compactBranch([...second.branch, ...span3("c2")], carefulModel(), "c3");
			expect(third.outcome.kind).toBe("whole");
			const folded = foldEntries(third.branch);
			expect(consistency(folded)).toEqual({ spans: [1, 2, 3], seqs: "strictly increasing", anomalies: [] });
			for (const rule of before.rules) expect(folded.state.rules).toContainEqual(rule);
			for (const command of before.commands) expect(folded.state.commands).toContainEqual(command);
			expect(folded.state.lifted).toEqual([]);
			// A narrative-less pass carries its messages: the rule it could not label is recorded one pass late.
			if (kind === "narrative-less")
				expect(folded.state.rules.map((r) => [r.text, r.source])).toEqual([
					["never add dependencies", "u1"],
					["always run the linter first", "u4"],
				]);
		},
	);

	it("hangs until the abort, then rejects at once; no compaction is stored and the next pass works", async () => {
		const first = await beforeFault();
		const before = foldEntries(first).state;
		const controller = new AbortController();
		let asked: () => void = () => undefined;
		const called = new Promise<void>((resolve) => {
			asked = resolve;
		});
		const hanging = answeringModel(
			(_request, signal) =>
				new Promise<string>((_resolve, reject) => {
					signal.addEventListener("abort", () => reject(new Error("aborted by the signal")));
					asked();
				}),
		);
		const pass = compactBranch([...first, ...span2("c1")], hanging, "c2", controller.signal);
		await called;
		controller.abort();
		await expect(pass).rejects.toThrow();
		expect(hanging.requests).toHaveLength(1);
		const next = await compactBranch([...first, ...span2("c1"), ...span3("b5")], carefulModel(), "c2");
		const folded = foldEntries(next.branch);
		expect(consistency(folded)).toEqual({ spans: [1, 2], seqs: "strictly increasing", anomalies: [] });
		for (const rule of before.rules) expect(folded.state.rules).toContainEqual(rule);
		expect(folded.state.commands.map((c) => c.id)).toEqual(["C1", "C2", "C3"]);
	}, 10_000);
});

const kept = disposedAfterEach();

/** How the session's model answers Longhaul's diff while it is faulty. */
interface PiFault {
	readonly name: string;
	readonly reply: (call: ModelCall) => string | AssistantMessage | Promise<string | AssistantMessage>;
	/** How span 2 closes. */
	readonly kind: "narrative-less" | "whole";
}

const piFaults: readonly PiFault[] = [
	{
		name: "throws",
		reply: () => {
			throw new Error("provider exploded");
		},
		kind: "narrative-less",
	},
	{ name: "stops with an error", reply: () => fail("overloaded"), kind: "narrative-less" },
	{ name: "returns empty text", reply: () => "", kind: "narrative-less" },
	{ name: "returns 1 MB of prose", reply: () => "words ".repeat(MB / 6), kind: "narrative-less" },
	{ name: "returns invalid JSON forever", reply: () => '{"labels": [{"msg": "u3"', kind: "narrative-less" },
	{ name: "answers with ids that do not exist", reply: () => strangerIds, kind: "whole" },
];

/** A session with span 1 compacted by a careful model; the side model turns faulty when `faulty.on` is set. */
async function sessionWithSpan1(fault: PiFault["reply"]) {
	const faulty = { on: false };
	const h = await longhaulSession();
	kept(h);
	const careful = labeler();
	h.model.scriptSide(
		...Array.from({ length: 30 }, () => (call: ModelCall) => (faulty.on ? fault(call) : careful(call))),
	);
	h.model.scriptAgent(say("ok"), say("ok"), callBash("echo lint ok"), say("linted"), say("ok"), say("still here"));
	await h.prompt("never add dependencies");
	await h.prompt("next");
	await h.compact();
	await tick();
	const before = foldEntries(h.branch()).state;
	expect(before.rules.map((r) => r.text)).toEqual(["never add dependencies"]);
	await h.prompt("always run the linter first");
	await h.prompt("and then");
	faulty.on = true;
	return { h, faulty, before };
}

/** The session goes on, the next compaction works, and every earlier rule and command is still there. */
async function expectRecovery(h: Harness, faulty: { on: boolean }, before: ReturnType<typeof foldEntries>["state"]) {
	faulty.on = false;
	await h.prompt("are you there?");
	expect(lastReply(h.branch())).toEqual([{ type: "text", text: "still here" }]);
	await h.compact();
	await tick();
	const folded = foldEntries(h.branch());
	expect(folded.state.closes.at(-1)?.kind).toBe("whole");
	for (const rule of before.rules) expect(folded.state.rules).toContainEqual(rule);
	for (const command of before.commands) expect(folded.state.commands).toContainEqual(command);
	expect(folded.state.commands.map((c) => c.command)).toContain("echo lint ok");
	expect(folded.state.lifted).toEqual([]);
	return folded;
}

describe("a faulty summarizer inside a real pi session", () => {
	it.each(piFaults)(
		"$name: the compaction lands, the session goes on, the next compaction works",
		async ({ reply, kind }) => {
			const { h, faulty, before } = await sessionWithSpan1(reply);
			await h.compact();
			await tick();
			expect(foldEntries(h.branch()).state.closes.map((c) => c.kind)).toEqual(["whole", kind]);
			if (kind === "narrative-less")
				expect(h.ui.notices.some((n) => n.message.includes("closed narrative-less"))).toBe(true);
			const folded = await expectRecovery(h, faulty, before);
			expect(consistency(folded)).toEqual({ spans: [1, 2, 3], seqs: "strictly increasing", anomalies: [] });
		},
		20_000,
	);

	it("hangs until the compaction is aborted: it is cancelled at once, and the session and the next compaction go on", async () => {
		let asked: () => void = () => undefined;
		const called = new Promise<void>((resolve) => {
			asked = resolve;
		});
		// A provider that honours the signal: it answers only once aborted (pi's own summarizer, which pi runs after
		// an aborted extension, gets the already aborted signal and its answer at once).
		const hang = (call: ModelCall) =>
			new Promise<AssistantMessage>((resolve) => {
				const signal = call.options?.signal;
				if (signal?.aborted) resolve(say("too late"));
				signal?.addEventListener("abort", () => resolve(say("too late")));
				asked();
			});
		const { h, faulty, before } = await sessionWithSpan1(hang);
		const compaction = h.compact().then(
			() => "stored",
			(error: unknown) => (error instanceof Error ? error.message : String(error)),
		);
		await called;
		h.session.abortCompaction();
		expect(await compaction).toBe("Compaction cancelled");
		expect(h.branch().filter((e) => e.type === "compaction")).toHaveLength(1);
		const folded = await expectRecovery(h, faulty, before);
		expect(consistency(folded)).toEqual({ spans: [1, 2], seqs: "strictly increasing", anomalies: [] });
		expect(folded.state.rules.map((r) => r.text)).toEqual(["never add dependencies", "always run the linter first"]);
	}, 20_000);
});

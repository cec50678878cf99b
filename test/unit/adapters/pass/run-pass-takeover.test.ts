import { readFileSync } from "node:fs";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { type PassCapabilities, runPass } from "../../../../src/adapters/pass/run-pass.js";
import { branchOf, decodeEvent, readTranscript, userMessages } from "../../../../src/events/index.js";
import { diffAnswer, labeled, labelsOnly } from "../../../support/answers.js";
import { assistant, bashCall, chain, piCompaction, type Raw, toolResult, user } from "../../../support/entries.js";
import { compactionEntry, foldedAfter, PASS_SETTINGS, passCaps, passRequest } from "../../../support/passes.js";
import { type Scripted, scriptedModel } from "../../../support/scripted-model.js";
import { copyShared, describeShared } from "../../../support/shared.js";

function caps(script: readonly Scripted[], options: { contextWindow?: number } = {}) {
	const model = scriptedModel(script, options);
	return { model, capabilities: passCaps(model) };
}

/** A pass over `branch` to f3, its model answering `script` in turn. */
function passOn(branch: readonly Raw[], ...script: readonly Scripted[]) {
	return runPass(passRequest(branch, "f3"), caps(script).capabilities);
}

/** `before`, then pi's compaction p1 of it with `summary` (keeping from its last entry), then a user going on: f1 to f3. */
function afterPi(before: readonly Raw[], summary: string): Raw[] {
	const last = String(before.at(-1)?.id);
	return [
		...before,
		piCompaction("p1", last, last, summary),
		...chain([user("go on"), assistant("ok"), user("next")], "f", "p1"),
	];
}

/** The state after the pass: the branch with the pass's compaction appended. */
function stateAfter(branch: readonly Raw[], details: unknown) {
	return foldedAfter(branch, details, "after").state;
}

/** The rules after the pass, each as its text and the message it came from. */
function rulesAfter(branch: readonly Raw[], details: unknown) {
	return stateAfter(branch, details).rules.map((r) => [r.text, r.source]);
}

/** A user saying each of `said` in turn, each answered "ok", then pi's compaction "summary" of it ({@link afterPi}). */
function afterPiOf(...said: readonly string[]): Raw[] {
	return afterPi(chain(said.flatMap((text) => [user(text), assistant("ok")])), "summary");
}

/**
 * u1 "never use tabs" (read as a standing rule), u2 its lift; pi compacts keeping e4; then the span holds u3.
 * The pass's firstKeptEntryId is f3, so the span is e4 … f2.
 */
function liftedBeforePi(): Raw[] {
	const before = chain([user("never use tabs"), assistant("ok"), user("the tabs rule is lifted"), assistant("fine")]);
	const pi = piCompaction("p1", "e4", "e4", "The user set up the project. Tabs were discussed.");
	const after = chain([user("carry on with the parser"), assistant("done"), user("next")], "f", "p1");
	return [...before, pi, ...after];
}

describe("runPass taking over from another compactor", () => {
	it("shows the foreign summary head and tail and asks the model to carry forward what it still holds", async () => {
		const summary = `HEAD-OF-SUMMARY ${"middle words ".repeat(600)} TAIL-OF-SUMMARY`;
		const branch = afterPi(chain([user("hello"), assistant("hi")]), summary);
		const { model, capabilities } = caps([diffAnswer(labeled("not a rule", "u1", "u2"))]);
		await runPass(passRequest(branch, "f3"), capabilities);
		const prompt = model.requests[0]?.prompt ?? "";
		expect(prompt).toContain("Earlier summary by another compactor");
		expect(prompt).toContain("carry forward what it still holds");
		expect(prompt).toContain("HEAD-OF-SUMMARY");
		expect(prompt).toContain("TAIL-OF-SUMMARY");
		expect(prompt.length).toBeLessThan(summary.length);
	});

	it("after a Longhaul compaction there is no takeover: no summary and no earlier messages", async () => {
		const span1 = chain([user("never use tabs"), assistant("ok"), user("next")]);
		const first = await runPass(
			passRequest(span1, "e3"),
			caps([diffAnswer([{ msg: "u1", label: "rule" }])]).capabilities,
		);
		const branch = [
			...span1,
			compactionEntry("c1", "e3", "e3", first.details),
			...chain([user("go on"), assistant("ok"), user("more")], "f", "c1"),
		];
		const { model, capabilities } = caps([diffAnswer(labeled("not a rule", "u2", "u3"))]);
		await runPass(passRequest(branch, "f3"), capabilities);
		const prompt = model.requests[0]?.prompt ?? "";
		expect(prompt).not.toContain("Earlier summary by another compactor");
		expect(prompt).not.toContain('"msg":"u1"');
	});

	it("a rule lifted before the foreign compaction is not carried", async () => {
		const branch = liftedBeforePi();
		const { model, capabilities } = caps([
			diffAnswer([{ msg: "u2", label: "lifts u1" }, ...labeled("not a rule", "u3")]),
		]);
		const out = await runPass(passRequest(branch, "f3"), capabilities);
		expect(model.requests).toHaveLength(1);
		expect(out.kind).toBe("whole");
		const state = stateAfter(branch, out.details);
		expect(state.rules.map((r) => r.text)).not.toContain("never use tabs");
		expect(state.lifted).toMatchObject([{ text: "never use tabs", source: "u1", by: "u2" }]);
	});

	it("an earlier message left unlabeled costs a retry: the lift the model omitted is asked for again", async () => {
		const branch = liftedBeforePi();
		const { model, capabilities } = caps([
			diffAnswer(labeled("not a rule", "u3")),
			diffAnswer([{ msg: "u2", label: "lifts u1" }, ...labeled("not a rule", "u3")]),
		]);
		const out = await runPass(passRequest(branch, "f3"), capabilities);
		expect(out.calls.map((c) => c.purpose)).toEqual(["diff", "retry"]);
		expect(model.requests[1]?.prompt).toContain("u2 has no label");
		expect(stateAfter(branch, out.details).rules).toEqual([]);
	});

	it("the reader's picks are recorded when the pass closes narrative-less, and the messages are carried", async () => {
		const branch = liftedBeforePi();
		const out = await passOn(branch, new Error("boom"));
		expect(out.kind).toBe("narrative-less");
		const state = stateAfter(branch, out.details);
		expect(state.rules).toEqual([{ id: "R1", text: "never use tabs", source: "u1" }]);
		expect(state.closes[0]).toMatchObject({ kind: "narrative-less", unlabeled: ["u1", "u2", "u3"] });
	});

	it("the picks are recorded with no model at all", async () => {
		const branch = liftedBeforePi();
		const capabilities: PassCapabilities = { ...caps([]).capabilities, model: undefined };
		const out = await runPass(passRequest(branch, "f3"), capabilities);
		expect(out.kind).toBe("narrative-less");
		expect(stateAfter(branch, out.details).rules.map((r) => r.source)).toEqual(["u1"]);
	});

	it("a pick recorded narrative-less is withdrawn later like any correction: by a lift, or by a one-off label", async () => {
		const branch = liftedBeforePi();
		const first = await passOn(branch, new Error("boom"));
		const next = [
			...branch,
			compactionEntry("c1", "f3", "f3", first.details),
			...chain([user("and the lexer"), assistant("ok"), user("more")], "g", "c1"),
		];
		const lifted = await runPass(
			passRequest(next, "g3"),
			caps([
				diffAnswer([
					{ msg: "u1", label: "rule" },
					{ msg: "u2", label: "lifts u1" },
					...labeled("not a rule", "u3", "u4", "u5"),
				]),
			]).capabilities,
		);
		const afterLift = stateAfter(next, lifted.details);
		expect(afterLift.rules).toEqual([]);
		expect(afterLift.lifted).toMatchObject([{ id: "R1", source: "u1", by: "u2" }]);
		const oneOff = await runPass(
			passRequest(next, "g3"),
			caps([diffAnswer([{ msg: "u1", label: "one-off" }, ...labeled("not a rule", "u2", "u3", "u4", "u5")])])
				.capabilities,
		);
		const afterOneOff = stateAfter(next, oneOff.details);
		expect(afterOneOff.rules).toEqual([]);
		expect(afterOneOff.lifted).toMatchObject([{ id: "R1", source: "u1", by: "u1" }]);
	});

	it("taking over again, a pick recorded narrative-less stays in force under a `not a rule` label; `one-off` withdraws it", async () => {
		const branch = liftedBeforePi();
		const first = await passOn(branch, new Error("boom"));
		const next = [
			...branch,
			compactionEntry("c1", "f3", "f3", first.details),
			...chain([user("and the lexer"), assistant("ok")], "g", "c1"),
			piCompaction("p2", "g2", "g2", "pi's summary"),
			...chain([user("more"), assistant("ok"), user("next")], "h", "p2"),
		];
		const kept = await runPass(
			passRequest(next, "h3"),
			caps([diffAnswer(labeled("not a rule", "u1", "u2", "u3", "u4", "u5", "u6"))]).capabilities,
		);
		const afterNotRule = stateAfter(next, kept.details);
		expect(afterNotRule.rules).toMatchObject([{ id: "R1", text: "never use tabs", source: "u1" }]);
		expect(afterNotRule.lifted).toEqual([]);
		const oneOff = await runPass(
			passRequest(next, "h3"),
			caps([diffAnswer([{ msg: "u1", label: "one-off" }, ...labeled("not a rule", "u2", "u3", "u4", "u5", "u6")])])
				.capabilities,
		);
		expect(stateAfter(next, oneOff.details).lifted).toMatchObject([{ id: "R1", source: "u1", by: "u1" }]);
	});

	it("a pick over 600 characters is recorded from a label's exact words, else from the reader's sentences, never whole", async () => {
		const pasted = `${"we went over the build output at length today. ".repeat(16)}Never commit generated files.`;
		expect(pasted.length).toBeGreaterThan(600);
		const branch = afterPiOf(pasted);
		const sentence = [["Never commit generated files.", "u1"]];
		const rulesOf = (out: { details: unknown }) => rulesAfter(branch, out.details);
		const closeOf = (out: { details: unknown }) => stateAfter(branch, out.details).closes[0];
		const narrativeLess = await passOn(branch, new Error("boom"));
		expect(rulesOf(narrativeLess)).toEqual(sentence);
		const unlabeled = await passOn(branch, diffAnswer(labeled("not a rule", "u2", "u3")));
		expect(rulesOf(unlabeled)).toEqual(sentence);
		expect(closeOf(unlabeled)).toMatchObject({ kind: "whole", unlabeled: ["u1"] });
		const inside = await passOn(
			branch,
			diffAnswer([
				{ msg: "u1", label: "rule", words: "ever commit generated files." },
				...labeled("not a rule", "u2", "u3"),
			]),
		);
		expect(inside.calls).toHaveLength(1);
		expect(rulesOf(inside)).toEqual(sentence);
		expect(closeOf(inside)).toMatchObject({ kind: "whole", unlabeled: ["u1"] });
		const exact = await passOn(
			branch,
			diffAnswer([{ msg: "u1", label: "rule", words: "Never commit generated" }, ...labeled("not a rule", "u2", "u3")]),
		);
		expect(rulesOf(exact)).toEqual([["Never commit generated", "u1"]]);
		expect(closeOf(exact)).toMatchObject({ kind: "whole", unlabeled: [] });
	});

	it("a chunk that never verifies still leaves the picks it offered recorded (partial close)", async () => {
		const before = chain([user("never push to main"), assistant("ok")]);
		const many = Array.from({ length: 30 }, (_, i) =>
			i % 2 === 0 ? user(`step ${i} ${"y".repeat(400)}`) : assistant("ok"),
		);
		const branch = [...before, piCompaction("p1", "e2", "e2", "summary"), ...chain(many, "f", "p1")];
		const labelAll = JSON.stringify({
			labels: Array.from({ length: 8 }, (_, i) => ({ msg: `u${9 + i}`, label: "not a rule" })),
			narrative: "second half",
			now: "n",
		});
		const { capabilities } = caps([new Error("down"), labelAll], { contextWindow: 9000 });
		const out = await runPass(passRequest(branch, "f30", { ...PASS_SETTINGS, maxChunks: 2 }), capabilities);
		expect(out.chunks).toBe(2);
		expect(out.kind).toBe("partial");
		expect(stateAfter(branch, out.details).rules).toMatchObject([{ text: "never push to main", source: "u1" }]);
	});

	it("only a one-off label keeps a pick from being recorded; a not-a-rule or no label leaves it recorded", async () => {
		const branch = afterPiOf("never deploy on a Friday", "always use the staging db", "never force-push");
		const { capabilities } = caps([
			diffAnswer([{ msg: "u1", label: "one-off" }, { msg: "u2", label: "not a rule" }, ...labeled("not a rule", "u4")]),
		]);
		const out = await runPass(passRequest(branch, "f3"), capabilities);
		expect(out.calls).toHaveLength(1);
		expect(rulesAfter(branch, out.details)).toEqual([
			["always use the staging db", "u2"],
			["never force-push", "u3"],
		]);
	});

	it("a pick labeled `rule and lifts u<n>` replaces the earlier rule", async () => {
		const branch = afterPiOf("never use tabs", "switch to two-space indentation instead of tabs from now on");
		const { capabilities } = caps([
			diffAnswer([{ msg: "u2", label: "rule and lifts u1" }, ...labeled("not a rule", "u3")]),
		]);
		const out = await runPass(passRequest(branch, "f3"), capabilities);
		const state = stateAfter(branch, out.details);
		expect(state.rules.map((r) => [r.text, r.source])).toEqual([
			["switch to two-space indentation instead of tabs from now on", "u2"],
		]);
		expect(state.lifted).toMatchObject([{ text: "never use tabs", by: "u2" }]);
	});

	it("an unlabeled pick is recorded in message order, and a replacement it makes is asked about as in a span", async () => {
		const branch = afterPiOf("never use tabs", "switch to two-space indentation instead of tabs from now on");
		const reply = labelsOnly([{ msg: "u2", label: "rule and lifts u1" }]);
		const { model, capabilities } = caps([diffAnswer(labeled("not a rule", "u3")), reply]);
		const out = await runPass(passRequest(branch, "f3"), capabilities);
		expect(out.calls.map((c) => c.purpose)).toEqual(["diff", "questions"]);
		expect(model.requests[1]?.prompt).toContain(
			"u2 is labeled `rule` and may replace the rule u1 gave (never use tabs): answer `rule and lifts u1` or `rule`",
		);
		const added = out.details.events.flatMap((stored) => {
			const event = decodeEvent(stored.event);
			return E.isRight(event) && event.right.type === "rule-added" ? [event.right.data] : [];
		});
		expect(added).toEqual([
			{ id: "R1", words: "never use tabs", source: "u1" },
			{ id: "R2", words: "switch to two-space indentation instead of tabs from now on", source: "u2" },
		]);
		const state = stateAfter(branch, out.details);
		expect(state.rules.map((r) => r.source)).toEqual(["u2"]);
	});

	it("an earlier message is shown cut to its start; a rule there is recorded only from the exact words given", async () => {
		const long = `We talked about the layout for a while and I think the structure is fine now, nothing else to add on that front. Tests go under tests/ and fixtures beside them, as in the other repos.`;
		const branch = afterPiOf(long, "tests go under tests/");
		const withoutWords = caps([
			diffAnswer([{ msg: "u1", label: "rule" }, { msg: "u2", label: "rule" }, ...labeled("not a rule", "u3")]),
		]);
		const dropped = await runPass(passRequest(branch, "f3"), withoutWords.capabilities);
		expect(withoutWords.model.requests[0]?.prompt).toContain(
			JSON.stringify({ msg: "u1", text: `${long.slice(0, 160)}…` }),
		);
		expect(dropped.calls).toHaveLength(1);
		expect(dropped.dropped["excerpt-words"]).toBe(1);
		expect(rulesAfter(branch, dropped.details)).toEqual([["tests go under tests/", "u2"]]);
		const withWords = caps([
			diffAnswer([
				{ msg: "u1", label: "rule", words: "Tests go under tests/ and fixtures beside them" },
				{ msg: "u2", label: "rule" },
				...labeled("not a rule", "u3"),
			]),
		]);
		const recorded = await runPass(passRequest(branch, "f3"), withWords.capabilities);
		expect(rulesAfter(branch, recorded.details)).toEqual([
			["Tests go under tests/ and fixtures beside them", "u1"],
			["tests go under tests/", "u2"],
		]);
	});

	it("a value the foreign summary records is kept only where the earlier turn named shows it verbatim", async () => {
		const branch = afterPi(
			chain([
				user("start the dev server"),
				bashCall("t1", "npm run dev"),
				toolResult("t1", "ready: listening on localhost:5173"),
				assistant("running"),
			]),
			"The dev server runs on port 5173; the build took 42s.",
		);
		const values = [
			{ name: "dev server port", value: "5173", turn: "u1" },
			{ name: "build time", value: "42s", turn: "u1" },
		];
		const { capabilities } = caps([diffAnswer(labeled("not a rule", "u1", "u2"), { values })]);
		const out = await runPass(passRequest(branch, "f3"), capabilities);
		expect(out.dropped["value-not-in-turn"]).toBe(1);
		expect(stateAfter(branch, out.details).values).toEqual([{ name: "dev server port", value: "5173", source: "u1" }]);
	});
});

describe("runPass taking over a session that already has a state", () => {
	const span1 = chain([
		user("never use tabs"),
		assistant("ok"),
		user("the tabs rule is lifted"),
		assistant("ok"),
		user("next"),
	]);
	const span1Answer = diffAnswer([
		{ msg: "u1", label: "rule" },
		{ msg: "u2", label: "lifts u1" },
	]);

	it("offers only the messages since Longhaul's last whole span: a rule it had lifted is not recorded again", async () => {
		const first = await runPass(passRequest(span1, "e5"), caps([span1Answer]).capabilities);
		expect(first.kind).toBe("whole");
		const branch = [
			...span1,
			compactionEntry("c1", "e5", "e5", first.details),
			...chain(
				[user("always run lint before committing"), assistant("ok"), user("keep going"), assistant("ok")],
				"g",
				"c1",
			),
			piCompaction("p1", "g4", "g3", "pi's summary after a fallback"),
			...chain([user("carry on"), assistant("ok"), user("more")], "h", "p1"),
		];
		const { model, capabilities } = caps([diffAnswer(labeled("not a rule", "u3", "u5", "u6"))]);
		const out = await runPass(passRequest(branch, "h3"), capabilities);
		const prompt = model.requests[0]?.prompt ?? "";
		expect(prompt).toContain("pi's summary after a fallback");
		expect(prompt).not.toContain('"msg":"u1"');
		expect(prompt).not.toContain('"msg":"u2"');
		expect(prompt).toContain(JSON.stringify({ msg: "u3", text: "next" }));
		expect(prompt).toContain(JSON.stringify({ msg: "u4", text: "always run lint before committing" }));
		expect(out.kind).toBe("whole");
		const state = stateAfter(branch, out.details);
		expect(state.rules).toEqual([{ id: "R2", text: "always run lint before committing", source: "u4" }]);
		expect(state.lifted).toMatchObject([{ id: "R1", text: "never use tabs", by: "u2" }]);
	});

	it("messages of a Longhaul span that closed narrative-less are offered again, each once", async () => {
		const first = await runPass(passRequest(span1, "e5"), caps([span1Answer]).capabilities);
		const span2 = chain([user("always run lint before committing"), assistant("ok"), user("keep going")], "g", "c1");
		const afterFirst = [...span1, compactionEntry("c1", "e5", "e5", first.details), ...span2];
		const second = await runPass(passRequest(afterFirst, "g3"), caps([new Error("boom")]).capabilities);
		expect(second.kind).toBe("narrative-less");
		const branch = [
			...afterFirst,
			compactionEntry("c2", "g3", "g3", second.details),
			...chain([assistant("ok"), user("and the docs"), assistant("ok")], "k", "c2"),
			piCompaction("p1", "k3", "k3", "pi's summary"),
			...chain([user("carry on"), assistant("ok"), user("more")], "h", "p1"),
		];
		const { model, capabilities } = caps([diffAnswer(labeled("not a rule", "u3", "u5", "u6", "u7"))]);
		const out = await runPass(passRequest(branch, "h3"), capabilities);
		const prompt = model.requests[0]?.prompt ?? "";
		for (const ref of ["u3", "u4", "u5", "u6"]) expect(prompt.split(`{"msg":"${ref}"`).length - 1, ref).toBe(1);
		expect(prompt).not.toContain('"msg":"u1"');
		expect(out.kind).toBe("whole");
		expect(model.requests).toHaveLength(1);
		const state = stateAfter(branch, out.details);
		expect(state.rules.map((r) => [r.text, r.source])).toEqual([["always run lint before committing", "u4"]]);
	});
});

describeShared("runPass on a real session pi compacted twice (before-compaction.jsonl)", () => {
	/**
	 * The user's messages before the span (u1–u24, the two spans pi summarized), read one by one. Three hold a rule
	 * word, and the standing-rule reader keeps all three:
	 * - u5 "i would only want e2e tests for AgentSession, anything else is shitty. …": a clause with "only" in which
	 *   the user says what they want; no request for now, no withdrawal, nothing described.
	 * - u6 "this plan must be written in such a way, that you can start a new session …": a norm on how the plan is
	 *   written, standing over every later session. (This row changed with the reader of issue 15: today's reader read
	 *   its "must" as describing the plan, like "an option that keeps only lines"; but the clause instructs how the
	 *   work goes from now on, it describes nothing the plan does, so by the reader's conditions (docs/how-it-works.md,
	 *   Taking over from another compactor) it is a standing rule.)
	 * - u14 "you can look up the detailed history … (don't read the full file!)": a clause with "don't" addressed to
	 *   the agent, standing over every later look-up of that file; no "yet", "for now" or "this time".
	 * None says "from now on", "from here on" or "going forward"; the other 21 are labeled by the model.
	 */
	const EXPECTED = [
		{ ref: "u5", starts: "i would only want e2e tests for AgentSession, anything else is shitty." },
		{ ref: "u6", starts: "this plan must be written in such a way, that you can start" },
		{ ref: "u14", starts: "you can look up the detailed history of this session in" },
	];

	function fixture() {
		const transcript = readTranscript(readFileSync(copyShared("before-compaction.jsonl"), "utf8"));
		const entries = branchOf(transcript.entries).entries;
		const compactions = entries.filter((e) => e.type === "compaction");
		const users = userMessages(entries);
		const branch: Raw[] = entries.map((e) => ({ ...e.raw, id: e.id, parentId: e.parentId }));
		return { entries, compactions, users, branch };
	}

	it("Longhaul's first pass after pi's two compactions carries the user's standing rules of the earlier spans verbatim", async () => {
		const { entries, compactions, users, branch } = fixture();
		expect(compactions).toHaveLength(2);
		const last = entries.at(-1)?.id ?? "";
		const picks = new Set(EXPECTED.map((e) => e.ref));
		const labels = users.filter((u) => !picks.has(u.ref)).map((u) => ({ msg: u.ref, label: "not a rule" }));
		const { model, capabilities } = caps([diffAnswer(labels)]);
		const out = await runPass(passRequest(branch, last), capabilities);
		expect(out.kind).toBe("whole");
		expect(model.requests).toHaveLength(1);
		const rules = stateAfter(branch, out.details).rules;
		expect(rules.map((r) => r.source)).toEqual(EXPECTED.map((e) => e.ref));
		for (const [i, expected] of EXPECTED.entries()) {
			const message = users.find((u) => u.ref === expected.ref);
			expect(rules[i]?.text.startsWith(expected.starts)).toBe(true);
			expect(rules[i]?.text).toBe(message?.text.trim());
		}
	});

	it("the newest foreign summary is in the prompt and every earlier message is offered, cut to its start", async () => {
		const { entries, compactions, users, branch } = fixture();
		const summary = compactions.at(-1)?.raw.summary;
		const first = compactions.at(0)?.raw.summary;
		const { model, capabilities } = caps([diffAnswer(users.map((u) => ({ msg: u.ref, label: "not a rule" })))]);
		await runPass(passRequest(branch, entries.at(-1)?.id ?? ""), capabilities);
		const prompt = model.requests[0]?.prompt ?? "";
		const flat = (text: unknown) => (typeof text === "string" ? text.replace(/\s+/g, " ").trim() : "");
		expect(flat(summary)).not.toBe("");
		expect(prompt).toContain(flat(summary));
		expect(prompt).not.toContain(flat(first).slice(0, 400));
		const u11 = users.find((u) => u.ref === "u11")?.text ?? "";
		expect(prompt).toContain(JSON.stringify({ msg: "u11", text: `${flat(u11).slice(0, 160)}…` }));
		for (const u of users.slice(0, 24)) expect(prompt).toContain(`{"msg":"${u.ref}"`);
	});
});

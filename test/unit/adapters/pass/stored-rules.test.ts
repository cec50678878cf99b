import { describe, expect, it } from "vitest";
import { isRecord } from "../../../../src/events/index.js";
import { foldEntries } from "../../../../src/reducers/index.js";
import { diffAnswer, type Label } from "../../../support/answers.js";
import { assistant, chain, type Raw, user } from "../../../support/entries.js";
import { answeringModel, compactBranch } from "../../../support/passes.js";

// The rules Longhaul itself records, from each kind of message it records them from, pass the fold's check of stored
// rule events (issue 28, item 2): the branch with the pass's compaction folds to the rules the pass decided, with no
// anomaly.

/** The events a pass's details hold, as stored. */
function storedEvents(details: unknown): Record<string, unknown>[] {
	const events: unknown[] = isRecord(details) && Array.isArray(details.events) ? details.events : [];
	return events.flatMap((stored) => (isRecord(stored) && isRecord(stored.event) ? [stored.event] : []));
}

/** The words of the rules a pass's details record. */
function decidedRules(details: unknown): string[] {
	return storedEvents(details).flatMap((event) =>
		event.type === "rule-added" && isRecord(event.data) && typeof event.data.words === "string"
			? [event.data.words]
			: [],
	);
}

async function passOver(said: string, labels: readonly Label[]) {
	const branch: Raw[] = chain([user(said), assistant("ok"), user("go on"), assistant("done")]);
	const { branch: after, outcome } = await compactBranch(
		branch,
		answeringModel(() => diffAnswer(labels)),
		"c1",
	);
	return { decided: decidedRules(outcome.details), folded: foldEntries(after) };
}

describe("rules Longhaul records fold as recorded", () => {
	it("a rule from a long message's given words", async () => {
		const long = `${"Some context about the project and its history. ".repeat(20)}Never push to main without review.`;
		const { decided, folded } = await passOver(long, [
			{ msg: "u1", label: "rule", words: "Never push to main without review." },
			{ msg: "u2", label: "not a rule" },
		]);
		expect(decided).toEqual(["Never push to main without review."]);
		expect(folded.state.rules.map((r) => r.text)).toEqual(decided);
		expect(folded.state.anomalies).toEqual([]);
	});

	it("a rule the model retyped, with straight quotes for the user's curly ones: the user's bytes stand", async () => {
		const { decided, folded } = await passOver("From now on never   touch \u201cvendor/\u201d at all, please.", [
			{ msg: "u1", label: "rule", words: 'never touch "vendor/"' },
			{ msg: "u2", label: "not a rule" },
		]);
		expect(decided).toHaveLength(1);
		expect(folded.state.rules.map((r) => r.text)).toEqual(decided);
		expect(folded.state.anomalies).toEqual([]);
	});

	it("a rule from a pi-goal /goal message, where only the objective is quotable", async () => {
		const goal = "<goal_context>\nPursue this goal.\n<objective>never push to main</objective>\n</goal_context>";
		const { decided, folded } = await passOver(goal, [
			{ msg: "u1", label: "rule" },
			{ msg: "u2", label: "not a rule" },
		]);
		expect(decided).toEqual(["never push to main"]);
		expect(folded.state.rules.map((r) => r.text)).toEqual(decided);
		expect(folded.state.anomalies).toEqual([]);
	});

	it("a rule from a message the prompt showed redacted: the state keeps the user's own bytes, and they stand", async () => {
		const secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
		const { decided, folded } = await passOver(`never print the token ${secret} in a log`, [
			{ msg: "u1", label: "rule" },
			{ msg: "u2", label: "not a rule" },
		]);
		expect(decided).toEqual([`never print the token ${secret} in a log`]);
		expect(folded.state.rules.map((r) => r.text)).toEqual(decided);
		expect(folded.state.anomalies).toEqual([]);
	});

	it("a lift the store accepted folds as a lift", async () => {
		const branch: Raw[] = chain([user("never use tabs"), assistant("ok")]);
		const first = await compactBranch(
			branch,
			answeringModel(() => diffAnswer([{ msg: "u1", label: "rule" }])),
			"c1",
		);
		const more = chain(
			[user("the tabs rule no longer applies"), assistant("fine"), user("go on"), assistant("ok")],
			"f",
			"c1",
		);
		const labels = [
			{ msg: "u2", label: "lifts R1" },
			{ msg: "u3", label: "not a rule" },
		];
		const second = await compactBranch(
			[...first.branch, ...more],
			answeringModel(() => diffAnswer(labels)),
			"c2",
		);
		expect(storedEvents(second.outcome.details).map((event) => event.type)).toContain("rule-lifted");
		const folded = foldEntries(second.branch);
		expect(folded.state.rules).toEqual([]);
		expect(folded.state.lifted.map((r) => [r.id, r.by])).toEqual([["R1", "u2"]]);
		expect(folded.state.anomalies).toEqual([]);
	});
});

import { describe, expect, it } from "vitest";
import type { Event } from "../../../../src/events/index.js";
import { type AcceptContext, acceptAnswer } from "../../../../src/pass/accept/accept.js";
import { type Question, renderQuestions } from "../../../../src/pass/accept/questions.js";
import { applyReplies } from "../../../../src/pass/accept/replies.js";
import type { RawAnswer } from "../../../../src/pass/answer/answer.js";
import { initialState } from "../../../../src/reducers/index.js";
import { labelsOnly } from "../../../support/answers.js";
import { applied } from "../../../support/applied.js";
import { ruleAdded } from "../../../support/events.js";
import { acceptContext, users } from "../../../support/users.js";

const texts = [
	"always indent with tabs",
	"never add dependencies",
	"switch to two-space indentation instead of tabs from now on",
	"the dependency rule no longer applies",
];
const state = applied(initialState, [ruleAdded(texts[0] ?? "", "u1"), ruleAdded(texts[1] ?? "", "u2")]);
const ctx = acceptContext(texts, {
	state,
	span: 2,
	toLabel: users(texts).slice(2),
	turnText: () => undefined,
	ledger: new Set(["C1"]),
});
const kept: RawAnswer = {
	labels: [
		{ msg: "u3", label: "rule", words: "two-space indentation" },
		{ msg: "u4", label: "not a rule" },
	],
	decisions: [{ text: "keep the parser", evidence: ["C1"] }],
	deadEnds: [],
	values: [],
	narrative: "reformatted",
};
const first = acceptAnswer(ctx, kept);
const { asked } = renderQuestions(first.questions, 2000);
const reply = labelsOnly;
const rulesAfter = (events: readonly Event[]) => applied(state, events).rules.map((r) => r.source);

describe("applying replies to questions", () => {
	it("the first answer asks whether u3 replaces the rule u1 gave", () => {
		expect(asked.map((q) => [q.msg, q.targets])).toEqual([["u3", ["u1"]]]);
	});

	it("adds an asked target to the label's lifts; the label keeps its words and the rest of the answer stands", () => {
		const replied = applyReplies(ctx, kept, asked, reply([{ msg: "u3", label: "rule and lifts u1" }]));
		expect(replied.added).toEqual([{ msg: "u3", target: "u1" }]);
		expect(replied.answer.labels[0]).toEqual({ msg: "u3", label: "rule and lifts u1", words: "two-space indentation" });
		expect(rulesAfter(replied.accepted.events)).toEqual(["u2", "u3"]);
		expect(replied.accepted.events.filter((e) => e.type === "decision-made")).toHaveLength(1);
		expect(replied.accepted.questions).toEqual([]);
	});

	it("changes nothing when the reply is `rule`", () => {
		const replied = applyReplies(ctx, kept, asked, reply([{ msg: "u3", label: "rule" }]));
		expect(replied.answer).toEqual(kept);
		expect(rulesAfter(replied.accepted.events)).toEqual(["u1", "u2", "u3"]);
	});

	it("changes nothing when the reply names a target that was not asked, or changes the label's kind", () => {
		for (const label of ["rule and lifts u1, u2", "rule and lifts u2", "lifts u1", "not a rule"]) {
			const replied = applyReplies(ctx, kept, asked, reply([{ msg: "u3", label }]));
			expect(replied.added, label).toEqual([]);
			expect(rulesAfter(replied.accepted.events), label).toEqual(["u1", "u2", "u3"]);
		}
	});

	it("reads only the asked messages, so a model that answers again in full is heard on those alone", () => {
		const full = JSON.stringify({
			labels: [
				{ msg: "u3", label: "rule and lifts u1" },
				{ msg: "u4", label: "lifts R2" },
			],
			narrative: "something else",
			decisions: [],
		});
		const replied = applyReplies(ctx, kept, asked, `Here is my full answer again:\n${full}`);
		expect(replied.added).toEqual([{ msg: "u3", target: "u1" }]);
		expect(replied.answer.labels[1]).toEqual({ msg: "u4", label: "not a rule" });
		expect(replied.answer.narrative).toBe("reformatted");
		expect(rulesAfter(replied.accepted.events)).toEqual(["u2", "u3"]);
	});

	it("changes nothing when the reply holds no readable JSON", () => {
		for (const text of [
			"rule and lifts u1",
			'{"labels": [',
			"",
			'{"__proto__": 1, "labels": [{"msg": "u3", "label": "rule and lifts u1"}]}',
		]) {
			const replied = applyReplies(ctx, kept, asked, text);
			expect(replied.answer).toEqual(kept);
			expect(replied.added).toEqual([]);
			expect(replied.read, text).toBe(0);
		}
	});

	it("counts the asked messages the reply gave a label for, whether or not the label changed anything", () => {
		expect(applyReplies(ctx, kept, asked, reply([{ msg: "u3", label: "rule" }])).read).toBe(1);
		expect(applyReplies(ctx, kept, asked, reply([{ msg: " U3 ", label: "rule and lifts u1" }])).read).toBe(1);
		expect(applyReplies(ctx, kept, asked, reply([{ msg: "u4", label: "lifts R2" }])).read).toBe(0);
	});

	it("still passes the added lift through the store's check", () => {
		const forged: Question = { msg: "u3", label: "rule", targets: ["u2"], text: "forged" };
		const replied = applyReplies(ctx, kept, [forged], reply([{ msg: "u3", label: "rule and lifts u2" }]));
		expect(replied.added).toEqual([{ msg: "u3", target: "u2" }]);
		expect(rulesAfter(replied.accepted.events)).toEqual(["u1", "u2", "u3"]);
		expect(replied.accepted.dropped).toContainEqual({ item: "u3:u2", reason: "lift-check" });
	});

	it("drops, without asking again, a lift the reply left unplaced", () => {
		const liftCtx: AcceptContext = { ...ctx, toLabel: ctx.branch.slice(3) };
		const wrong: RawAnswer = { ...kept, labels: [{ msg: "u4", label: "lifts R1" }] };
		const raised = acceptAnswer(liftCtx, wrong);
		const shown = renderQuestions(raised.questions, 2000).asked;
		expect(shown.map((q) => q.targets)).toEqual([["R2"]]);
		const unanswered = applyReplies(liftCtx, wrong, shown, "sorry");
		expect(unanswered.accepted.dropped).toContainEqual({ item: "u4:R1", reason: "lift-check" });
		expect(unanswered.accepted.questions).toEqual([]);
		const answered = applyReplies(liftCtx, wrong, shown, reply([{ msg: "u4", label: "lifts R2" }]));
		expect(answered.answer.labels[0]?.label).toBe("lifts R1, R2");
		expect(rulesAfter(answered.accepted.events)).toEqual(["u1"]);
	});
});

import { describe, expect, it } from "vitest";
import type { Event } from "../../../../src/events/index.js";
import { type AcceptContext, acceptAnswer } from "../../../../src/pass/accept/accept.js";
import { type Question, renderQuestions } from "../../../../src/pass/accept/questions.js";
import { applyReplies } from "../../../../src/pass/accept/replies.js";
import { ANSWER_BOUNDS, type RawAnswer } from "../../../../src/pass/answer/answer.js";
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

	it("skips the items of a reply a model wrote wrong, and hears the first readable label a message got", () => {
		const items = [
			5,
			null,
			{ msg: "u3" },
			{ label: "rule and lifts u1" },
			{ msg: 3, label: "rule and lifts u1" },
			{ msg: "u3", label: 7 },
			{ msg: "u3", label: `rule and lifts u1${" ".repeat(200)}` },
			{ msg: "u3", label: "rule" },
			{ msg: "u3", label: "rule and lifts u1" },
		];
		const replied = applyReplies(ctx, kept, asked, JSON.stringify({ labels: items }));
		expect([replied.added, replied.read]).toEqual([[], 1]);
	});

	it("hears a label exactly as long as an answer's label may be", () => {
		const label = "rule and lifts u1".padEnd(ANSWER_BOUNDS.label, " ");
		const replied = applyReplies(ctx, kept, asked, reply([{ msg: "u3", label }]));
		expect(replied.added).toEqual([{ msg: "u3", target: "u1" }]);
	});

	it("reads the first JSON object that holds labels, past one that does not", () => {
		const text = `{"note": "first"}\n${reply([{ msg: "u3", label: "rule and lifts u1" }])}`;
		expect(applyReplies(ctx, kept, asked, text).added).toEqual([{ msg: "u3", target: "u1" }]);
	});

	it("adds only asked targets the label did not have, each once, to the first label of its message", () => {
		const lifting: RawAnswer = {
			...kept,
			labels: [
				{ msg: "u3", label: "rule and lifts u1", words: "two-space indentation" },
				{ msg: "u3", label: "rule and lifts u1" },
			],
		};
		const question: Question = { msg: "u3", label: "rule and lifts u1", targets: ["u1", "u2"], text: "q" };
		const replied = applyReplies(ctx, lifting, [question], reply([{ msg: "u3", label: "rule and lifts u1, u2" }]));
		expect(replied.added).toEqual([{ msg: "u3", target: "u2" }]);
		expect(replied.answer.labels.map((l) => l.label)).toEqual(["rule and lifts u1, u2", "rule and lifts u1"]);
	});

	it("takes a target only from a question on the same message and the same label", () => {
		const both: RawAnswer = { ...kept, labels: [...kept.labels.slice(0, 1), { msg: "u4", label: "rule" }] };
		const questions: Question[] = [
			{ msg: "u3", label: "rule", targets: ["u1"], text: "q1" },
			{ msg: "u4", label: "rule", targets: ["u2"], text: "q2" },
			{ msg: "u3", label: "lifts R2", targets: ["R2"], text: "q3" },
		];
		for (const label of ["rule and lifts u2", "rule and lifts R2"]) {
			const replied = applyReplies(ctx, both, questions, reply([{ msg: "u3", label }]));
			expect(replied.added, label).toEqual([]);
		}
	});

	it("keeps a label as the model wrote it when the reply adds nothing to it", () => {
		const loud: RawAnswer = { ...kept, labels: [{ msg: "u3", label: "RULE", words: "two-space indentation" }] };
		const replied = applyReplies(ctx, loud, asked, reply([{ msg: "u3", label: "rule" }]));
		expect(replied.answer.labels).toEqual(loud.labels);
	});

	it("a question on a message the answer left unlabeled adds that message's label once, only if the reply adds a target", () => {
		const unlabeled: RawAnswer = { ...kept, labels: kept.labels.slice(0, 1) };
		const questions: Question[] = [
			{ msg: "u4", label: "rule", targets: ["u1"], text: "q1" },
			{ msg: "u4", label: "rule", targets: ["u2"], text: "q2" },
		];
		const adding = applyReplies(ctx, unlabeled, questions, reply([{ msg: "u4", label: "rule and lifts u1" }]));
		expect(adding.added).toEqual([{ msg: "u4", target: "u1" }]);
		expect(adding.answer.labels.slice(1)).toEqual([{ msg: "u4", label: "rule and lifts u1" }]);
		const plain = applyReplies(ctx, unlabeled, questions, reply([{ msg: "u4", label: "rule" }]));
		expect(plain.answer.labels).toEqual(unlabeled.labels);
	});
});

import { describe, expect, it } from "vitest";
import {
	answerQuestions,
	judgeLabels,
	mergeLabels,
	settledLabels,
	standingLabels,
} from "../../../../../src/pass/conversation/turns/label-gate.js";
import { labelsOnly } from "../../../../support/answers.js";
import { applied } from "../../../../support/applied.js";
import { ruleAdded, ruleLifted } from "../../../../support/events.js";
import { replacingSpan } from "../span-context.js";

const ctx = replacingSpan();
const { branch: users, state } = ctx;
const offered = new Set(["u2", "u3", "u4"]);

describe("the labels gate", () => {
	it("takes a reply's labels only for the messages asked for, and fails a label for a message not offered", () => {
		const held = [{ msg: "u2", label: "rule" }];
		const merged = mergeLabels(
			held,
			[
				{ msg: "u2", label: "not a rule" },
				{ msg: "u4", label: "not a rule" },
				{ msg: "u1", label: "rule" },
			],
			new Set(["u4"]),
			offered,
		);
		expect(merged.labels).toEqual([
			{ msg: "u2", label: "rule" },
			{ msg: "u4", label: "not a rule" },
		]);
		expect(merged.failures).toEqual([
			{ item: "label:u1", code: "outside-span", note: "u1 is not one of the messages to label" },
		]);
	});

	it("fails every unlabeled message and a lift of a rule not in force, each by its message", () => {
		const verdict = judgeLabels(ctx, [{ msg: "u4", label: "lifts R9" }], new Set());
		expect(verdict.failures.map((f) => [f.item, f.code])).toEqual([
			["u2", "unlabeled"],
			["u3", "unlabeled"],
			["u4:R9", "unknown-id"],
		]);
	});

	it("asks whether a rule replaces an earlier one, but never about a standing rule code recorded", () => {
		const labels = [
			{ msg: "u2", label: "rule" },
			{ msg: "u3", label: "not a rule" },
			{ msg: "u4", label: "not a rule" },
		];
		expect(judgeLabels(ctx, labels, new Set()).questions.map((q) => q.msg)).toEqual(["u2"]);
		expect(judgeLabels(ctx, labels, new Set(["u2"])).questions).toEqual([]);
	});

	it("names the messages whose lift a narrowing refused, whether it is asked again or dropped", () => {
		const narrowed = applied(state, [ruleAdded(users[1]?.text ?? "", "u2"), ruleLifted("R1", "u2")]);
		const held = [
			{ msg: "u3", label: "lifts R1" },
			{ msg: "u4", label: "lifts u1" },
		];
		const verdict = judgeLabels({ ...ctx, state: narrowed, toLabel: users.slice(2) }, held, new Set());
		expect(verdict.questions.map((q) => [q.msg, q.targets])).toEqual([["u3", ["R2"]]]);
		expect([...verdict.replaced]).toEqual(["u3", "u4"]);
		expect(judgeLabels(ctx, [{ msg: "u3", label: "lifts R1" }], new Set()).replaced).toEqual(new Set());
	});

	it("lets an answer to a question add only the asked target", () => {
		const labels = [{ msg: "u2", label: "rule" }];
		const [question] = judgeLabels(ctx, labels, new Set()).questions;
		const asked = question === undefined ? [] : [question];
		const reply = labelsOnly([{ msg: "u2", label: "rule and lifts u1" }]);
		expect(answerQuestions(ctx, labels, asked, reply)).toEqual([{ msg: "u2", label: "rule and lifts u1" }]);
		expect(answerQuestions(ctx, labels, [], reply)).toEqual(labels);
	});

	it("drops a label that still fails once the section is over, and labels standing rules `rule`", () => {
		const held = [...standingLabels(["u2"]), { msg: "u4", label: "a rule maybe" }];
		expect(settledLabels(ctx, held)).toEqual([{ msg: "u2", label: "rule" }]);
	});
});

describe("the labels gate, on what models really answer", () => {
	const others = [
		{ msg: "u2", label: "rule" },
		{ msg: "u3", label: "not a rule" },
	];

	it("takes the first of two labels a reply gives the same message", () => {
		const merged = mergeLabels(
			[],
			[
				{ msg: "u4", label: "not a rule" },
				{ msg: "u4", label: "rule" },
			],
			new Set(["u4"]),
			offered,
		);
		expect(merged).toEqual({ labels: [{ msg: "u4", label: "not a rule" }], failures: [] });
	});

	it("fails a label outside the list, but not on a standing rule's message", () => {
		const held = [...others, { msg: "u4", label: "a rule maybe" }];
		expect(judgeLabels(ctx, held, new Set()).failures.map((f) => [f.item, f.code])).toEqual([["u4", "label-invalid"]]);
		expect(judgeLabels(ctx, held, new Set(["u4"])).failures).toEqual([]);
	});

	it("fails a lift of a rule not in force with a note naming both, but not on a standing rule's message", () => {
		const held = [...others, { msg: "u4", label: "lifts R9" }];
		expect(judgeLabels(ctx, held, new Set()).failures).toEqual([
			{ item: "u4:R9", code: "unknown-id", note: "u4: R9 is not a rule in force" },
		]);
		expect(judgeLabels(ctx, held, new Set(["u4"])).failures).toEqual([]);
	});

	it("fails no lift that acceptance drops for another reason: of its own message, or of a later one", () => {
		const held = [
			{ msg: "u2", label: "rule" },
			{ msg: "u3", label: "lifts u4" },
			{ msg: "u4", label: "lifts u4" },
		];
		expect(judgeLabels(ctx, held, new Set()).failures).toEqual([]);
	});

	it("asks nothing about a message that has a failure to repair first", () => {
		const held = [
			{ msg: "u2", label: "not a rule" },
			{ msg: "u3", label: "not a rule" },
			{ msg: "u4", label: "lifts R9, R1" },
		];
		const verdict = judgeLabels(ctx, held, new Set());
		expect(verdict.failures.map((f) => f.item)).toEqual(["u4:R9"]);
		expect(verdict.questions).toEqual([]);
	});

	it("keeps the labels of the messages not asked about when it applies a reply", () => {
		const held = [
			{ msg: "u2", label: "rule" },
			{ msg: "u3", label: "not a rule" },
			{ msg: "u4", label: "one-off" },
		];
		const asked = judgeLabels(ctx, held, new Set()).questions;
		const reply = labelsOnly([{ msg: "u2", label: "rule and lifts u1" }]);
		expect(asked.map((q) => q.msg)).toEqual(["u2"]);
		expect(answerQuestions(ctx, held, asked, reply)).toEqual([
			{ msg: "u2", label: "rule and lifts u1" },
			{ msg: "u3", label: "not a rule" },
			{ msg: "u4", label: "one-off" },
		]);
	});
});

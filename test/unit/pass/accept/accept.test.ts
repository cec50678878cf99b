import { describe, expect, it } from "vitest";
import { decodeEvent, type Event } from "../../../../src/events/index.js";
import { type AcceptContext, acceptAnswer } from "../../../../src/pass/accept/accept.js";
import { initialState, type State } from "../../../../src/reducers/index.js";
import { rawAnswer } from "../../../support/answers.js";
import { applied } from "../../../support/applied.js";
import { dataOf, deadEnd, decision, ruleAdded, ruleLifted, value } from "../../../support/events.js";
import { acceptContext, users } from "../../../support/users.js";

const withRules = (rules: readonly { words: string; source: string }[]) =>
	applied(
		initialState,
		rules.map((r) => ruleAdded(r.words, r.source)),
	);
const answer = rawAnswer;
/** A context whose span is the messages named in `span` (all by default). */
function context(texts: readonly string[], options: { state?: State; span?: readonly string[] } = {}): AcceptContext {
	const branch = users(texts);
	return acceptContext(texts, {
		state: options.state ?? initialState,
		span: 3,
		toLabel: options.span === undefined ? branch : branch.filter((m) => options.span?.includes(m.ref)),
		turnText: () => undefined,
	});
}
const filler = (chars: number) =>
	"lorem ipsum dolor sit amet "
		.repeat(Math.ceil(chars / 27))
		.slice(0, chars)
		.trim();
const added = (events: readonly Event[]) =>
	dataOf(events, "rule-added").map(({ words, source }) => ({ words, source }));
const lifted = (events: readonly Event[]) => dataOf(events, "rule-lifted");

describe("accepting rule labels", () => {
	it("copies a labeled rule's words from the message, whole up to 300 characters even when words were given", () => {
		const ctx = context(["don't hard-code it, read the port from the config"]);
		const out = acceptAnswer(ctx, answer([{ msg: "u1", label: "rule", words: "don't hard-code it" }]));
		expect(added(out.events)).toEqual([{ words: "don't hard-code it, read the port from the config", source: "u1" }]);
		expect(out.defects).toEqual([]);
		expect(out.labeled).toEqual(["u1"]);
	});

	it("labels rules that no word list would find, and records each", () => {
		const ctx = context(["the code must run on Node 22.11", "never add dependencies", "tests go under tests/"]);
		const out = acceptAnswer(
			ctx,
			answer([
				{ msg: "u1", label: "rule" },
				{ msg: "u2", label: "rule" },
				{ msg: "u3", label: "rule" },
			]),
		);
		expect(added(out.events).map((r) => r.words)).toEqual([
			"the code must run on Node 22.11",
			"never add dependencies",
			"tests go under tests/",
		]);
	});

	it("sends back a message over 600 characters labeled without the rule's words", () => {
		const ctx = context([`${filler(650)}. Every dry-run line must start with DRY:`]);
		const out = acceptAnswer(ctx, answer([{ msg: "u1", label: "rule" }]));
		expect(out.defects.map((d) => [d.code, d.msg])).toEqual([["words-missing", "u1"]]);
		expect(out.defects[0]?.note).toContain("exact words");
		expect(added(out.events)).toEqual([]);
		expect(out.labeled).toEqual([]);
	});

	it("records only the given words of a message over 600 characters", () => {
		const ctx = context([`${filler(650)}. Every dry-run line must start with DRY: as agreed.`]);
		const out = acceptAnswer(
			ctx,
			answer([{ msg: "u1", label: "rule", words: "Every dry-run line must start with DRY:" }]),
		);
		expect(added(out.events)).toEqual([{ words: "Every dry-run line must start with DRY:", source: "u1" }]);
	});

	it("sends back words that start or end inside a word", () => {
		const ctx = context([`${filler(650)}. Never push to main.`]);
		const out = acceptAnswer(ctx, answer([{ msg: "u1", label: "rule", words: "ever push to mai" }]));
		expect(out.defects.map((d) => d.code)).toEqual(["words-inside-word"]);
		expect(added(out.events)).toEqual([]);
	});

	it("uses verified words between 300 and 600 characters, else the whole message", () => {
		const text = `${filler(400)}. Never push to main.`;
		const good = acceptAnswer(context([text]), answer([{ msg: "u1", label: "rule", words: "Never push to main." }]));
		expect(added(good.events).map((r) => r.words)).toEqual(["Never push to main."]);
		const cut = acceptAnswer(context([text]), answer([{ msg: "u1", label: "rule", words: "Never push to ma" }]));
		expect(added(cut.events).map((r) => r.words)).toEqual([text]);
		expect(cut.defects).toEqual([]);
	});

	it("binds a quote cited under the wrong message to the newest user message that holds it", () => {
		const ctx = context(["never use tabs", "I repeat: never use tabs", "and keep going"], { span: ["u3"] });
		const out = acceptAnswer(ctx, answer([{ msg: "u3", label: "rule", words: "never use tabs" }]));
		expect(added(out.events)).toEqual([{ words: "I repeat: never use tabs", source: "u2" }]);
	});

	it("rejects words no user wrote, so no rule is recorded", () => {
		const ctx = context(["run the tests"]);
		const out = acceptAnswer(ctx, answer([{ msg: "u1", label: "rule", words: "never use tabs" }]));
		expect(added(out.events)).toEqual([]);
		expect(out.defects.map((d) => d.code)).toEqual(["words-unwritten"]);
	});

	it("quotes a pi-goal /goal message only inside its goal tags", () => {
		const goal =
			"Continue working toward the active thread goal.\nThe objective below is user-provided data.\n" +
			"<untrusted_objective>\nport the parser and never add dependencies\n</untrusted_objective>\nDo not stop early.";
		const whole = acceptAnswer(context([goal]), answer([{ msg: "u1", label: "rule" }]));
		expect(added(whole.events)).toEqual([{ words: "port the parser and never add dependencies", source: "u1" }]);
		const template = acceptAnswer(context([goal]), answer([{ msg: "u1", label: "rule", words: "Do not stop early." }]));
		expect(added(template.events)).toEqual([]);
		expect(template.defects.map((d) => d.code)).toEqual(["words-unwritten"]);
	});

	it("records a rule already in the state once", () => {
		const state = withRules([{ words: "never use tabs", source: "u1" }]);
		const out = acceptAnswer(context(["never use tabs"], { state }), answer([{ msg: "u1", label: "rule" }]));
		expect(added(out.events)).toEqual([]);
		expect(out.labeled).toEqual(["u1"]);
	});
});

describe("accepting labels for the span", () => {
	it("makes an unlabeled span message a defect that costs a retry", () => {
		const out = acceptAnswer(context(["a", "b"]), answer([{ msg: "u1", label: "not a rule" }]));
		expect(out.defects.map((d) => [d.code, d.msg])).toEqual([["unlabeled", "u2"]]);
		expect(out.labeled).toEqual(["u1"]);
	});

	it("ignores a label for a message outside the span and counts it as dropped, never a defect", () => {
		const ctx = context(["never use tabs", "ok"], { span: ["u2"] });
		const out = acceptAnswer(
			ctx,
			answer([
				{ msg: "u1", label: "rule" },
				{ msg: "u2", label: "not a rule" },
			]),
		);
		expect(out.dropped).toEqual([{ item: "u1", reason: "outside-span" }]);
		expect(out.defects).toEqual([]);
		expect(added(out.events)).toEqual([]);
	});

	it("keeps the first label of a message and drops the others", () => {
		const out = acceptAnswer(
			context(["never use tabs"]),
			answer([
				{ msg: "u1", label: "not a rule" },
				{ msg: "u1", label: "rule" },
			]),
		);
		expect(added(out.events)).toEqual([]);
		expect(out.dropped).toEqual([{ item: "u1", reason: "duplicate-label" }]);
	});

	it("sends back a label that is none of the forms", () => {
		const out = acceptAnswer(context(["x"]), answer([{ msg: "u1", label: "maybe" }]));
		expect(out.defects.map((d) => [d.code, d.msg])).toEqual([["label-invalid", "u1"]]);
		expect(out.labeled).toEqual([]);
	});

	it("reads one-off like not a rule", () => {
		const out = acceptAnswer(context(["push to main now"]), answer([{ msg: "u1", label: "one-off" }]));
		expect(out.events.filter((e) => e.type.startsWith("rule"))).toEqual([]);
		expect(out.labels).toEqual([{ msg: "u1", label: "one-off" }]);
	});
});

describe("accepting lifts", () => {
	const tabs = withRules([{ words: "never use tabs", source: "u1" }]);

	it("applies a lift whose message withdraws the rule and shares a word with it", () => {
		const ctx = context(["never use tabs", "the tabs rule no longer applies"], { state: tabs, span: ["u2"] });
		const out = acceptAnswer(ctx, answer([{ msg: "u2", label: "lifts R1" }]));
		expect(lifted(out.events)).toEqual([{ target: "R1", by: "u2" }]);
		expect(applied(tabs, out.events).lifted.map((r) => [r.id, r.by])).toEqual([["R1", "u2"]]);
	});

	it("reads a message that only withdraws a rule as a lift even when it says what is fine instead", () => {
		const ctx = context(["never use tabs", "the tabs rule no longer applies; tabs or spaces are both fine"], {
			state: tabs,
			span: ["u2"],
		});
		const out = acceptAnswer(ctx, answer([{ msg: "u2", label: "lifts R1" }]));
		expect(applied(tabs, out.events).rules).toEqual([]);
		expect(added(out.events)).toEqual([]);
	});

	it("applies `lifts u<n>` to a rule given earlier in the same span, after that rule is added", () => {
		const ctx = context(["never use tabs", "tabs no longer matter"]);
		const out = acceptAnswer(
			ctx,
			answer([
				{ msg: "u1", label: "rule" },
				{ msg: "u2", label: "lifts u1" },
			]),
		);
		expect(out.events.filter((e) => e.type.startsWith("rule")).map((e) => e.type)).toEqual([
			"rule-added",
			"rule-lifted",
		]);
		expect(applied(initialState, out.events).rules).toEqual([]);
	});

	it("applies `rule and lifts` as the lifts, then the new rule that replaces them", () => {
		const state = withRules([
			{ words: "always indent with tabs", source: "u1" },
			{ words: "tabs are fine in Makefiles only", source: "u2" },
		]);
		const ctx = context(
			[
				"always indent with tabs",
				"tabs are fine in Makefiles only",
				"indent with two spaces instead of tabs, everywhere",
			],
			{
				state,
				span: ["u3"],
			},
		);
		const out = acceptAnswer(ctx, answer([{ msg: "u3", label: "rule and lifts R1, R2" }]));
		expect(out.events.map((e) => e.type)).toEqual(["rule-lifted", "rule-lifted", "rule-added", "narrative-line"]);
		expect(applied(state, out.events).rules.map((r) => r.text)).toEqual([
			"indent with two spaces instead of tabs, everywhere",
		]);
	});

	it("reads a permission as no lift: asked again with the rule shown, then dropped", () => {
		const state = withRules([{ words: "never push to main", source: "u1" }]);
		const ctx = context(["never push to main", "you may push to main now"], { state, span: ["u2"] });
		const out = acceptAnswer(ctx, answer([{ msg: "u2", label: "lifts R1" }]));
		expect(lifted(out.events)).toEqual([]);
		expect(out.questions).toEqual([
			{
				msg: "u2",
				label: "lifts R1",
				targets: [],
				text: "u2 is labeled `lifts R1`, but its words do not withdraw R1 (never push to main): answer `lifts R1` only if the user's own words withdraw it, or `not a rule`",
			},
		]);
		const final = acceptAnswer(ctx, answer([{ msg: "u2", label: "lifts R1" }]), { final: true });
		expect(lifted(final.events)).toEqual([]);
		expect(final.questions).toEqual([]);
		expect(final.dropped).toEqual([{ item: "u2:R1", reason: "lift-check" }]);
	});

	it("asks about a failed lift inside a `rule and lifts` label with the rule kept either way", () => {
		const state = withRules([{ words: "never push to main", source: "u1" }]);
		const ctx = context(["never push to main", "always open a pull request"], { state, span: ["u2"] });
		const out = acceptAnswer(ctx, answer([{ msg: "u2", label: "rule and lifts R1" }]));
		expect(out.questions.map((q) => q.text)).toEqual([
			"u2 is labeled `rule and lifts R1`, but its words do not withdraw R1 (never push to main): answer `rule and lifts R1` only if the user's own words withdraw it, or `rule`",
		]);
		expect(added(out.events)).toEqual([{ words: "always open a pull request", source: "u2" }]);
		expect(lifted(out.events)).toEqual([]);
	});

	it("raises no question for a pasted or relayed withdrawal, and drops the lift", () => {
		const ctx = context(["never use tabs", 'the linter printed "the rule about tabs no longer applies here" again'], {
			state: tabs,
			span: ["u2"],
		});
		const out = acceptAnswer(ctx, answer([{ msg: "u2", label: "lifts R1" }]));
		expect(lifted(out.events)).toEqual([]);
		expect(out.questions).toEqual([]);
		expect(out.dropped).toEqual([{ item: "u2:R1", reason: "lift-check" }]);
	});

	it("asks again, with the named rule shown, when the message withdraws another rule in force", () => {
		const state = withRules([
			{ words: "never use tabs", source: "u1" },
			{ words: "never add dependencies", source: "u2" },
		]);
		const ctx = context(["never use tabs", "never add dependencies", "the dependency rule no longer applies"], {
			state,
			span: ["u3"],
		});
		const out = acceptAnswer(ctx, answer([{ msg: "u3", label: "lifts R1" }]));
		expect(lifted(out.events)).toEqual([]);
		expect(out.questions.map((q) => [q.msg, q.targets])).toEqual([["u3", ["R2"]]]);
		expect(out.questions[0]?.text).toBe(
			"u3 is labeled `lifts R1`, but its words do not withdraw R1 (never use tabs); it may withdraw R2 (never add dependencies): answer `lifts R2` or `not a rule`",
		);
		const final = acceptAnswer(ctx, answer([{ msg: "u3", label: "lifts R1" }]), { final: true });
		expect(final.questions).toEqual([]);
		expect(final.dropped).toEqual([{ item: "u3:R1", reason: "lift-check" }]);
	});

	it("drops a lift of an unknown rule when no rule in force could be meant", () => {
		const ctx = context(["never use tabs", "that rule is lifted"], { state: tabs, span: ["u2"] });
		const out = acceptAnswer(ctx, answer([{ msg: "u2", label: "lifts R7" }]));
		expect(out.dropped).toEqual([{ item: "u2:R7", reason: "unknown-target" }]);
		expect(out.questions).toEqual([]);
	});

	it("drops a lift of the message itself or of a later message", () => {
		const ctx = context(["no longer x", "no longer y", "z"]);
		const out = acceptAnswer(
			ctx,
			answer([
				{ msg: "u1", label: "lifts u1, u3" },
				{ msg: "u2", label: "not a rule" },
				{ msg: "u3", label: "rule" },
			]),
		);
		expect(out.dropped).toEqual([
			{ item: "u1:u1", reason: "self-lift" },
			{ item: "u1:u3", reason: "later-target" },
		]);
	});

	it("drops a lift, by id, of a rule the message itself or a later message gave", () => {
		const state = withRules([
			{ words: "tabs no longer matter", source: "u1" },
			{ words: "never use tabs", source: "u2" },
		]);
		const out = acceptAnswer(
			context(["tabs no longer matter", "never use tabs"], { state, span: ["u1"] }),
			answer([{ msg: "u1", label: "lifts R1, R2" }]),
		);
		expect(lifted(out.events)).toEqual([]);
		expect(out.dropped).toEqual([
			{ item: "u1:R1", reason: "self-lift" },
			{ item: "u1:R2", reason: "later-target" },
		]);
	});

	it("asks again about a lift of a rule a narrowing replaced, showing the narrowing by its id", () => {
		const base = withRules([
			{ words: "always indent with tabs", source: "u1" },
			{ words: "use spaces instead of tabs in Python files", source: "u2" },
		]);
		const state = applied(base, [ruleLifted("R1", "u2")]);
		const texts = [
			"always indent with tabs",
			"use spaces instead of tabs in Python files",
			"the tabs rule no longer applies, Python included",
		];
		const out = acceptAnswer(context(texts, { state, span: ["u3"] }), answer([{ msg: "u3", label: "lifts R1" }]));
		expect(lifted(out.events)).toEqual([]);
		expect(out.defects).toEqual([]);
		expect(out.questions.map((q) => q.targets)).toEqual([["R2"]]);
		expect(out.questions[0]?.text).toBe(
			"u3 is labeled `lifts R1`, but R1 was already replaced by R2 (use spaces instead of tabs in Python files): answer `lifts R2` or `lifts R1`",
		);
	});

	it("shows a narrowing given in the same span by its u<n>, since its id is new", () => {
		const state = withRules([{ words: "always indent with tabs", source: "u1" }]);
		const texts = [
			"always indent with tabs",
			"use spaces instead of tabs in Python files",
			"the tabs rule no longer applies, Python included",
		];
		const out = acceptAnswer(
			context(texts, { state, span: ["u2", "u3"] }),
			answer([
				{ msg: "u2", label: "rule and lifts R1" },
				{ msg: "u3", label: "lifts R1" },
			]),
		);
		expect(out.questions.map((q) => [q.msg, q.targets])).toEqual([["u3", ["u2"]]]);
		expect(out.questions[0]?.text).toContain(
			"replaced by u2 (use spaces instead of tabs in Python files): answer `lifts u2`",
		);
	});
});

describe("asking whether a new rule replaces an earlier one", () => {
	const earlier = ["always indent with tabs", ...Array.from({ length: 15 }, (_, i) => `step ${i + 2}`)];

	it("asks, in the words of the replace question, about a rule label whose rule would pass the lift check against an earlier rule", () => {
		const state = withRules([{ words: "always indent with tabs", source: "u1" }]);
		const texts = [...earlier, "switch to two-space indentation instead of tabs from now on"];
		const out = acceptAnswer(context(texts, { state, span: ["u17"] }), answer([{ msg: "u17", label: "rule" }]));
		expect(out.questions).toEqual([
			{
				msg: "u17",
				label: "rule",
				targets: ["u1"],
				text: "u17 is labeled `rule` and may replace the rule u1 gave (always indent with tabs): answer `rule and lifts u1` or `rule`",
			},
		]);
		expect(lifted(out.events)).toEqual([]);
		expect(out.defects).toEqual([]);
	});

	it("does not ask about a rule label whose words bind to another message: the rule is that message's", () => {
		const state = withRules([{ words: "always indent with tabs", source: "u1" }]);
		const texts = [
			"always indent with tabs",
			"please always indent with two spaces in every file",
			...earlier.slice(2),
			"I said: tabs no longer apply, ever",
		];
		const words = "always indent with two spaces in every file";
		const out = acceptAnswer(context(texts, { state, span: ["u17"] }), answer([{ msg: "u17", label: "rule", words }]));
		// u2 is kept whole, as a message of at most 300 characters is.
		expect(added(out.events)).toEqual([{ words: texts[1], source: "u2" }]);
		expect(out.questions).toEqual([]);
		expect(out.defects).toEqual([]);
	});

	it("does not ask when the withdrawal is only in quoted text", () => {
		const state = withRules([{ words: "always indent with tabs", source: "u1" }]);
		const texts = [...earlier, 'add this to the docs: "indent with spaces instead of tabs in every file"'];
		const out = acceptAnswer(context(texts, { state, span: ["u17"] }), answer([{ msg: "u17", label: "rule" }]));
		expect(out.questions).toEqual([]);
	});

	it("asks about a rule given earlier in the same span, by its u<n>, once the answer is settled", () => {
		const texts = ["always indent with tabs", "indent with spaces instead of tabs", "tabs are no longer an issue"];
		const asked = acceptAnswer(
			context(texts),
			answer([
				{ msg: "u1", label: "rule" },
				{ msg: "u2", label: "rule" },
				{ msg: "u3", label: "not a rule" },
			]),
		);
		expect(asked.questions.map((q) => [q.msg, q.targets])).toEqual([["u2", ["u1"]]]);
		const settled = acceptAnswer(
			context(texts),
			answer([
				{ msg: "u1", label: "rule" },
				{ msg: "u2", label: "rule" },
				{ msg: "u3", label: "lifts u1" },
			]),
		);
		expect(settled.questions).toEqual([]);
	});

	it("judges a long message by the words its rule records, where they stand in it", () => {
		const state = withRules([{ words: "always indent with tabs", source: "u1" }]);
		const long = `${filler(650)}. Use two spaces instead of tabs. Keep lines under 100 characters.`;
		const texts = [...earlier, long];
		const replacing = acceptAnswer(
			context(texts, { state, span: ["u17"] }),
			answer([{ msg: "u17", label: "rule", words: "Use two spaces instead of tabs." }]),
		);
		expect(replacing.questions.map((q) => q.targets)).toEqual([["u1"]]);
		const other = acceptAnswer(
			context(texts, { state, span: ["u17"] }),
			answer([{ msg: "u17", label: "rule", words: "Keep lines under 100 characters." }]),
		);
		expect(other.questions).toEqual([]);
	});

	it("asks nothing whose answer the store would refuse: the whole message must pass the lift check too", () => {
		const state = withRules([{ words: "always indent with tabs", source: "u1" }]);
		const long = `${filler(400)}. I don't forget tabs matter here.`;
		const texts = [...earlier, long];
		const out = acceptAnswer(
			context(texts, { state, span: ["u17"] }),
			answer([{ msg: "u17", label: "rule", words: "forget tabs matter here." }]),
		);
		expect(added(out.events).map((r) => r.words)).toEqual(["forget tabs matter here."]);
		expect(out.questions).toEqual([]);
	});

	it("never asks when accepting as final", () => {
		const state = withRules([{ words: "always indent with tabs", source: "u1" }]);
		const texts = [...earlier, "switch to two-space indentation instead of tabs from now on"];
		const out = acceptAnswer(context(texts, { state, span: ["u17"] }), answer([{ msg: "u17", label: "rule" }]), {
			final: true,
		});
		expect(out.questions).toEqual([]);
		expect(added(out.events)).toHaveLength(1);
	});
});

describe("accepting the rest of the answer", () => {
	const ctx: AcceptContext = {
		...context(["start the dev server"]),
		ledger: new Set(["C1", "E2"]),
		turnText: (ref) =>
			ref === "u1" ? "start the dev server\n  VITE ready on http://localhost:5173/ in 312 ms" : undefined,
	};

	it("drops evidence ids the ledger does not know and keeps the decision or dead end", () => {
		const out = acceptAnswer(
			ctx,
			answer([{ msg: "u1", label: "not a rule" }], {
				decisions: [{ text: "serve with vite", evidence: ["C1", "C99"] }],
				deadEnds: [{ text: "webpack failed", evidence: ["E7"] }],
			}),
		);
		expect(out.events.filter((e) => e.type === "decision-made" || e.type === "dead-end-found")).toEqual([
			decision("serve with vite", ["C1"], "D1"),
			deadEnd("webpack failed", [], "X1"),
		]);
		expect(out.dropped).toEqual([
			{ item: "decisions[0]:C99", reason: "unknown-evidence" },
			{ item: "deadEnds[0]:E7", reason: "unknown-evidence" },
		]);
	});

	it("keeps a value only when it stands verbatim in the turn it names", () => {
		const out = acceptAnswer(
			ctx,
			answer([{ msg: "u1", label: "not a rule" }], {
				values: [
					{ name: "dev server port", value: "5173", turn: "u1" },
					{ name: "startup", value: "300 ms", turn: "u1" },
					{ name: "port", value: "5173", turn: "u9" },
				],
			}),
		);
		expect(out.events.filter((e) => e.type === "value-recorded")).toEqual([value("dev server port", "5173", "u1")]);
		expect(out.dropped).toEqual([
			{ item: "values[1]", reason: "value-not-in-turn" },
			{ item: "values[2]", reason: "unknown-turn" },
		]);
	});

	it("records no value whose text is a secret, though it stands verbatim in its turn", () => {
		const token = "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6";
		const key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y";
		const turn = `cat .env\nGITHUB_TOKEN=${token}\nAWS_SECRET_ACCESS_KEY=${key}\nPORT=5173`;
		const out = acceptAnswer(
			{ ...ctx, turnText: (ref) => (ref === "u1" ? turn : undefined) },
			answer([{ msg: "u1", label: "not a rule" }], {
				values: [
					{ name: "token", value: token, turn: "u1" },
					{ name: "AWS secret access key", value: key, turn: "u1" },
					{ name: "port", value: "5173", turn: "u1" },
				],
			}),
		);
		expect(out.events.filter((e) => e.type === "value-recorded")).toEqual([value("port", "5173", "u1")]);
		expect(out.dropped).toEqual([
			{ item: "values[0]", reason: "value-is-secret" },
			{ item: "values[1]", reason: "value-is-secret" },
		]);
	});

	it("orders the events: objective, rules, decisions, dead ends, values, narrative line, Now", () => {
		const out = acceptAnswer(
			{ ...ctx, toLabel: users(["never add dependencies"]), branch: users(["never add dependencies"]) },
			answer([{ msg: "u1", label: "rule" }], {
				objective: "ship the dev server",
				decisions: [{ text: "d", evidence: [] }],
				deadEnds: [{ text: "x", evidence: [] }],
				values: [{ name: "port", value: "5173", turn: "u1" }],
				narrative: "set up vite",
				now: "write the tests",
			}),
		);
		expect(out.events.map((e) => e.type)).toEqual([
			"objective-set",
			"rule-added",
			"decision-made",
			"dead-end-found",
			"value-recorded",
			"narrative-line",
			"now-set",
		]);
		expect(out.events.find((e) => e.type === "narrative-line")?.data).toEqual({ span: 3, text: "set up vite" });
		for (const event of out.events) expect(decodeEvent(event)._tag).toBe("Right");
	});

	it("makes a missing narrative a defect", () => {
		const out = acceptAnswer(ctx, { ...answer([{ msg: "u1", label: "not a rule" }]), narrative: undefined });
		expect(out.defects.map((d) => d.code)).toEqual(["narrative-missing"]);
		expect(out.events).toEqual([]);
	});

	it("drops a decision with no text", () => {
		const out = acceptAnswer(
			ctx,
			answer([{ msg: "u1", label: "not a rule" }], { decisions: [{ text: "", evidence: [] }] }),
		);
		expect(out.dropped).toEqual([{ item: "decisions[0]", reason: "empty-text" }]);
	});
});

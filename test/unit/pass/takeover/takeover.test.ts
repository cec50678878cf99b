import { describe, expect, it } from "vitest";
import type { Event, UserMessage } from "../../../../src/events/index.js";
import { type AcceptContext, acceptAnswer } from "../../../../src/pass/accept/accept.js";
import { exactWords, pickRecords, pickWords } from "../../../../src/pass/accept/verify/earlier-words.js";
import type { RawAnswer, RawLabel } from "../../../../src/pass/answer/answer.js";
import { derivedSpan, sliceSpan } from "../../../../src/pass/span/span.js";
import { offerOf, rereadRefs, standingEvents, takeoverOf } from "../../../../src/pass/takeover/takeover.js";
import { foldEntries, initialState, type State } from "../../../../src/reducers/index.js";
import { rawAnswer } from "../../../support/answers.js";
import { applied } from "../../../support/applied.js";
import { assistant, chain, longhaulDetails, piCompaction, type Raw, user } from "../../../support/entries.js";
import { dataOf, ruleAdded, ruleLifted, spanClosed } from "../../../support/events.js";
import { acceptContext } from "../../../support/users.js";

function longhaulCompaction(id: string, parentId: string, firstKept: string, events: readonly Event[]): Raw {
	return { ...piCompaction(id, parentId, firstKept, "state"), details: longhaulDetails(1, events) };
}

function takeoverAt(branch: readonly Raw[], firstKept: string) {
	const folded = foldEntries(branch);
	const slice = sliceSpan(folded, derivedSpan(folded.branch, firstKept), folded.state);
	return { slice, takeover: takeoverOf(folded, slice) };
}

const refs = (messages: readonly UserMessage[] | undefined) => (messages ?? []).map((u) => u.ref);
const closed = (kind: "whole" | "narrative-less", unlabeled: readonly string[]): Event =>
	spanClosed(1, kind, [...unlabeled], kind === "whole" ? null : "model-threw:Error");

describe("takeoverOf", () => {
	it("finds no takeover on a branch with no compaction, or whose newest compaction is Longhaul's", () => {
		const plain = chain([user("never use tabs"), assistant("ok"), user("next")]);
		expect(takeoverAt(plain, "e3").takeover).toBeUndefined();
		const longhaul = [
			...plain,
			longhaulCompaction("c1", "e3", "e3", [closed("whole", [])]),
			...chain([user("go on"), assistant("ok"), user("more")], "f", "c1"),
		];
		expect(takeoverAt(longhaul, "f3").takeover).toBeUndefined();
	});

	it("a Longhaul compaction older than a foreign one does not stop the takeover", () => {
		const branch = [
			...chain([user("hello"), assistant("ok")]),
			longhaulCompaction("c1", "e2", "e2", [closed("whole", [])]),
			...chain([user("never use tabs"), assistant("ok")], "f", "c1"),
			piCompaction("p1", "f2", "f2", "pi's words"),
			...chain([user("go on"), assistant("ok"), user("more")], "g", "p1"),
		];
		const { takeover } = takeoverAt(branch, "g3");
		expect(takeover?.summary).toBe("pi's words");
		expect(refs(takeover?.offered)).toEqual(["u2"]);
		expect(refs(takeover?.standing)).toEqual(["u2"]);
	});

	it("a Longhaul compaction of a newer state format is read as foreign: its summary is shown", () => {
		const branch = [
			...chain([user("never use tabs"), assistant("ok")]),
			{
				...piCompaction("c1", "e2", "e2", "newer state"),
				details: { stateFormat: 2, longhaul: true, span: 1, events: [] },
			},
			...chain([user("go on"), assistant("ok"), user("more")], "f", "c1"),
		];
		expect(takeoverAt(branch, "f3").takeover?.summary).toBe("newer state");
	});

	it("a foreign compaction with no summary text shows an empty summary", () => {
		const { summary: _, ...unsummarized } = piCompaction("p1", "e2", "e2", "");
		const branch = [
			...chain([user("never use tabs"), assistant("ok")]),
			{ ...unsummarized, summary: 42 },
			...chain([user("go on"), assistant("ok"), user("more")], "f", "p1"),
		];
		const { takeover } = takeoverAt(branch, "f3");
		expect(takeover?.summary).toBe("");
		expect(refs(takeover?.standing)).toEqual(["u1"]);
	});

	it("offers every user message before the span, picks the standing rules and cuts the rest to their start", () => {
		const long = `tests go under tests/ and ${"the fixtures sit beside them ".repeat(8)}`;
		const branch = [
			...chain([user("never use tabs"), assistant("ok"), user(long), assistant("ok"), user("short one")]),
			piCompaction("p1", "e5", "e5", "summary"),
			...chain([user("go on"), assistant("ok"), user("more")], "f", "p1"),
		];
		const { takeover, slice } = takeoverAt(branch, "f3");
		expect(refs(slice.users)).toEqual(["u3", "u4"]);
		expect(refs(takeover?.offered)).toEqual(["u1", "u2"]);
		expect(refs(takeover?.standing)).toEqual(["u1"]);
		expect(refs(takeover?.earlier)).toEqual(["u2"]);
		expect([...(takeover?.excerpted ?? [])]).toEqual(["u2"]);
	});

	it("with a Longhaul state, offers only the messages since its last whole span, carried ones once", () => {
		const branch = [
			...chain([user("never use tabs"), assistant("ok"), user("next")]),
			longhaulCompaction("c1", "e3", "e3", [closed("whole", [])]),
			...chain([user("always lint"), assistant("ok"), user("keep going")], "f", "c1"),
			longhaulCompaction("c2", "f3", "f3", [closed("narrative-less", ["u2", "u3"])]),
			...chain([user("docs too"), assistant("ok"), user("more")], "g", "c2"),
			piCompaction("p1", "g3", "g3", "pi's summary"),
			...chain([user("carry on"), assistant("ok"), user("end")], "h", "p1"),
		];
		const { takeover, slice } = takeoverAt(branch, "h3");
		expect(refs(slice.carried)).toEqual(["u2", "u3"]);
		expect(refs(takeover?.offered)).toEqual(["u2", "u3", "u4", "u5"]);
		expect(refs(takeover?.standing)).toEqual(["u3"]);
		expect(refs(takeover?.earlier)).toEqual(["u4", "u5"]);
		const offer = offerOf(slice, takeover);
		expect(refs(offer.before)).toEqual(["u2", "u3", "u4", "u5"]);
		expect(refs(offer.prompt.whole)).toEqual(["u2"]);
		expect(refs(offer.prompt.standing)).toEqual(["u3"]);
		expect(refs(offer.prompt.earlier)).toEqual(["u4", "u5"]);
		expect([...(offer.labels.reopened ?? [])]).toEqual(["u2", "u3", "u4", "u5"]);
	});

	it("without a takeover the offer is the carried messages, shown whole and reopened", () => {
		const branch = [
			...chain([user("never use tabs"), assistant("ok"), user("next")]),
			longhaulCompaction("c1", "e3", "e3", [closed("narrative-less", ["u1"])]),
			...chain([user("go on"), assistant("ok"), user("more")], "f", "c1"),
		];
		const { takeover, slice } = takeoverAt(branch, "f3");
		const offer = offerOf(slice, takeover);
		expect(refs(offer.before)).toEqual(["u1"]);
		expect(refs(offer.prompt.whole)).toEqual(["u1"]);
		expect(offer.prompt.foreignSummary).toBeUndefined();
		expect(offer.picks).toEqual([]);
	});
});

describe("standingEvents", () => {
	const picks: UserMessage[] = [
		{ ref: "u1", entryId: "e1", text: "  never use tabs\n" },
		{ ref: "u2", entryId: "e2", text: "always run lint" },
		{ ref: "u3", entryId: "e3", text: "don't push to main" },
	];

	it("records each pick whole (trimmed), in message order, unless its message already gave a rule", () => {
		const state = applied(initialState, [
			ruleAdded("always run lint", "u2"),
			ruleAdded("don't push to main", "u3"),
			ruleLifted("u3", "u4"),
		]);
		expect(standingEvents(state, picks)).toEqual([ruleAdded("never use tabs", "u1", "R3")]);
	});
});

describe("standingEvents, by the message a rule came from", () => {
	const pick: UserMessage = { ref: "u1", entryId: "e1", text: "never use tabs. always run lint" };

	it("records nothing from a message that gave a rule in force, though in other words", () => {
		const state = applied(initialState, [ruleAdded("never use tabs.", "u1")]);
		expect(standingEvents(state, [pick])).toEqual([]);
	});

	it("records nothing from a message whose rule was lifted, though in other words", () => {
		const state = applied(initialState, [ruleAdded("always run lint", "u1"), ruleLifted("u1", "u2")]);
		expect(standingEvents(state, [pick])).toEqual([]);
	});
});

describe("rereadRefs", () => {
	const filler = "the rest of this message is a long paste of notes about the build. ".repeat(10);
	const long: UserMessage = { ref: "u1", entryId: "e1", text: `Never push to main. ${filler}` };
	const short: UserMessage = { ref: "u2", entryId: "e2", text: "always run lint" };
	const added = (words: string, source: string): Event => ruleAdded(words, source);

	it("names the offered messages whose rules were recorded from the reader's sentences, once each", () => {
		const events = [
			added("Never push to main.", "u1"),
			added("Never push to main.", "u1"),
			added("always run lint", "u2"),
		];
		expect(rereadRefs(events, [long, short])).toEqual(["u1"]);
	});

	it("reads each offered message's own sentences: a rule from the second is named by the second's", () => {
		const other: UserMessage = { ref: "u2", entryId: "e2", text: `Always run the linter first. ${filler}` };
		const events = [added("Always run the linter first.", "u2")];
		expect(rereadRefs(events, [long, other])).toEqual(["u2"]);
		expect(rereadRefs([added("Never push to main.", "u1"), ...events], [long, other])).toEqual(["u1", "u2"]);
	});

	it("names no message that is not offered, nor one whose rule came from a label's words", () => {
		const events = [added("Never push to main.", "u3"), added("push to main", "u1"), closed("whole", [])];
		expect(rereadRefs(events, [long, short])).toEqual([]);
	});
});

describe("the words a takeover records", () => {
	it("a pick in a pi-goal message records its objective, never the template", () => {
		const text =
			"Work toward this goal. <objective>never touch the vendored code</objective> You must report progress.";
		expect(pickWords({ ref: "u1", entryId: "e1", text })?.text).toBe("never touch the vendored code");
	});

	it("a pick over 600 characters records by itself only the sentences the reader reads as rules, never the paste", () => {
		const at600 = { ref: "u1", entryId: "e1", text: `never ${"x".repeat(594)}` };
		const paste = `${"Error: Invalid hex color: #000cc\n    at hexToRgb (theme.ts:148:9)\n".repeat(10)}`;
		const over = { ref: "u2", entryId: "e2", text: `it crashed again.  Invalid themes must NEVER explode\n\n${paste}` };
		expect(pickWords(at600)?.text).toBe(at600.text);
		expect(pickWords(over)).toBeUndefined();
		expect(pickRecords(over).map((r) => r.text)).toEqual(["Invalid themes must NEVER explode"]);
		expect(standingEvents(initialState, [at600, over])).toEqual([
			ruleAdded(at600.text, "u1", "R1"),
			ruleAdded("Invalid themes must NEVER explode", "u2", "R2"),
		]);
	});

	it("a long pick records each rule sentence once, and nothing when the reader reads none of its own sentences", () => {
		const twice = { ref: "u1", entryId: "e1", text: `${"never push to main. ".repeat(40)}ok` };
		expect(pickRecords(twice).map((r) => r.text)).toEqual(["never push to main."]);
		expect(standingEvents(initialState, [twice])).toHaveLength(1);
		const quoted = { ref: "u2", entryId: "e2", text: `> never push to main\n${"the log says so. ".repeat(40)}` };
		expect(pickRecords(quoted)).toEqual([]);
	});

	it("exact words stand in the message on word boundaries, or record nothing", () => {
		const msg = { ref: "u1", entryId: "e1", text: "long preamble here. Tests go under tests/ always." };
		expect(exactWords(msg, '"Tests go under tests/"')?.text).toBe("Tests go under tests/");
		expect(exactWords(msg, "ests go under")).toBeUndefined();
		expect(exactWords(msg, "tests go elsewhere")).toBeUndefined();
		expect(exactWords(msg, undefined)).toBeUndefined();
	});
});

// ---------------------------------------------------------------------------------------------------------------
// Acceptance of a takeover's labels
// ---------------------------------------------------------------------------------------------------------------

const answer = (labels: readonly RawLabel[]): RawAnswer => rawAnswer(labels, { narrative: "n" });
const added = (events: readonly Event[]) => dataOf(events, "rule-added").map((d) => [d.words, d.source]);
const lifted = (events: readonly Event[]) => dataOf(events, "rule-lifted").map((d) => [d.target, d.by]);

function context(
	texts: readonly string[],
	takeover: Partial<AcceptContext>,
	state: State = initialState,
): AcceptContext {
	return acceptContext(texts, { state, span: 2, turnText: () => undefined, ...takeover });
}

describe("accepting labels when taking over", () => {
	const texts = ["never use tabs", "the tabs rule is lifted", "go on"];
	const picks = { standing: new Set(["u1"]), reopened: new Set(["u1", "u2"]) };

	it("an unlabeled pick needs no label and is recorded; any other unlabeled earlier message is a defect", () => {
		const out = acceptAnswer(context(texts, picks), answer([{ msg: "u3", label: "not a rule" }]));
		expect(added(out.events)).toEqual([["never use tabs", "u1"]]);
		expect(out.defects.map((d) => [d.code, d.msg])).toEqual([["unlabeled", "u2"]]);
		expect(out.labeled).toEqual(["u1", "u3"]);
	});

	it("a lift of a pick withdraws it in the same answer, since picks are recorded in message order", () => {
		const out = acceptAnswer(
			context(texts, picks),
			answer([
				{ msg: "u2", label: "lifts u1" },
				{ msg: "u3", label: "not a rule" },
			]),
		);
		expect(added(out.events)).toEqual([["never use tabs", "u1"]]);
		expect(lifted(out.events)).toEqual([["u1", "u2"]]);
		expect(out.defects).toEqual([]);
	});

	it("a pick labeled `rule` with words that stand nowhere is recorded whole instead of sent back", () => {
		const out = acceptAnswer(
			context(texts, picks),
			answer([
				{ msg: "u1", label: "rule", words: "words no user wrote" },
				{ msg: "u2", label: "not a rule" },
				{ msg: "u3", label: "not a rule" },
			]),
		);
		expect(added(out.events)).toEqual([["never use tabs", "u1"]]);
		expect(out.defects).toEqual([]);
	});

	it("a pick whose message already gave a rule in force is not recorded twice; a one-off label withdraws that rule", () => {
		const state = applied(initialState, [ruleAdded("never use tabs", "u1")]);
		const unlabeled = acceptAnswer(
			context(texts, picks, state),
			answer([
				{ msg: "u2", label: "not a rule" },
				{ msg: "u3", label: "not a rule" },
			]),
		);
		expect(added(unlabeled.events)).toEqual([]);
		const oneOff = acceptAnswer(
			context(texts, picks, state),
			answer([
				{ msg: "u1", label: "one-off" },
				{ msg: "u2", label: "not a rule" },
				{ msg: "u3", label: "not a rule" },
			]),
		);
		expect(lifted(oneOff.events)).toEqual([["R1", "u1"]]);
	});

	it("a pick whose message gave a rule in other words, in force or lifted, records nothing more", () => {
		const labels = answer([
			{ msg: "u2", label: "not a rule" },
			{ msg: "u3", label: "not a rule" },
		]);
		const inForce = applied(initialState, [ruleAdded("use tabs", "u1")]);
		expect(added(acceptAnswer(context(texts, picks, inForce), labels).events)).toEqual([]);
		const gone = applied(initialState, [ruleAdded("use tabs", "u1"), ruleLifted("R1", "u2")]);
		expect(added(acceptAnswer(context(texts, picks, gone), labels).events)).toEqual([]);
	});

	it("only an unlabeled pick is asked whether it replaces an earlier rule", () => {
		const replacing = ["always indent with tabs", "from now on indent with spaces instead of tabs", "go on"];
		const state = applied(initialState, [ruleAdded("always indent with tabs", "u1")]);
		const ctx = context(replacing, { standing: new Set(["u2"]), reopened: new Set(["u1", "u2"]) }, state);
		const withPick = (pick: readonly RawLabel[]) =>
			acceptAnswer(ctx, answer([{ msg: "u1", label: "rule" }, ...pick, { msg: "u3", label: "not a rule" }]));
		const unlabeled = withPick([]);
		expect(added(unlabeled.events)).toEqual([["from now on indent with spaces instead of tabs", "u2"]]);
		expect(unlabeled.questions.map((q) => [q.msg, q.targets])).toEqual([["u2", ["u1"]]]);
		const notARule = withPick([{ msg: "u2", label: "not a rule" }]);
		expect(added(notARule.events)).toEqual([["from now on indent with spaces instead of tabs", "u2"]]);
		expect(notARule.questions).toEqual([]);
	});

	it("a pick labeled `not a rule` is still recorded, and a rule already recorded from it stays in force", () => {
		const fresh = acceptAnswer(
			context(texts, picks),
			answer([
				{ msg: "u1", label: "not a rule" },
				{ msg: "u2", label: "not a rule" },
				{ msg: "u3", label: "not a rule" },
			]),
		);
		expect(added(fresh.events)).toEqual([["never use tabs", "u1"]]);
		const state = applied(initialState, [ruleAdded("never use tabs", "u1")]);
		const reopened = acceptAnswer(
			context(texts, picks, state),
			answer([
				{ msg: "u1", label: "not a rule" },
				{ msg: "u2", label: "not a rule" },
				{ msg: "u3", label: "not a rule" },
			]),
		);
		expect(added(reopened.events)).toEqual([]);
		expect(lifted(reopened.events)).toEqual([]);
	});

	it("a pick over 600 characters is recorded from exact words a label gives, else from the reader's sentences without a defect", () => {
		const long = `${"we looked at the logs together. ".repeat(20)}Never commit generated files.`;
		const ctx = context([long, "go on"], { standing: new Set(["u1"]), reopened: new Set(["u1"]) });
		const sentence = [["Never commit generated files.", "u1"]];
		const unlabeled = acceptAnswer(ctx, answer([{ msg: "u2", label: "not a rule" }]));
		expect(added(unlabeled.events)).toEqual(sentence);
		expect(unlabeled.defects).toEqual([]);
		const noWords = acceptAnswer(
			ctx,
			answer([
				{ msg: "u1", label: "rule" },
				{ msg: "u2", label: "not a rule" },
			]),
		);
		expect(added(noWords.events)).toEqual(sentence);
		expect(noWords.defects).toEqual([]);
		expect(noWords.dropped).toEqual([{ item: "u1", reason: "pick-words" }]);
		const inside = acceptAnswer(
			ctx,
			answer([
				{ msg: "u1", label: "rule", words: "ever commit generated" },
				{ msg: "u2", label: "not a rule" },
			]),
		);
		expect(added(inside.events)).toEqual(sentence);
		expect(inside.defects).toEqual([]);
		const exact = acceptAnswer(
			ctx,
			answer([
				{ msg: "u1", label: "rule", words: "Never commit generated" },
				{ msg: "u2", label: "not a rule" },
			]),
		);
		expect(added(exact.events)).toEqual([["Never commit generated", "u1"]]);
		const oneOff = acceptAnswer(
			ctx,
			answer([
				{ msg: "u1", label: "one-off" },
				{ msg: "u2", label: "not a rule" },
			]),
		);
		expect(added(oneOff.events)).toEqual([]);
	});

	describe("a long message whose reader sentences are in force, offered again", () => {
		const long = `${"we looked at the logs together. ".repeat(20)}Never commit generated files. Always run lint.`;
		const state = applied(initialState, [
			ruleAdded("never use tabs", "u2"),
			ruleAdded("Never commit generated files.", "u1"),
			ruleAdded("Always run lint.", "u1"),
		]);
		const ctx = context([long, "never use tabs", "go on"], { reopened: new Set(["u1"]) }, state);
		const rest = [
			{ msg: "u2", label: "not a rule" },
			{ msg: "u3", label: "not a rule" },
		];

		it("`rule` with verified words replaces its sentences: they are lifted, the words recorded with the next id", () => {
			const out = acceptAnswer(ctx, answer([{ msg: "u1", label: "rule", words: "Never commit generated" }, ...rest]));
			expect(lifted(out.events)).toEqual([
				["R3", "u1"],
				["R2", "u1"],
			]);
			expect(out.events.filter((e) => e.type === "rule-added")).toEqual([
				ruleAdded("Never commit generated", "u1", "R4"),
			]);
		});

		it("`rule` whose words stand only in another message binds them there and leaves its sentences in force", () => {
			const out = acceptAnswer(ctx, answer([{ msg: "u1", label: "rule", words: "never use tabs" }, ...rest]));
			expect(lifted(out.events)).toEqual([]);
			expect(added(out.events)).toEqual([]);
			expect(out.defects).toEqual([]);
		});

		it("`rule` whose words are one of its sentences keeps that one and lifts the others", () => {
			const out = acceptAnswer(ctx, answer([{ msg: "u1", label: "rule", words: "Always run lint." }, ...rest]));
			expect(lifted(out.events)).toEqual([["R2", "u1"]]);
			expect(added(out.events)).toEqual([]);
		});

		it("`one-off` withdraws every sentence of it, and a rule of another message stays", () => {
			const out = acceptAnswer(ctx, answer([{ msg: "u1", label: "one-off" }, ...rest]));
			expect(lifted(out.events)).toEqual([
				["R3", "u1"],
				["R2", "u1"],
			]);
		});

		it("a lift label withdraws every sentence of it, whatever becomes of the lift it names", () => {
			const out = acceptAnswer(ctx, answer([{ msg: "u1", label: "lifts u2" }, ...rest]));
			expect(lifted(out.events)).toEqual([
				["R3", "u1"],
				["R2", "u1"],
			]);
		});

		it("`rule` without words is sent back, and its sentences stay in force", () => {
			const out = acceptAnswer(ctx, answer([{ msg: "u1", label: "rule" }, ...rest]));
			expect(out.defects.map((d) => [d.code, d.msg])).toEqual([["words-missing", "u1"]]);
			expect(lifted(out.events)).toEqual([]);
		});
	});

	it("a one-off label withdraws nothing on a message that is not offered again", () => {
		const state = applied(initialState, [ruleAdded("go on", "u3")]);
		const out = acceptAnswer(
			context(texts, picks, state),
			answer([
				{ msg: "u2", label: "not a rule" },
				{ msg: "u3", label: "one-off" },
			]),
		);
		expect(lifted(out.events)).toEqual([]);
	});

	it("a rule in an earlier message shown cut is recorded only from exact words standing in it", () => {
		const long = `${"some context ".repeat(15)}tests go under tests/ from the start.`;
		const ctx = context([long, "go on"], { excerpted: new Set(["u1"]) });
		const none = acceptAnswer(
			ctx,
			answer([
				{ msg: "u1", label: "rule" },
				{ msg: "u2", label: "not a rule" },
			]),
		);
		expect(added(none.events)).toEqual([]);
		expect(none.dropped).toEqual([{ item: "u1", reason: "excerpt-words" }]);
		expect(none.defects).toEqual([]);
		const elsewhere = acceptAnswer(
			ctx,
			answer([
				{ msg: "u1", label: "rule", words: "go on" },
				{ msg: "u2", label: "not a rule" },
			]),
		);
		expect(added(elsewhere.events)).toEqual([]);
		const exact = acceptAnswer(
			ctx,
			answer([
				{ msg: "u1", label: "rule", words: "tests go under tests/" },
				{ msg: "u2", label: "not a rule" },
			]),
		);
		expect(added(exact.events)).toEqual([["tests go under tests/", "u1"]]);
	});
});

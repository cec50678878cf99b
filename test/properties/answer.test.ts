import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, it } from "vitest";
import { decodeEvent, type Event } from "../../src/events/index.js";
import { ownWords } from "../../src/events/own-words.js";
import { contentWords, readWithdrawal, withdrawsWords } from "../../src/events/withdrawal.js";
import { type AcceptContext, acceptAnswer } from "../../src/pass/accept/accept.js";
import { type Question, renderQuestions } from "../../src/pass/accept/questions.js";
import { applyReplies } from "../../src/pass/accept/replies.js";
import { readAnswer } from "../../src/pass/answer/answer.js";
import type { LiftedRule, State } from "../../src/reducers/index.js";
import { applied } from "../support/applied.js";
import { acceptContext, users } from "../support/users.js";
import { withoutId } from "../support/without-ids.js";
import { hostileText, RULE_VOCABULARY, stateFrom } from "./arbitraries.js";
import { law, sameJson } from "./laws.js";

/** The lift check as acceptance runs it: the whole message, in the user's own words, against the rule's words. */
const liftPasses = (message: string, rule: string): boolean =>
	withdrawsWords(readWithdrawal(ownWords(message)), contentWords(rule));

const COUNTED_KINDS = new Set(["rule-added", "decision-made", "dead-end-found", "note-remembered"]);

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries: user messages, a state built from them, and any reply a model could give about them.
// ---------------------------------------------------------------------------------------------------------------

const RULE_WORDS = [...RULE_VOCABULARY, "tests", "the", "rule", "DRY:", "now", "you", "may"];
const WITHDRAWING = ["no longer", "is lifted", "doesn't apply", "instead of", "forget", "never mind", "disregard"];
const MARKUP = [
	'"',
	"\u201c",
	"\u201d",
	"\u201e",
	"\u00ab",
	"\u00bb",
	"`",
	"\n> ",
	"\n```\n",
	"<objective>",
	"</objective>",
	"\n",
	",",
	".",
];

const phrase = (vocabulary: readonly string[]) =>
	fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 14 }).map((words) => words.join(" "));
const longText = (vocabulary: readonly string[]) =>
	fc.tuple(phrase(vocabulary), fc.integer({ min: 20, max: 60 })).map(([text, times]) => `${text} `.repeat(times));

function messageText(vocabulary: readonly string[], hostile: boolean): fc.Arbitrary<string> {
	const built = fc.oneof({ weight: 4, arbitrary: phrase(vocabulary) }, { weight: 1, arbitrary: longText(vocabulary) });
	return hostile ? fc.oneof(built, hostileText) : built;
}

/** A slice of one message: mostly whole words, sometimes cut anywhere, as a model might quote. */
function slice(texts: readonly string[]): fc.Arbitrary<string> {
	const pick = fc.tuple(fc.nat({ max: texts.length - 1 }), fc.nat(), fc.nat());
	const words = pick.map(([i, a, b]) => {
		const parts = (texts[i] ?? "").split(" ");
		const start = a % parts.length;
		return parts.slice(start, start + 1 + (b % 8)).join(" ");
	});
	const chars = pick.map(([i, a, b]) => {
		const text = texts[i] ?? "";
		const start = text.length === 0 ? 0 : a % text.length;
		return text.slice(start, start + 1 + (b % 80));
	});
	return fc.oneof({ weight: 3, arbitrary: words }, { weight: 1, arbitrary: chars });
}

const target = fc.oneof(
	{ weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }).map((n) => `R${n}`) },
	{ weight: 2, arbitrary: fc.integer({ min: 1, max: 8 }).map((n) => `u${n}`) },
	{ weight: 1, arbitrary: fc.integer({ min: 4, max: 9 }).map((n) => `R${n}`) },
);
const targets = fc.array(target, { minLength: 1, maxLength: 3 }).map((ts) => ts.join(", "));
const labelText = fc.oneof(
	{ weight: 3, arbitrary: fc.constantFrom("rule", "not a rule", "one-off", " Rule ", "NOT A RULE") },
	{ weight: 3, arbitrary: targets.map((ts) => `lifts ${ts}`) },
	{ weight: 2, arbitrary: targets.map((ts) => `rule and lifts ${ts}`) },
	{ weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
/** Mostly a message id (often one of the span's), sometimes junk that fails the schema. */
const msgRef = fc.oneof(
	{ weight: 12, arbitrary: fc.integer({ min: 1, max: 8 }).map((n) => `u${n}`) },
	{ weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);

function labelItem(texts: readonly string[]) {
	return fc.record(
		{
			msg: msgRef,
			label: labelText,
			words: fc.oneof(
				{ weight: 3, arbitrary: slice(texts) },
				{ weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
				{ weight: 2, arbitrary: fc.constant(null) },
			),
		},
		{ requiredKeys: ["msg", "label"] },
	);
}

/** Any reply: noise, arbitrary JSON, or an answer-shaped object quoting the messages and random text. */
function reply(texts: readonly string[]): fc.Arbitrary<string> {
	const shaped = fc
		.record(
			{
				labels: fc.array(labelItem(texts), { maxLength: 8 }),
				decisions: fc.array(fc.record({ text: fc.string({ maxLength: 20 }), evidence: fc.array(target) }), {
					maxLength: 3,
				}),
				narrative: fc.oneof(fc.string({ maxLength: 40 }), fc.constant(null)),
				now: fc.string({ maxLength: 40 }),
				values: fc.array(fc.record({ name: fc.string({ maxLength: 8 }), value: slice(texts), turn: msgRef }), {
					maxLength: 3,
				}),
			},
			{ requiredKeys: ["labels"] },
		)
		.map((answer) => JSON.stringify(answer));
	const wrapped = fc
		.tuple(
			shaped,
			fc.constantFrom("", "Here it is:\n```json\n", "Sure. "),
			fc.constantFrom("", "\n```", " Hope that helps."),
		)
		.map(([json, before, after]) => `${before}${json}${after}`);
	return fc.oneof(
		{ weight: 1, arbitrary: fc.string() },
		{ weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
		{ weight: 6, arbitrary: wrapped },
	);
}

/** A takeover's sets over the messages before the span: standing picks, earlier ones shown cut, ones offered again. */
interface TakeoverSets {
	readonly standing: ReadonlySet<string>;
	readonly excerpted: ReadonlySet<string>;
	readonly reopened: ReadonlySet<string>;
}

const NO_TAKEOVER: TakeoverSets = { standing: new Set(), excerpted: new Set(), reopened: new Set() };

interface World {
	readonly texts: readonly string[];
	readonly state: State;
	readonly spanFrom: number;
	/** When taking over, the messages before `spanFrom` are offered too. */
	readonly takeover: TakeoverSets | null;
	readonly answers: readonly string[];
	/** Per answer, a reply text, or null for a reply that takes up every question asked. */
	readonly replies: readonly (string | null)[];
}

/** Some of the refs `u1` … `u<count>`. */
function someRefs(count: number): fc.Arbitrary<ReadonlySet<string>> {
	const all = Array.from({ length: count }, (_, i) => `u${i + 1}`);
	return fc.subarray(all).map((refs) => new Set(refs));
}

/** Sometimes no takeover; else standing picks, cut messages and reopened ones among the messages. */
function takeoverOf(count: number): fc.Arbitrary<TakeoverSets | null> {
	const sets = fc.record({ standing: someRefs(count), excerpted: someRefs(count), reopened: someRefs(count) });
	return fc.oneof(fc.constant(null), sets);
}

/**
 * Messages, a state whose rules are slices of them, the span (a suffix), a run of answers and replies, and, when
 * `takeover`, sometimes a takeover that offers the messages before the span too.
 */
function world(vocabulary: readonly string[], hostile: boolean, takeover = false): fc.Arbitrary<World> {
	return fc.array(messageText(vocabulary, hostile), { minLength: 1, maxLength: 8 }).chain((texts) =>
		fc.record({
			texts: fc.constant(texts),
			state: fc
				.array(fc.tuple(fc.nat({ max: texts.length - 1 }), fc.nat(), fc.nat()), { minLength: 1, maxLength: 4 })
				.map((picks) => stateFrom(texts, picks)),
			spanFrom: fc.nat({ max: texts.length - 1 }),
			takeover: takeover ? takeoverOf(texts.length) : fc.constant(null),
			answers: fc.array(reply(texts), { minLength: 1, maxLength: 3 }),
			replies: fc.array(fc.oneof(reply(texts), fc.constant(null)), { minLength: 3, maxLength: 3 }),
		}),
	);
}

// ---------------------------------------------------------------------------------------------------------------
// Running a pass's diff step over a world
// ---------------------------------------------------------------------------------------------------------------

/** A reply that adds the first asked target to every asked label. */
function takeEveryQuestion(asked: readonly Question[]): string {
	const labels = asked.map((q) => ({
		msg: q.msg,
		label: `${q.label.startsWith("rule") ? "rule and lifts" : "lifts"} ${[...q.label.split(/lifts |, /).slice(1), q.targets[0]].join(", ")}`,
	}));
	return JSON.stringify({ labels });
}

interface Step {
	readonly before: State;
	readonly events: readonly Event[];
	readonly after: State;
}

/** Every answer in turn: read, accept, ask what it raises, apply the reply, fold the events. */
function run(w: World): { steps: Step[]; ctx: AcceptContext } {
	const branch = users(w.texts);
	let state = w.state;
	const steps: Step[] = [];
	let ctx = acceptContext(w.texts, { state, toLabel: [], turnText: () => undefined });
	const takeover = w.takeover ?? NO_TAKEOVER;
	w.answers.forEach((text, index) => {
		ctx = acceptContext(w.texts, {
			state,
			span: index + 1,
			toLabel: w.takeover === null ? branch.slice(w.spanFrom) : branch,
			ledger: new Set(["C1", "E1"]),
			...takeover,
		});
		const answer = readAnswer(text);
		if (E.isLeft(answer)) return;
		const accepted = acceptAnswer(ctx, answer.right);
		const { asked } = renderQuestions(accepted.questions, 2000);
		const replyText = w.replies[index] ?? takeEveryQuestion(asked);
		const events = applyReplies(ctx, answer.right, asked, replyText).accepted.events;
		const after = applied(state, events);
		steps.push({ before: state, events, after });
		state = after;
	});
	return { steps, ctx };
}

const verbatim = (texts: readonly string[], state: State) =>
	state.rules.every((rule) => texts.some((text) => text.includes(rule.text)));

// ---------------------------------------------------------------------------------------------------------------
// Laws
// ---------------------------------------------------------------------------------------------------------------

/** More runs than the default: most arbitrary answers place no lift, and the laws are about the ones that do. */
const RUNS = { numRuns: 300 };

describe("diff answer laws", () => {
	it("any model answer leaves only verbatim rules, taking over or not", () => {
		law(
			[world([...RULE_WORDS, ...WITHDRAWING, ...MARKUP], true, true)],
			(w) => {
				const { steps } = run(w);
				return steps.every(
					(step) => step.events.every((event) => E.isRight(decodeEvent(event))) && verbatim(w.texts, step.after),
				);
			},
			RUNS,
		);
	});

	it("a rule leaves the state only through an accepted lift whose message passes the withdrawal check", () => {
		law(
			[world([...RULE_WORDS, ...WITHDRAWING, ...MARKUP], false)],
			(w) => {
				const { steps, ctx } = run(w);
				const spanRefs = new Set(ctx.toLabel.map((m) => m.ref));
				return steps.every((step) => {
					const kept = new Set(step.after.rules.map((r) => r.id));
					const liftedNow = step.after.lifted.slice(step.before.lifted.length);
					const gone = step.before.rules.filter((r) => !kept.has(r.id));
					return (
						gone.every((rule) => liftedNow.some((l) => l.id === rule.id)) &&
						liftedNow.every((l) => spanRefs.has(l.by) && liftPasses(w.texts[Number(l.by.slice(1)) - 1] ?? "", l.text))
					);
				});
			},
			RUNS,
		);
	});

	it("taking over, a rule leaves the state only through an accepted lift or a non-rule label on the reopened message that gave it", () => {
		law(
			[world([...RULE_WORDS, ...WITHDRAWING, ...MARKUP], false, true)],
			(w) => {
				const { steps, ctx } = run(w);
				const offered = new Set(ctx.toLabel.map((m) => m.ref));
				const reopened = w.takeover?.reopened ?? new Set<string>();
				return steps.every((step) => {
					const kept = new Set(step.after.rules.map((r) => r.id));
					const liftedNow = step.after.lifted.slice(step.before.lifted.length);
					const gone = step.before.rules.filter((r) => !kept.has(r.id));
					const byLift = (l: LiftedRule) =>
						offered.has(l.by) && liftPasses(w.texts[Number(l.by.slice(1)) - 1] ?? "", l.text);
					const byOwnLabel = (l: LiftedRule) => reopened.has(l.by) && l.source === l.by;
					return (
						gone.every((rule) => liftedNow.some((l) => l.id === rule.id)) &&
						liftedNow.every((l) => byLift(l) || byOwnLabel(l))
					);
				});
			},
			RUNS,
		);
	});

	it("ids are decided with the events: an answer's rules, decisions and dead ends carry the ids the fold would give them stored without ids", () => {
		law(
			[world([...RULE_WORDS, ...WITHDRAWING, ...MARKUP], false, true)],
			(w) =>
				run(w).steps.every(
					(step) =>
						step.events.every((e) => !COUNTED_KINDS.has(e.type) || ("id" in e.data && e.data.id !== undefined)) &&
						sameJson(step.after, applied(step.before, step.events.map(withoutId))),
				),
			RUNS,
		);
	});

	it("rules survive any number of arbitrary answers when no user message withdraws anything", () => {
		law(
			[world([...RULE_WORDS.filter((w) => w !== "rule"), ...MARKUP], false)],
			(w) => {
				const { steps } = run(w);
				return steps.every((step) => step.before.rules.every((rule) => step.after.rules.some((r) => r.id === rule.id)));
			},
			RUNS,
		);
	});
});

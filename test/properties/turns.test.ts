import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { diffTurns } from "../../src/adapters/pass/turns.js";
import { decodeEvent } from "../../src/events/index.js";
import type { Message } from "../../src/events/messages.js";
import type { TurnsInput } from "../../src/pass/conversation/index.js";
import type { State } from "../../src/reducers/index.js";
import { applied } from "../support/applied.js";
import { noWorld } from "../support/events.js";
import { type ScriptedStep, scriptedConversationModel } from "../support/scripted-model.js";
import { acceptContext, users } from "../support/users.js";
import { hostileText, RULE_VOCABULARY, stateFrom } from "./arbitraries.js";
import { params } from "./laws.js";

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries: user messages, a state whose rules are slices of them, and any reply a model could give a turn.
// ---------------------------------------------------------------------------------------------------------------

const VOCABULARY = [
	...RULE_VOCABULARY,
	"the",
	"rule",
	"now",
	"no longer",
	"is lifted",
	"instead of",
	"forget",
	'"',
	"\u201c",
	"`",
	"\n> ",
	"\n```\n",
	"<objective>",
	"</objective>",
	",",
	".",
];

const phrase = fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 14 }).map((w) => w.join(" "));
const longText = fc.tuple(phrase, fc.integer({ min: 20, max: 60 })).map(([text, times]) => `${text} `.repeat(times));
const messageText = fc.oneof(
	{ weight: 4, arbitrary: phrase },
	{ weight: 1, arbitrary: longText },
	{ weight: 1, arbitrary: hostileText },
);

/** A slice of one message: whole words mostly, sometimes cut anywhere, as a model might quote. */
function slice(texts: readonly string[]): fc.Arbitrary<string> {
	return fc.tuple(fc.nat({ max: texts.length - 1 }), fc.nat(), fc.nat(), fc.boolean()).map(([i, a, b, words]) => {
		const text = texts[i] ?? "";
		if (words) {
			const parts = text.split(" ");
			const start = a % parts.length;
			return parts.slice(start, start + 1 + (b % 8)).join(" ");
		}
		const start = text.length === 0 ? 0 : a % text.length;
		return text.slice(start, start + 1 + (b % 80));
	});
}

const ref = fc.oneof(
	{ weight: 8, arbitrary: fc.integer({ min: 1, max: 8 }).map((n) => `u${n}`) },
	{ weight: 2, arbitrary: fc.integer({ min: 1, max: 5 }).map((n) => `R${n}`) },
	{ weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const label = fc.oneof(
	fc.constantFrom("rule", "not a rule", "one-off", "NOT A RULE", "banana"),
	ref.map((r) => `lifts ${r}`),
	ref.map((r) => `rule and lifts ${r}`),
);

/** An answer shaped like one of the sections (any of them, whatever the turn asks), quoting the messages. */
function sectionShaped(texts: readonly string[]): fc.Arbitrary<string> {
	const text = fc.oneof(fc.string({ maxLength: 40 }), slice(texts), fc.constant(null));
	const finding = fc.record({ text: fc.string({ maxLength: 20 }), evidence: fc.array(ref, { maxLength: 2 }) });
	return fc
		.record(
			{
				narrative: fc.oneof(text, fc.string({ minLength: 290, maxLength: 320 })),
				objective: text,
				labels: fc.array(
					fc.record(
						{ msg: ref, label, words: fc.oneof(slice(texts), fc.string({ maxLength: 20 }), fc.constant(null)) },
						{ requiredKeys: ["msg", "label"] },
					),
					{ maxLength: 8 },
				),
				decisions: fc.array(finding, { maxLength: 2 }),
				deadEnds: fc.array(finding, { maxLength: 2 }),
				openErrors: fc.array(fc.constantFrom("E1", "E9", "C1"), { maxLength: 2 }),
				excuse: fc.oneof(fc.constant("It cannot be met."), fc.string({ maxLength: 30 })),
				now: text,
				values: fc.array(fc.record({ name: fc.string({ maxLength: 5 }), value: slice(texts), turn: ref })),
			},
			{ requiredKeys: [] },
		)
		.map((answer) => JSON.stringify(answer));
}

/** Any step: noise, arbitrary JSON, a section-shaped answer, a tool call, a model error. */
function step(texts: readonly string[]): fc.Arbitrary<ScriptedStep> {
	return fc.oneof(
		{ weight: 1, arbitrary: fc.string() },
		{ weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
		{ weight: 6, arbitrary: sectionShaped(texts) },
		{
			weight: 1,
			arbitrary: fc
				.tuple(fc.string({ maxLength: 8 }), fc.oneof(ref, fc.jsonValue()))
				.map(([id, arg]): ScriptedStep => ({ toolCalls: [{ id, name: "show", arguments: { ref: arg } }] })),
		},
		{ weight: 1, arbitrary: fc.constant<ScriptedStep>({ text: "", stopReason: "error" }) },
	);
}

interface World {
	readonly texts: readonly string[];
	readonly state: State;
	readonly spanFrom: number;
	readonly standing: readonly number[];
	readonly steps: readonly ScriptedStep[];
}

const world: fc.Arbitrary<World> = fc.array(messageText, { minLength: 1, maxLength: 8 }).chain((texts) =>
	fc.record({
		texts: fc.constant(texts),
		state: fc
			.array(fc.tuple(fc.nat({ max: texts.length - 1 }), fc.nat(), fc.nat()), { maxLength: 4 })
			.map((picks) => stateFrom(texts, picks)),
		spanFrom: fc.nat({ max: texts.length - 1 }),
		standing: fc.array(fc.nat({ max: texts.length - 1 }), { maxLength: 2 }),
		steps: fc.array(step(texts), { minLength: 0, maxLength: 24 }),
	}),
);

/** A span of the world's messages; the messages before it may be a takeover's standing rules. */
function input(w: World): TurnsInput {
	const branch = users(w.texts);
	const standing = [...new Set(w.standing)].filter((i) => i < w.spanFrom).map((i) => `u${i + 1}`);
	const span = branch.slice(w.spanFrom);
	const messages: Message[] = span.map((u) => ({ role: "user", text: u.text }));
	return {
		ctx: acceptContext(w.texts, {
			state: w.state,
			toLabel: [...branch.filter((u) => standing.includes(u.ref)), ...span],
			ledger: new Set(["C1", "E1"]),
		}),
		stateText: "",
		ledger: [],
		world: noWorld("none"),
		messages,
		messageRefs: span.map((u) => u.ref),
		notes: [],
		...(standing.length === 0 ? {} : { takeover: { summary: "earlier", earlier: [], standing } }),
	};
}

const verbatim = (texts: readonly string[], state: State) =>
	state.rules.every((rule) => texts.some((text) => text.includes(rule.text)));

// ---------------------------------------------------------------------------------------------------------------

describe("turns mode laws", () => {
	it("any model answer leaves only verbatim rules, in turns mode too", async () => {
		await fc.assert(
			fc.asyncProperty(world, async (w) => {
				const turnsInput = input(w);
				const model = scriptedConversationModel(w.steps);
				const out = await diffTurns(turnsInput, model, {
					turnsBudgetMs: 300_000,
					turnBudgetMs: 120_000,
					retryNoteChars: 2000,
					signal: new AbortController().signal,
					now: () => 0,
				});
				const events = out.accepted?.events ?? [];
				const after = applied(w.state, events);
				expect(events.every((event) => E.isRight(decodeEvent(event)))).toBe(true);
				expect(events.some((event) => event.type === "value-recorded")).toBe(false);
				return verbatim(w.texts, after);
			}),
			params({ numRuns: 200 }),
		);
	});
});

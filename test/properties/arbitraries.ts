import fc from "fast-check";
import type { Event, EventOf, EventType } from "../../src/events/index.js";
import { initialState, type State } from "../../src/reducers/index.js";
import { applied } from "../support/applied.js";
import { ruleAdded, spanClosed } from "../support/events.js";
import type { EntrySpec } from "../support/transcript.js";

/** Words rules are made of, for arbitraries that write a user's messages and a model's replies about them. */
export const RULE_VOCABULARY = ["never", "always", "use", "tabs", "spaces", "push", "to", "main", "dependencies"];

/** Text that includes terminal controls, bidi overrides and astral characters, to stress every printer. */
export const hostileText = fc.oneof(
	fc.string({ maxLength: 40 }),
	fc.string({ unit: "binary", maxLength: 40 }),
	fc.constantFrom(
		"\u001b[31mred\u001b[0m",
		"\u001b]8;;http://x\u0007link\u001b]8;;\u0007",
		"\u009b2J",
		"a\u202eb",
		"\r\b",
	),
);

const n = (max: number) => fc.integer({ min: 1, max });
const userRef = n(60).map((i) => `u${i}`);
const ruleId = n(30).map((i) => `R${i}`);
/** An id a producer decided, from a small range so that events carrying the same id are common. */
const carried = (kind: "R" | "D" | "X" | "N") => n(12).map((i) => `${kind}${i}`);
const evidence = fc.array(
	fc.oneof(
		n(50).map((i) => `C${i}`),
		n(50).map((i) => `E${i}`),
	),
	{ maxLength: 3 },
);

/** One arbitrary per event kind; the record type makes a missing kind a compile error. */
export const eventArbitraries: { [K in EventType]: fc.Arbitrary<EventOf<K>> } = {
	"rule-added": fc.record({
		type: fc.constant("rule-added"),
		data: fc.record({ words: hostileText, source: userRef, id: carried("R") }, { requiredKeys: ["words", "source"] }),
	}),
	"rule-lifted": fc.record({
		type: fc.constant("rule-lifted"),
		data: fc.record({ target: fc.oneof(ruleId, userRef), by: userRef }),
	}),
	"decision-made": fc.record({
		type: fc.constant("decision-made"),
		data: fc.record({ text: hostileText, evidence, id: carried("D") }, { requiredKeys: ["text", "evidence"] }),
	}),
	"dead-end-found": fc.record({
		type: fc.constant("dead-end-found"),
		data: fc.record({ text: hostileText, evidence, id: carried("X") }, { requiredKeys: ["text", "evidence"] }),
	}),
	"note-remembered": fc.record({
		type: fc.constant("note-remembered"),
		data: fc.record({ text: hostileText, id: carried("N") }, { requiredKeys: ["text"] }),
	}),
	"value-recorded": fc.record({
		type: fc.constant("value-recorded"),
		data: fc.record({
			name: hostileText,
			value: hostileText,
			source: fc.oneof(
				userRef,
				n(50).map((i) => `C${i}`),
			),
		}),
	}),
	"objective-set": fc.record({ type: fc.constant("objective-set"), data: fc.record({ text: hostileText }) }),
	"narrative-line": fc.record({
		type: fc.constant("narrative-line"),
		data: fc.record({ span: n(9), text: hostileText }),
	}),
	"now-set": fc.record({ type: fc.constant("now-set"), data: fc.record({ text: hostileText }) }),
	"command-recorded": fc.record({
		type: fc.constant("command-recorded"),
		data: fc.record({
			id: n(50).map((i) => `C${i}`),
			command: hostileText,
			exitCode: fc.option(fc.integer({ min: -1, max: 255 }), { nil: null }),
			span: n(9),
			toolCallId: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
			by: fc.constantFrom("tool" as const, "user" as const),
		}),
	}),
	"error-recorded": fc.record({
		type: fc.constant("error-recorded"),
		data: fc.record(
			{
				id: n(50).map((i) => `E${i}`),
				tool: hostileText,
				head: hostileText,
				span: n(9),
				command: fc.option(
					n(50).map((i) => `C${i}`),
					{ nil: null },
				),
				path: hostileText,
			},
			{ requiredKeys: ["id", "tool", "head", "span", "command"] },
		),
	}),
	"error-fixed": fc.record({
		type: fc.constant("error-fixed"),
		data: fc.oneof(
			fc.record({ error: n(50).map((i) => `E${i}`), by: n(50).map((i) => `C${i}`) }),
			fc.record({ error: n(50).map((i) => `E${i}`), byTool: fc.constantFrom("edit", "write"), path: hostileText }),
		),
	}),
	"model-failed": fc.record({
		type: fc.constant("model-failed"),
		data: fc.record({ span: n(9), head: hostileText }),
	}),
	"files-touched": fc.record({
		type: fc.constant("files-touched"),
		data: fc.record({
			read: fc.array(hostileText, { maxLength: 3 }),
			modified: fc.array(hostileText, { maxLength: 3 }),
		}),
	}),
	"world-taken": fc.record({
		type: fc.constant("world-taken"),
		data: fc.record({
			span: n(9),
			world: fc.oneof(
				fc.record({
					taken: fc.constant(true as const),
					branch: hostileText,
					head: hostileText,
					status: hostileText,
					log: hostileText,
					diffStat: hostileText,
				}),
				fc.record({ taken: fc.constant(false as const), reason: hostileText }),
			),
		}),
	}),
	"span-closed": fc.record({
		type: fc.constant("span-closed"),
		data: fc.record({
			span: n(9),
			kind: fc.constantFrom("whole" as const, "narrative-less" as const, "partial" as const),
			unlabeled: fc.array(userRef, { maxLength: 3 }),
			reason: fc.option(hostileText, { nil: null }),
		}),
	}),
	"foreign-compaction-seen": fc.record({
		type: fc.constant("foreign-compaction-seen"),
		data: fc.record({ entry: fc.string({ maxLength: 8 }), summaryChars: fc.nat(), fromHook: fc.boolean() }),
	}),
	anomaly: fc.record({ type: fc.constant("anomaly"), data: fc.record({ entry: hostileText, reason: hostileText }) }),
};

/** Any event, of any kind. */
export const anyEvent: fc.Arbitrary<Event> = fc.oneof(...Object.values(eventArbitraries));

/** Events a pass stores (the fold makes `anomaly` and `foreign-compaction-seen` itself). */
export const storedEvent: fc.Arbitrary<Event> = anyEvent.filter(
	(e) => e.type !== "anomaly" && e.type !== "foreign-compaction-seen",
);

/** A pass's events ending with its span close. */
function pass(span: number): fc.Arbitrary<EntrySpec> {
	const close: Event = spanClosed(span);
	return fc
		.array(
			storedEvent.filter((e) => e.type !== "span-closed"),
			{ maxLength: 8 },
		)
		.map((events) => ({
			kind: "longhaul-compaction" as const,
			span,
			events: [...events, close],
		}));
}

const chatter: fc.Arbitrary<EntrySpec> = fc.oneof(
	hostileText.map((text) => ({ kind: "user" as const, text })),
	hostileText.map((text) => ({ kind: "assistant" as const, text })),
	storedEvent.filter((e) => e.type !== "span-closed").map((event) => ({ kind: "event-entry" as const, event })),
	hostileText.map((summary) => ({ kind: "foreign-compaction" as const, summary })),
	fc.constantFrom(1, 2).map((v) => ({ kind: "span-record" as const, span: 1, v })),
);

/** A transcript's entries: chatter with Longhaul passes numbered 1, 2, … along the chain. */
export const transcriptSpecs: fc.Arbitrary<EntrySpec[]> = fc
	.array(fc.oneof({ arbitrary: chatter, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 }), { maxLength: 24 })
	.chain((slots) => {
		let span = 0;
		const parts = slots.map((slot) => (slot === null ? pass(++span) : fc.constant(slot)));
		return parts.length === 0 ? fc.constant([]) : fc.tuple(...parts).map((specs) => [...specs]);
	});

/** A state whose rules are pieces of the given user texts: `picks` are (message, start, length) triples. */
export function stateFrom(texts: readonly string[], picks: readonly [number, number, number][]): State {
	const events: Event[] = [];
	for (const [i, a, b] of picks) {
		const text = texts[i] ?? "";
		const start = text.length === 0 ? 0 : a % text.length;
		const words = text.slice(start, start + 1 + (b % 60));
		if (words !== "") events.push(ruleAdded(words, `u${i + 1}`));
	}
	return applied(initialState, events);
}

/**
 * One step of a pi session built entry by entry: every message role (a tool call with its result, a `!` or `!!`
 * run), custom messages and entries, a setting change, a branch left with a summary (`back` entries abandoned), and
 * compactions by Longhaul (a real pass; `fails` makes its model call fail) or by pi, each at `keep` tokens.
 */
export type SessionStep =
	| { readonly kind: "user"; readonly text: string }
	| { readonly kind: "assistant"; readonly text: string; readonly tool: boolean }
	| { readonly kind: "bash"; readonly output: string; readonly exclude: boolean }
	| { readonly kind: "custom-message"; readonly text: string }
	| { readonly kind: "custom" }
	| { readonly kind: "setting" }
	| { readonly kind: "branch"; readonly back: number }
	| { readonly kind: "compact"; readonly by: "longhaul" | "pi"; readonly keep: number; readonly fails: boolean };

const chat = fc.string({ maxLength: 160 });
const keep = fc.integer({ min: 1, max: 300 });

/** A session's steps: mostly conversation, with compactions of both kinds among them. */
export const sessionSteps: fc.Arbitrary<SessionStep[]> = fc.array(
	fc.oneof(
		{ weight: 5, arbitrary: chat.map((text) => ({ kind: "user" as const, text })) },
		{ weight: 5, arbitrary: fc.record({ kind: fc.constant("assistant" as const), text: chat, tool: fc.boolean() }) },
		{ weight: 1, arbitrary: fc.record({ kind: fc.constant("bash" as const), output: chat, exclude: fc.boolean() }) },
		{ weight: 1, arbitrary: chat.map((text) => ({ kind: "custom-message" as const, text })) },
		{ weight: 1, arbitrary: fc.constantFrom({ kind: "custom" as const }, { kind: "setting" as const }) },
		{ weight: 1, arbitrary: fc.integer({ min: 0, max: 4 }).map((back) => ({ kind: "branch" as const, back })) },
		{
			weight: 2,
			arbitrary: fc.record({
				kind: fc.constant("compact" as const),
				by: fc.constantFrom("longhaul" as const, "pi" as const),
				keep,
				fails: fc.boolean(),
			}),
		},
	),
	{ minLength: 4, maxLength: 30 },
);

/** The `keepRecentTokens` of a session's last compaction. */
export const keepRecentTokens = keep;

/**
 * Events that crowd the values: few value strings, kinds and command texts, so the same value, kind and text keep
 * coming back from different commands and turns, among any other stored events.
 */
export const crowdedValueEvents: fc.Arbitrary<Event[]> = fc.array(
	fc.oneof(
		{
			arbitrary: fc.record({
				type: fc.constant("value-recorded" as const),
				data: fc.record({
					name: fc.constantFrom("hash", "version", "port", "duration", "count", "dev server port"),
					value: fc.constantFrom("1507f8b", "0.14.2", "v0.14.2", "5173", "3ms", "49 errors", "v1", "v2"),
					source: fc.oneof(
						n(8).map((i) => `C${i}`),
						n(3).map((i) => `u${i}`),
					),
				}),
			}),
			weight: 4,
		},
		{
			arbitrary: fc.record({
				type: fc.constant("command-recorded" as const),
				data: fc.record({
					id: n(8).map((i) => `C${i}`),
					command: fc.oneof(fc.constantFrom("git log --oneline -3", "npm test", "node --version"), hostileText),
					exitCode: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
					span: n(3),
					toolCallId: fc.constant(null),
					by: fc.constant("tool" as const),
				}),
			}),
			weight: 2,
		},
		{ arbitrary: storedEvent, weight: 2 },
	),
	{ maxLength: 60 },
);

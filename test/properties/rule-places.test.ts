import fc from "fast-check";
import { describe, it } from "vitest";
import { EVENT_ENTRY_TYPE, encodeEvent, type Located } from "../../src/events/index.js";
import { foldEntries } from "../../src/reducers/index.js";
import { ruleAdded } from "../support/events.js";
import { law } from "./laws.js";

// The fold's rule check places an entry id where it first stands on the branch, whatever entries share it: a rule is
// backed by its source only if the source message's id first stands before the id of the entry that carries the
// rule. Entries in memory (pi's `getBranch()`) keep every duplicate id, so ids drawn from a few make many duplicates.

/** One entry of the branch: a user message, an assistant message, an entry that is no message, or a rule event. */
type Item =
	| { readonly kind: "user" | "assistant" | "other"; readonly id: string }
	| { readonly kind: "rule"; readonly id: string; readonly source: number };

const ID = fc.constantFrom("a", "b", "c", "d", "e", "f");

const item: fc.Arbitrary<Item> = fc.oneof(
	fc.record({ kind: fc.constantFrom("user" as const, "assistant" as const, "other" as const), id: ID }),
	fc.record({ kind: fc.constant("rule" as const), id: ID, source: fc.integer({ min: 1, max: 8 }) }),
);

const WORDS = "never push to main";

function entryOf(it: Item, at: number, parentId: string | null): Record<string, unknown> {
	const base = { id: it.id, parentId, timestamp: "2026-01-01T00:00:00.000Z" };
	switch (it.kind) {
		case "user":
			return { ...base, type: "message", message: { role: "user", content: WORDS, timestamp: 0 } };
		case "assistant":
			return { ...base, type: "message", message: { role: "assistant", content: [], timestamp: 0 } };
		case "other":
			return { ...base, type: "model_change", provider: "p", modelId: "m" };
		case "rule": {
			const event = encodeEvent(ruleAdded(WORDS, `u${it.source}`, `R${at + 1}`));
			return { ...base, type: "custom", customType: EVENT_ENTRY_TYPE, data: { stateFormat: 1, seq: at + 1, event } };
		}
	}
}

/** Whether the check refused the event for its source: no user message on the branch before it. */
const refusedForPlace = (located: Located | undefined): boolean =>
	located?.event.type === "anomaly" && located.event.data.reason.endsWith("is no user message on the branch before it");

describe("the rule check's places", () => {
	it("backs a rule by its source only when the source's id first stands before the id of the rule's entry", () => {
		law(
			[fc.array(item, { maxLength: 30 })],
			(items) => {
				const objects = items.map((it, i) => entryOf(it, i, i === 0 ? null : (items[i - 1]?.id ?? null)));
				const first = (id: string) => items.findIndex((it) => it.id === id);
				const users = items.filter((it) => it.kind === "user");
				const events = foldEntries(objects).events;
				let n = 0;
				return items.every((it) => {
					if (it.kind !== "rule") return true;
					const source = users[it.source - 1];
					const backed = source !== undefined && first(source.id) < first(it.id);
					return refusedForPlace(events[n++]) === !backed;
				});
			},
			{ numRuns: 500 },
		);
	});
});

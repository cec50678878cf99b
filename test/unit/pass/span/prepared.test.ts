import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import type { Entry } from "../../../../src/events/index.js";
import { preparedSpan, type SpanEntries } from "../../../../src/pass/span/span.js";
import { params } from "../../../properties/laws.js";

// `preparedSpan` as it stood before it was made linear (2026-12-07), as the oracle: each entry found walking back
// was put at the front of the indexes with `unshift`, which moved all those found before it.

const PreparedMessage = t.intersection([t.type({ role: t.string }), t.partial({ timestamp: t.number })]);

function oldTimeOf(entry: Entry): number {
	const timestamp = entry.raw.timestamp;
	return typeof timestamp === "string" ? Date.parse(timestamp) : Number.NaN;
}

function oldMadeFrom(entry: Entry | undefined, message: unknown): boolean {
	if (entry === undefined) return false;
	const decoded = PreparedMessage.decode(message);
	if (E.isLeft(decoded)) return false;
	const { role, timestamp } = decoded.right;
	const sameTime = (time: unknown) => timestamp === undefined || typeof time !== "number" || time === timestamp;
	switch (entry.type) {
		case "message": {
			const inner = PreparedMessage.decode(entry.raw.message);
			return E.isRight(inner) && inner.right.role === role && sameTime(inner.right.timestamp);
		}
		case "custom_message":
			return role === "custom" && sameTime(oldTimeOf(entry));
		case "branch_summary":
			return role === "branchSummary" && sameTime(oldTimeOf(entry));
		default:
			return false;
	}
}

function oldIndexOfId(entries: readonly Entry[], id: string): number {
	for (let i = entries.length - 1; i >= 0; i--) if (entries[i]?.id === id) return i;
	return -1;
}

function oldPreparedSpan(
	branch: readonly Entry[],
	firstKeptEntryId: string,
	messages: readonly unknown[],
): SpanEntries | undefined {
	const end = oldIndexOfId(branch, firstKeptEntryId);
	if (end < 0) return undefined;
	const at: number[] = [];
	let i = end - 1;
	for (let m = messages.length - 1; m >= 0; m--) {
		while (i >= 0 && !oldMadeFrom(branch[i], messages[m])) i--;
		if (i < 0) return undefined;
		at.unshift(i--);
	}
	return { at, end };
}

const TIMES = ["2026-01-01T00:00:00.000Z", "2026-01-01T00:00:01.000Z"];

/** The message pi makes from an entry of each kind, and entries of kinds pi makes none from. */
const entry: fc.Arbitrary<Entry> = fc
	.tuple(
		fc.constantFrom("a", "b", "kept"),
		fc.constantFrom("user", "assistant", "toolResult", "custom_message", "branch_summary", "label"),
		fc.constantFrom(0, 1),
	)
	.map(([id, kind, time]) => {
		const type = kind === "custom_message" || kind === "branch_summary" || kind === "label" ? kind : "message";
		const message = type === "message" ? { message: { role: kind, content: "x", timestamp: time } } : {};
		return { id, parentId: null, type, raw: { type, id, timestamp: TIMES[time], ...message } };
	});

/** What pi hands over for an entry: its role, with or without its time (or the other time). */
const prepared: fc.Arbitrary<unknown> = fc
	.tuple(
		fc.constantFrom("user", "assistant", "toolResult", "custom", "branchSummary"),
		fc.option(fc.constantFrom(0, 1, Date.parse(TIMES[0] ?? ""), Date.parse(TIMES[1] ?? ""))),
	)
	.map(([role, timestamp]) => (timestamp === null ? { role } : { role, timestamp }));

/** What pi would make from `entry`, or a message made from none for an entry pi makes none from. */
function madeOf(entry: Entry): unknown {
	const time = entry.raw.timestamp === TIMES[1] ? 1 : 0;
	if (entry.type === "custom_message") return { role: "custom", timestamp: Date.parse(TIMES[time] ?? "") };
	if (entry.type === "branch_summary") return { role: "branchSummary" };
	const inner = PreparedMessage.decode(entry.raw.message);
	return E.isRight(inner) ? inner.right : { role: "none" };
}

/** A branch, and messages made from some of its entries in order, or any messages. */
const branchAndMessages = fc.array(entry, { maxLength: 30 }).chain((branch) =>
	fc.tuple(
		fc.constant(branch),
		fc.oneof(
			fc.subarray(branch).map((some) => some.map(madeOf)),
			fc.array(prepared, { maxLength: 8 }),
		),
	),
);

describe("the entries of pi's prepared messages, found in linear time", () => {
	it("are the ones the walk that put each at the front found, in order", () => {
		fc.assert(
			fc.property(branchAndMessages, fc.constantFrom("a", "kept", "absent"), ([branch, messages], kept) => {
				expect(preparedSpan(branch, kept, messages)).toEqual(oldPreparedSpan(branch, kept, messages));
			}),
			params({ numRuns: 500 }),
		);
	});

	it("gives the indexes oldest first", () => {
		const user = { id: "u", parentId: null, type: "message", raw: { message: { role: "user", timestamp: 1 } } };
		const answer = { id: "a", parentId: null, type: "message", raw: { message: { role: "assistant", timestamp: 2 } } };
		const kept = { id: "kept", parentId: null, type: "message", raw: { message: { role: "user", timestamp: 3 } } };
		const messages = [
			{ role: "user", timestamp: 1 },
			{ role: "assistant", timestamp: 2 },
		];
		expect(preparedSpan([user, answer, kept], "kept", messages)).toEqual({ at: [0, 1], end: 2 });
	});
});

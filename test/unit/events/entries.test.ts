import * as E from "fp-ts/lib/Either.js";
import type * as t from "io-ts";
import { describe, expect, it } from "vitest";
import {
	CompactionDetailsCodec,
	EVENT_ENTRY_TYPE,
	EventEntryCodec,
	LINE_ENTRY_TYPE,
	LineCodec,
	SPAN_ENTRY_TYPE,
	SpanRecordCodec,
} from "../../../src/events/entries.js";
import { WorldCodec } from "../../../src/events/world.js";

// The stored entries' codecs (docs/contracts.md, Stored sessions): a good value decodes as it is, each required
// field missing or of the wrong type refuses it, and a key the codec does not name is dropped.

const decoded = <A>(codec: t.Decoder<unknown, A>, u: unknown): A | undefined => {
	const result = codec.decode(u);
	return E.isRight(result) ? result.right : undefined;
};

/** `good` decodes to itself; without each of `required`, or with it set to each of `wrong`, it is refused. */
function checkFields(codec: t.Decoder<unknown, unknown>, good: Record<string, unknown>, wrong: readonly unknown[]) {
	expect(decoded(codec, good)).toEqual(good);
	expect(decoded(codec, { ...good, extra: 1 })).toEqual(good);
	for (const key of Object.keys(good)) {
		const { [key]: _dropped, ...without } = good;
		expect([key, decoded(codec, without)]).toEqual([key, undefined]);
		for (const value of wrong)
			if (typeof value !== typeof good[key] || (value === null) !== (good[key] === null))
				expect([key, value, decoded(codec, { ...good, [key]: value })]).toEqual([key, value, undefined]);
	}
}

const WRONG = ["x", 0, true, null, [], {}];

describe("stored entry codecs", () => {
	it("names the three custom entry types", () => {
		expect([EVENT_ENTRY_TYPE, SPAN_ENTRY_TYPE, LINE_ENTRY_TYPE]).toEqual([
			"compaction-state.event",
			"compaction-state.span",
			"compaction-state.line",
		]);
	});

	it("an event entry is its state format, a positive sequence number and the event", () => {
		const good = { stateFormat: 1, seq: 3, event: { type: "note-remembered" } };
		expect(decoded(EventEntryCodec, good)).toEqual(good);
		expect(decoded(EventEntryCodec, { ...good, stateFormat: 2 })).toBeUndefined();
		expect(decoded(EventEntryCodec, { ...good, seq: 0 })).toBeUndefined();
		expect(decoded(EventEntryCodec, { stateFormat: 1, seq: 3 })).toEqual({ stateFormat: 1, seq: 3, event: undefined });
	});

	it("a compaction's details are Longhaul's format, span and stored events", () => {
		const good = { stateFormat: 1, longhaul: true, span: 2, events: [{ seq: 1, event: { type: "x" } }] };
		expect(decoded(CompactionDetailsCodec, good)).toEqual(good);
		expect(decoded(CompactionDetailsCodec, { ...good, extra: 1 })).toEqual(good);
		for (const bad of [
			{ ...good, longhaul: false },
			{ ...good, stateFormat: 2 },
			{ ...good, span: 0 },
			{ ...good, events: [{ seq: 0, event: {} }] },
			{ ...good, events: {} },
			{ stateFormat: 1, longhaul: true, span: 2 },
		])
			expect(decoded(CompactionDetailsCodec, bad)).toBeUndefined();
		expect(decoded(CompactionDetailsCodec, { ...good, events: [{ seq: 1, event: 1, extra: 2 }] })).toEqual({
			...good,
			events: [{ seq: 1, event: 1 }],
		});
	});

	it("a span record needs its version, span and compaction id; each part it may carry is checked", () => {
		const base = { v: 1, span: 4, compactionId: "c1" };
		checkFields(SpanRecordCodec, base, WRONG);
		const parts = {
			labels: [{ msg: "u1", label: "rule" }],
			bounds: { first: "a", last: "b" },
			commands: [{ id: "C1", command: "make", exitCode: null }],
			errors: [{ id: "E1", tool: "bash", head: "boom" }],
			values: [{ name: "port", value: "8080", source: "C1" }],
			chunks: 2,
			calls: 3,
			excused: [{ check: "objective", reason: "none stated" }],
		};
		expect(decoded(SpanRecordCodec, { ...base, ...parts })).toEqual({ ...base, ...parts });
		expect(decoded(SpanRecordCodec, { ...base, v: 2 })).toBeUndefined();
		for (const [key, value] of Object.entries(parts)) {
			expect([key, decoded(SpanRecordCodec, { ...base, [key]: "x" })]).toEqual([key, undefined]);
			if (typeof value !== "object") continue;
			const item: Record<string, unknown> | undefined = Array.isArray(value) ? value[0] : value;
			if (item === undefined) continue;
			const record = (changed: unknown) => ({ ...base, [key]: Array.isArray(value) ? [changed] : changed });
			for (const field of Object.keys(item)) {
				const { [field]: _dropped, ...without } = item;
				expect([key, field, decoded(SpanRecordCodec, record(without))]).toEqual([key, field, undefined]);
				expect([key, field, decoded(SpanRecordCodec, record({ ...item, [field]: [] }))]).toEqual([
					key,
					field,
					undefined,
				]);
			}
			expect(decoded(SpanRecordCodec, record({ ...item, extra: 1 }))).toEqual({ ...base, [key]: value });
		}
	});

	it("a line is a pass's time, span, calls and tokens, or the reason pi's compaction took over", () => {
		checkFields(LineCodec, { stateFormat: 1, ms: 12, span: 1, calls: 2, tokens: 300 }, WRONG);
		checkFields(LineCodec, { stateFormat: 1, fallback: "model-threw" }, WRONG);
	});

	it("a World is the five commands' output when taken, or why it was not", () => {
		checkFields(WorldCodec, { taken: true, branch: "main", head: "abc", status: "", log: "l", diffStat: "" }, WRONG);
		checkFields(WorldCodec, { taken: false, reason: "not-a-repo" }, WRONG);
		expect(decoded(WorldCodec, { taken: true, reason: "x" })).toBeUndefined();
	});
});

import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import { fastCodec } from "../../src/events/fast-codec.js";
import { RuleId } from "../../src/events/ids.js";
import { law } from "./laws.js";

// fastCodec must decode exactly as the codec it wraps: the same success or failure, the same value in the same key
// order. The reference codec below holds every combinator the stored events use: strict objects, an exact
// intersection with optional props (an event's carried id), arrays of strict objects, a union of strict objects.

const reference = t.strict({
	type: t.literal("kind"),
	data: t.exact(
		t.intersection([
			t.type({ text: t.string, list: t.array(t.strict({ a: t.number })), code: t.union([t.number, t.null]) }),
			t.partial({ id: RuleId }),
		]),
	),
	world: t.union([
		t.strict({ taken: t.literal(true), head: t.string }),
		t.strict({ taken: t.literal(false), reason: t.string }),
	]),
});
const fast = fastCodec(reference);

/** Objects JSON never makes, which io-ts's record check refuses or takes: a date, a map, a record without a prototype. */
const odd = fc.constantFrom<unknown>(
	new Date(0),
	new Map(),
	Object.create(null),
	Object.assign(Object.create(null), { a: 1 }),
);
const noise = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constant(undefined), odd);
const keys = fc.constantFrom("type", "data", "world", "text", "list", "code", "id", "a", "taken", "head", "x");

/** Mostly a field's valid value, now and then noise. */
function field<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
	return fc.oneof({ arbitrary: valid, weight: 20 }, { arbitrary: noise, weight: 1 });
}

/** Mostly nothing, now and then a value. */
function seldom<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
	return fc.oneof({ arbitrary: fc.constant(null), weight: 10 }, { arbitrary, weight: 1 });
}

/** Near-valid objects: now and then a key dropped, an extra key added before or after, or a key overwritten. */
function near(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
	const dropped = seldom(fc.constantFrom(...Object.keys(fields)));
	const extra = seldom(fc.tuple(keys, noise, fc.boolean()));
	return fc.tuple(fc.record(fields), dropped, extra).map(([value, drop, added]) => {
		const kept = Object.fromEntries(Object.entries(value).filter(([k]) => k !== drop));
		if (added === null) return kept;
		const [k, v, first] = added;
		return first ? { [k]: v, ...kept } : { ...kept, [k]: v };
	});
}

const item = near({ a: field(fc.integer()) });
const data = near({
	text: field(fc.string()),
	list: field(fc.array(item, { maxLength: 3 })),
	code: field(fc.oneof(fc.integer(), fc.constant(null))),
	id: field(fc.constantFrom("R1", "R42", "R0", "u1")),
});
const world = fc.oneof(
	near({ taken: field(fc.constant(true)), head: field(fc.string()) }),
	near({ taken: field(fc.constant(false)), reason: field(fc.string()) }),
);
const value = fc.oneof(
	{ arbitrary: near({ type: field(fc.constant("kind")), data, world }), weight: 6 },
	{ arbitrary: noise, weight: 1 },
	{ arbitrary: fc.array(noise, { maxLength: 2 }), weight: 1 },
);

/** A value as JSON, with its undefined fields shown: a key kept with an undefined value is a difference too. */
function shown(v: unknown): string {
	return JSON.stringify(v, (_key, x: unknown) => (x === undefined ? "<undefined>" : x));
}

describe("fastCodec", () => {
	it("decodes as the codec it wraps: the same success or failure, the same value in the same key order", () => {
		law(
			[value],
			(u) => {
				const want = reference.decode(u);
				const got = fast.decode(u);
				return E.isRight(want) ? E.isRight(got) && shown(got.right) === shown(want.right) : E.isLeft(got);
			},
			{ numRuns: 1000 },
		);
	});

	it("returns the value itself when nothing is stripped, and a stripped copy when something is", () => {
		const whole = {
			type: "kind",
			data: { text: "t", list: [{ a: 1 }], code: null, id: "R1" },
			world: { taken: false, reason: "r" },
		};
		const decoded = fast.decode(whole);
		expect(E.isRight(decoded) && decoded.right).toBe(whole);
		const extra = { ...whole, data: { ...whole.data, list: [{ a: 1, b: 2 }] } };
		expect(fast.decode(extra)).toEqual(E.right(whole));
		expect(E.isRight(fast.decode({ ...whole, data: { ...whole.data, id: "u1" } }))).toBe(false);
	});

	it("decodes a value already in its decoded shape without io-ts's validation, and validates any other", () => {
		let validations = 0;
		const counted = new t.Type<string, string, unknown>(
			"Counted",
			(u): u is string => typeof u === "string",
			(u, c) => {
				validations++;
				return typeof u === "string" ? t.success(u) : t.failure(u, c);
			},
			t.identity,
		);
		const codec = fastCodec(
			t.strict({
				data: t.exact(
					t.intersection([t.type({ items: t.array(t.strict({ tag: counted })) }), t.partial({ id: counted })]),
				),
				world: t.union([
					t.strict({ taken: t.literal(true), head: counted }),
					t.strict({ taken: t.literal(false), why: counted }),
				]),
			}),
		);
		const decodes = (u: unknown): { kept: boolean; same: boolean; validated: boolean } => {
			validations = 0;
			const got = codec.decode(u);
			return { kept: E.isRight(got), same: E.isRight(got) && got.right === u, validated: validations > 0 };
		};
		const whole = { data: { items: [{ tag: "a" }], id: "i" }, world: { taken: false, why: "w" } };
		expect(decodes(whole)).toEqual({ kept: true, same: true, validated: false });
		expect(decodes({ ...whole, data: { items: [] } })).toEqual({ kept: true, same: true, validated: false });
		for (const stripped of [
			{ ...whole, extra: 1 },
			{ ...whole, data: { ...whole.data, extra: 1 } },
			{ ...whole, data: { items: [{ tag: "a", extra: 1 }] } },
			{ ...whole, world: { ...whole.world, extra: 1 } },
		])
			expect(decodes(stripped)).toEqual({ kept: true, same: false, validated: true });
		for (const refused of [
			{ ...whole, data: { items: [{ tag: 1 }] } },
			{ ...whole, data: { ...whole.data, id: 1 } },
			{ ...whole, data: {} },
			{ ...whole, world: { taken: true, why: "w" } },
			[whole],
		])
			expect(decodes(refused).kept).toBe(false);
		// A combinator the check does not know (here a non-exact object) always goes through its codec.
		const open = fastCodec(t.type({ tag: counted }));
		validations = 0;
		expect([E.isRight(open.decode({ tag: "a" })), E.isRight(open.decode({ tag: 1 })), validations]).toEqual([
			true,
			false,
			2,
		]);
	});
});

import * as t from "io-ts";

/**
 * Whether a value is already its own decoding by some codec: decoding it would succeed and give back the value
 * itself, nothing stripped. Built once per codec; it may answer no where decoding would give the value itself
 * (the value then goes through the codec's own validation), never yes where it would not.
 */
type Settled = (u: unknown) => boolean;

/** The check for a codec whose value it cannot tell is settled: every value goes through the codec's validation. */
const neverSettled: Settled = () => false;

/** A record as io-ts's `UnknownRecord` tells one. */
const isPlainRecord = t.UnknownRecord.is;

/** One field of an object codec: a required field must be present and not undefined, an optional one may be absent. */
interface Field {
	readonly key: string;
	readonly required: boolean;
	readonly settled: Settled;
}

function fieldsFrom(props: t.Props, required: boolean): Field[] {
	return Object.entries(props).map(([key, codec]) => ({ key, required, settled: settledCheck(codec) }));
}

/** The fields an object codec checks, or nothing for a codec whose decoding is not the sum of its fields'. */
function fieldsOf(codec: t.Mixed): Field[] | undefined {
	if (codec instanceof t.InterfaceType) return fieldsFrom(codec.props, true);
	if (codec instanceof t.PartialType) return fieldsFrom(codec.props, false);
	if (codec instanceof t.IntersectionType) {
		const members: t.Mixed[] = codec.types;
		const fields = members.map(fieldsOf);
		return fields.every((f) => f !== undefined) ? fields.flat() : undefined;
	}
	return undefined;
}

function fieldsSettled(u: Record<string, unknown>, fields: readonly Field[]): boolean {
	for (const field of fields) {
		const value = u[field.key];
		if (value === undefined ? field.required : !field.settled(value)) return false;
	}
	return true;
}

/** Whether every own key of `u` is one of `keys`: an exact codec strips every other (io-ts reads own names too). */
function ownKeysIn(u: Record<string, unknown>, keys: ReadonlySet<string>): boolean {
	for (const k of Object.getOwnPropertyNames(u)) if (!keys.has(k)) return false;
	return true;
}

/** The check of an exact object codec: a plain record, each field settled, no key the codec would strip. */
function exactCheck(fields: readonly Field[]): Settled {
	const keys: ReadonlySet<string> = new Set(fields.map((f) => f.key));
	return (u) => isPlainRecord(u) && ownKeysIn(u, keys) && fieldsSettled(u, fields);
}

/** A union decodes with its first member that accepts the value, so that member must settle it. */
function unionCheck(codec: t.UnionType<t.Mixed[]>): Settled {
	const members: t.Mixed[] = codec.types;
	const checks = members.map((m) => ({ is: m.is, settled: settledCheck(m) }));
	if (checks.every((c) => c.settled === c.is)) return codec.is;
	return (u) => {
		for (const c of checks) if (c.is(u)) return c.settled(u);
		return false;
	};
}

/** Codecs whose decoding of a value they accept is the value itself, so that their `is` is their check. */
const leafKinds = [t.StringType, t.NumberType, t.BooleanType, t.NullType, t.UnknownType, t.LiteralType];

/**
 * Builds a codec's check, for the combinators the stored formats use: exact objects (of fields, optional fields and
 * their intersections), arrays, unions and leaves. Leaves are their own `is`; so are codecs made with `new t.Type`
 * itself, which in this project (the id patterns, `Positive`) decode a value to itself. Anything else (a non-exact
 * object, a refinement, a record) is never settled, so it decodes through its codec.
 */
function settledCheck(codec: t.Mixed): Settled {
	if (codec instanceof t.ExactType) {
		const fields = fieldsOf(codec.type);
		return fields === undefined ? neverSettled : exactCheck(fields);
	}
	if (codec instanceof t.ArrayType) {
		const item = settledCheck(codec.type);
		return (u) => Array.isArray(u) && u.every(item);
	}
	if (codec instanceof t.UnionType) return unionCheck(codec);
	if (codec.constructor === t.Type || leafKinds.some((kind) => codec instanceof kind)) return codec.is;
	return neverSettled;
}

/** A codec that decodes a settled value by handing it back, and anything else through the codec it wraps. */
class Settling<C extends t.Mixed> extends t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown> {
	readonly #codec: C;
	readonly #settled: (u: unknown) => u is t.TypeOf<C>;

	constructor(codec: C) {
		const check = settledCheck(codec);
		const settled = (u: unknown): u is t.TypeOf<C> => check(u);
		super(codec.name, codec.is, (u, c) => (settled(u) ? t.success(u) : codec.validate(u, c)), codec.encode);
		this.#codec = codec;
		this.#settled = settled;
	}

	/** `decode` without the context io-ts builds for `validate`, when the value is settled. */
	override decode(u: unknown): t.Validation<t.TypeOf<C>> {
		return this.#settled(u) ? t.success(u) : this.#codec.decode(u);
	}
}

/**
 * `codec`, decoding faster where the value already has its decoded shape: when the value is settled (the codec
 * accepts it and no exact codec in it would strip a key), the value is the decoding, found in one walk without the
 * contexts, intermediate results and stripped copies `validate` builds; anything else goes through the codec as
 * before. For codecs whose leaves (strings, numbers, literals, the id patterns) decode a value to itself, as every
 * stored event's do: the result is the one `codec.decode` gives, the same object.
 */
export function fastCodec<C extends t.Mixed>(codec: C): t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown> {
	return new Settling(codec);
}

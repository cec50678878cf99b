import * as t from "io-ts";
import { isRecord } from "./is-record.js";

/** The props an object codec checks, or nothing for a codec that is not one. */
function propsOf(codec: t.Mixed): t.Props | undefined {
	if (codec instanceof t.InterfaceType || codec instanceof t.PartialType) return codec.props;
	if (codec instanceof t.ExactType) return propsOf(codec.type);
	if (codec instanceof t.IntersectionType) {
		const members: t.Mixed[] = codec.types;
		return Object.assign({}, ...members.map(propsOf));
	}
	return undefined;
}

/** Whether a value, which its codec's `is` accepts, holds no key an exact codec in it would strip. */
type KeysCheck = (u: unknown) => boolean;

/** The check of a codec that holds no exact codec: nothing in it is stripped. */
const nothingStripped: KeysCheck = () => true;

function ownKeysIn(u: Record<string, unknown>, props: t.Props): boolean {
	for (const k of Object.getOwnPropertyNames(u)) if (!Object.hasOwn(props, k)) return false;
	return true;
}

/** Builds, once per codec, the check that decoding a value `codec.is` accepts strips nothing from it. */
function keysCheck(codec: t.Mixed): KeysCheck {
	if (codec instanceof t.ExactType) {
		const props = propsOf(codec.type);
		const inner = keysCheck(codec.type);
		if (props === undefined) return () => false;
		return (u) => isRecord(u) && ownKeysIn(u, props) && inner(u);
	}
	const props = propsOf(codec);
	if (props !== undefined) {
		const checks = Object.entries(props).flatMap(([k, prop]): [string, KeysCheck][] => {
			const check = keysCheck(prop);
			return check === nothingStripped ? [] : [[k, check]];
		});
		if (checks.length === 0) return nothingStripped;
		return (u) => isRecord(u) && checks.every(([k, check]) => u[k] === undefined || check(u[k]));
	}
	if (codec instanceof t.ArrayType) {
		const item = keysCheck(codec.type);
		return item === nothingStripped ? nothingStripped : (u) => Array.isArray(u) && u.every(item);
	}
	if (codec instanceof t.UnionType) {
		const members: t.Mixed[] = codec.types;
		const checks = members.map(keysCheck);
		if (checks.every((check) => check === nothingStripped)) return nothingStripped;
		// The union decodes with its first member that accepts the value.
		return (u) => {
			const at = members.findIndex((m) => m.is(u));
			return at >= 0 && checks[at]?.(u) === true;
		};
	}
	return nothingStripped;
}

/**
 * `codec`, decoding faster where the value already has its decoded shape: when `codec.is` accepts it and no exact
 * codec in it would strip a key, the value is the decoding, found without the contexts and intermediate results
 * `validate` builds; anything else goes through `codec.validate` as before. For codecs whose leaves (strings,
 * numbers, literals, the id patterns) decode a value to itself, as every stored event's do: the result is the one
 * `codec.decode` gives, the same object.
 */
export function fastCodec<C extends t.Mixed>(codec: C): t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown> {
	const stripsNothing = keysCheck(codec);
	return new t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown>(
		codec.name,
		codec.is,
		(u, c) => (codec.is(u) && stripsNothing(u) ? t.success(u) : codec.validate(u, c)),
		codec.encode,
	);
}

import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { decodeEvent } from "../../../src/events/event.js";
import {
	CommandId,
	DeadEndId,
	DecisionId,
	ErrorId,
	EvidenceId,
	idNumber,
	NoteId,
	Positive,
	RuleId,
	UserRef,
	ValueSource,
} from "../../../src/events/ids.js";

// The id codecs decide which stored events the fold keeps; each is checked alone and through a stored event, where
// a value takes the fast path when it is settled and the codec's own validation when it is not.

const rule = (id: unknown, source: unknown = "u1") => ({ type: "rule-added", data: { words: "w", source, id } });
const kept = (u: unknown): boolean => E.isRight(decodeEvent(u));

describe("id codecs", () => {
	it("an id is its letter and 1 to 9 digits without a leading zero", () => {
		for (const id of ["R1", "R9", "R10", "R123456789"]) expect([id, RuleId.is(id)]).toEqual([id, true]);
		for (const id of ["R0", "R01", "R1234567890", "r1", "D1", " R1", "R1 ", "R", "R1a"])
			expect([id, RuleId.is(id)]).toEqual([id, false]);
	});

	it("each id codec takes its own letters and no other, with the same digits rule", () => {
		const codecs = [
			[UserRef, ["u"]],
			[RuleId, ["R"]],
			[DecisionId, ["D"]],
			[DeadEndId, ["X"]],
			[NoteId, ["N"]],
			[CommandId, ["C"]],
			[ErrorId, ["E"]],
			[EvidenceId, ["C", "E"]],
			[ValueSource, ["u", "C"]],
		] as const;
		const letters = ["u", "R", "D", "X", "N", "C", "E", "U", "r"];
		for (const [codec, own] of codecs) {
			for (const letter of letters) {
				const ok = (own as readonly string[]).includes(letter);
				for (const id of [`${letter}1`, `${letter}9`, `${letter}10`, `${letter}123456789`])
					expect([codec.name, id, codec.is(id), E.isRight(codec.decode(id))]).toEqual([codec.name, id, ok, ok]);
			}
			for (const letter of own)
				for (const id of [
					`${letter}0`,
					`${letter}01`,
					`${letter}1234567890`,
					` ${letter}1`,
					`${letter}1 `,
					`x${letter}1`,
					`${letter}1a`,
					letter,
				])
					expect([codec.name, id, codec.is(id), E.isRight(codec.decode(id))]).toEqual([codec.name, id, false, false]);
		}
	});

	it("only a string is an id: an array or number that reads as one is refused, by is and by decode", () => {
		for (const u of [["R1"], 1, null, { toString: () => "R1" }]) {
			expect(RuleId.is(u)).toBe(false);
			expect(E.isRight(RuleId.decode(u))).toBe(false);
			expect(kept(rule(u))).toBe(false);
			expect(kept(rule("R1", u))).toBe(false);
		}
		expect(E.isRight(UserRef.decode("u7"))).toBe(true);
	});

	it("a stored event with a bad id is refused whether or not it carries a key to strip", () => {
		expect(kept(rule("R1"))).toBe(true);
		expect(kept({ ...rule("R1"), extra: 1 })).toBe(true);
		expect(kept({ ...rule("R0"), extra: 1 })).toBe(false);
		expect(kept({ ...rule("R1", "u0"), extra: 1 })).toBe(false);
	});

	it("a positive number is a safe integer of at least 1", () => {
		for (const n of [1, 2, Number.MAX_SAFE_INTEGER]) expect([n, E.isRight(Positive.decode(n))]).toEqual([n, true]);
		for (const u of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN, Number.POSITIVE_INFINITY, "1", [1], null])
			expect([u, Positive.is(u), E.isRight(Positive.decode(u))]).toEqual([u, false, false]);
		const narrative = (span: unknown) => ({ type: "narrative-line", data: { span, text: "t" } });
		expect([kept(narrative(1)), kept(narrative(0)), kept({ ...narrative(0), extra: 1 })]).toEqual([true, false, false]);
	});

	it("an id's number is the digits after its letter", () => {
		expect([idNumber("R1"), idNumber("u42"), idNumber("C123456789")]).toEqual([1, 42, 123456789]);
	});
});

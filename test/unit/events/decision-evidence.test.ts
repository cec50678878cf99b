import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { decodeEvent, encodeEvent } from "../../../src/events/index.js";
import { deadEnd, decision } from "../../support/events.js";

describe("a decision's evidence", () => {
	it("may name the user message that stated the requirement, beside ledger ids", () => {
		const event = decision("skip empty rows", ["u3", "C2"]);
		const decoded = decodeEvent(event);
		expect(E.isRight(decoded) ? encodeEvent(decoded.right) : decoded.left).toEqual(event);
	});

	it("decodes a stored decision with only ledger ids as before", () => {
		const event = { type: "decision-made", data: { id: "D1", text: "use esbuild", evidence: ["C1", "E2"] } };
		const decoded = decodeEvent(event);
		expect(E.isRight(decoded) ? encodeEvent(decoded.right) : decoded.left).toEqual(event);
	});

	it("a dead end still cites only ledger ids, and neither cites anything else", () => {
		expect(E.isLeft(decodeEvent(deadEnd("x", ["u3"])))).toBe(true);
		expect(E.isLeft(decodeEvent(decision("x", ["R1"])))).toBe(true);
	});
});

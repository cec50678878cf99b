import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { decodeEvent, encodeEvent } from "../../../src/events/index.js";

describe("a decision's evidence", () => {
	it("may name the user message that stated the requirement, beside ledger ids", () => {
		const event = { type: "decision-made", data: { text: "skip empty rows", evidence: ["u3", "C2"] } };
		const decoded = decodeEvent(event);
		expect(E.isRight(decoded) ? encodeEvent(decoded.right) : decoded.left).toEqual(event);
	});

	it("decodes a stored decision with only ledger ids as before", () => {
		const event = { type: "decision-made", data: { id: "D1", text: "use esbuild", evidence: ["C1", "E2"] } };
		const decoded = decodeEvent(event);
		expect(E.isRight(decoded) ? encodeEvent(decoded.right) : decoded.left).toEqual(event);
	});

	it("a dead end still cites only ledger ids, and neither cites anything else", () => {
		expect(E.isLeft(decodeEvent({ type: "dead-end-found", data: { text: "x", evidence: ["u3"] } }))).toBe(true);
		expect(E.isLeft(decodeEvent({ type: "decision-made", data: { text: "x", evidence: ["R1"] } }))).toBe(true);
	});
});

import { describe, expect, it } from "vitest";
import { knownEvidence } from "../../../../../src/pass/accept/verify/evidence.js";

describe("evidence ids", () => {
	it("keeps the ids the ledger knows, once each, and names the others", () => {
		expect(knownEvidence(["C2", "E9", "C2", "E1", "X1"], new Set(["C2", "E1"]))).toEqual({
			kept: ["C2", "E1"],
			unknown: ["E9", "X1"],
		});
	});

	it("refuses a ledger entry that is not a command or error id", () => {
		expect(knownEvidence(["R1"], new Set(["R1"])).kept).toEqual([]);
	});
});

import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/events/index.js";
import { stateObject } from "../../../src/projections/index.js";
import { initialState } from "../../../src/reducers/index.js";
import { applied } from "../../support/applied.js";
import { deadEnd, decision, modelFailed } from "../../support/events.js";

// The state as JSON (docs/contracts.md, The state as JSON): a key only some states have, and the lists it copies.

describe("the state as JSON", () => {
	it("has modelFailures only once the session's model failed, each as its span and head", () => {
		expect("modelFailures" in stateObject(initialState)).toBe(false);
		const failed: Event[] = [modelFailed(1, "overloaded"), modelFailed(2, "rate limited")];
		expect(stateObject(applied(initialState, failed)).modelFailures).toEqual([
			{ span: 1, head: "overloaded" },
			{ span: 2, head: "rate limited" },
		]);
	});

	it("gives a decision's and a dead end's evidence as the ids they cite", () => {
		const state = applied(initialState, [decision("use tabs", ["C1", "E2"]), deadEnd("npm link", ["E3"])]);
		const json = stateObject(state);
		expect(json.decisions).toEqual([{ id: "D1", text: "use tabs", evidence: ["C1", "E2"] }]);
		expect(json.deadEnds).toEqual([{ id: "X1", text: "npm link", evidence: ["E3"] }]);
	});
});

import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/events/index.js";
import { initialState } from "../../../src/reducers/index.js";
import { applied } from "../../support/applied.js";
import { ruleAdded, ruleLifted } from "../../support/events.js";

const added = (words: string, source: string): Event => ruleAdded(words, source);
const lifted = (target: string, by: string): Event => ruleLifted(target, by);

describe("a rule once lifted", () => {
	it("given a rule lifted, when the same words from the same message are added again, then it stays lifted", () => {
		const state = applied(initialState, [
			added("never push to main", "u2"),
			lifted("R1", "u5"),
			added("never push to main", "u2"),
		]);
		expect(state.rules).toEqual([]);
		expect(state.lifted).toEqual([{ id: "R1", text: "never push to main", source: "u2", by: "u5" }]);
	});

	it("given a rule lifted, when other words or another message give a rule, then that one is added", () => {
		const state = applied(initialState, [
			added("never push to main", "u2"),
			lifted("R1", "u5"),
			added("never push to main", "u7"),
			added("never push", "u2"),
		]);
		expect(state.rules).toEqual([
			{ id: "R2", text: "never push to main", source: "u7" },
			{ id: "R3", text: "never push", source: "u2" },
		]);
	});
});

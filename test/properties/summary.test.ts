import fc from "fast-check";
import { describe, it } from "vitest";
import type { Event } from "../../src/events/index.js";
import { renderSummary, stateObject } from "../../src/projections/index.js";
import { SHOWN_VALUES, shownValues } from "../../src/projections/shown-values.js";
import { evolve, initialState, type State } from "../../src/reducers/index.js";
import { crowdedValueEvents } from "./arbitraries.js";
import { law } from "./laws.js";

const stateOf = (events: readonly Event[]): State =>
	evolve(
		initialState,
		events.map((event) => ({ seq: null, event })),
	);

/** A section that holds no blank line (rules, open errors, Now), from its header to the next blank line or the end. */
function section(text: string, title: string): string | undefined {
	const header = `\n## ${title}\n`;
	const at = title === "Now" ? text.lastIndexOf(header) : text.indexOf(header);
	if (at < 0) return undefined;
	const end = text.indexOf("\n\n", at + header.length);
	return text.slice(at, end < 0 ? text.length : end).replace(/\n$/, "");
}

describe("the values and the cap of the summary", () => {
	it("the state shows no value twice, and at most SHOWN_VALUES of them, in the summary and in --json", () => {
		law([crowdedValueEvents], (events) => {
			const state = stateOf(events);
			// A version with a leading v is the same value as one without.
			const shown = shownValues(state).map((v) => v.value.replace(/^v(?=\d+\.\d)/, ""));
			const json = stateObject(state).values;
			const jsonValues = Array.isArray(json) ? json.map((v) => JSON.stringify(v)) : [];
			return (
				new Set(shown).size === shown.length &&
				shown.length <= SHOWN_VALUES &&
				jsonValues.length === shown.length &&
				new Set(jsonValues).size === jsonValues.length
			);
		});
	});

	it("the summary cap never cuts rules, Now or open errors, whatever the limit", () => {
		law([crowdedValueEvents, fc.integer({ min: 0, max: 3000 })], (events, limit) => {
			const state = stateOf(events);
			const whole = renderSummary(state, Number.MAX_SAFE_INTEGER).text;
			const cut = renderSummary(state, limit).text;
			return ["Rules in force", "Open errors", "Now"].every((title) => section(whole, title) === section(cut, title));
		});
	});
});

import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/events/index.js";
import { renderSummary, stateJson } from "../../../src/projections/index.js";
import { initialState } from "../../../src/reducers/index.js";
import { applied } from "../../support/applied.js";
import { command, editFailed, editFixed, errorRecorded, modelFailed } from "../../support/events.js";

// What the state shows as open: an error of the work no later success fixed. A failed edit that a later edit of the
// file fixed, and the session's own model failing, are not open errors.

const state = applied(initialState, [
	command("C1", "npm test", 1, 1, "t1"),
	errorRecorded("E1", "3 failed", "C1"),
	editFailed("E2", "Could not find the exact text in a.ts", "a.ts"),
	editFixed("E2", "a.ts"),
	modelFailed(1, "400 invalid_request_error"),
] satisfies Event[]);

describe("open errors in state --json", () => {
	const json = JSON.parse(stateJson(state));

	it("lists only the unfixed error of the work as open; the edit an edit fixed is fixed, by the tool and file", () => {
		expect(json.openErrors).toEqual([{ id: "E1", tool: "bash", head: "3 failed", span: 1, command: "C1" }]);
		expect(json.fixedErrors).toEqual([
			{
				id: "E2",
				tool: "edit",
				head: "Could not find the exact text in a.ts",
				span: 1,
				command: null,
				fixedBy: "edit of a.ts",
			},
		]);
	});

	it("shows the session's model failures in a field of their own, right after the errors", () => {
		expect(json.modelFailures).toEqual([{ span: 1, head: "400 invalid_request_error" }]);
		const keys = Object.keys(json);
		expect(keys.slice(keys.indexOf("openErrors"), keys.indexOf("commands") + 1)).toEqual([
			"openErrors",
			"fixedErrors",
			"modelFailures",
			"commands",
		]);
	});

	it("has no modelFailures key when the session's model never failed", () => {
		expect(Object.keys(JSON.parse(stateJson(initialState)))).not.toContain("modelFailures");
	});
});

describe("open errors in the summary", () => {
	it("lists the open error of the work, and neither the fixed edit nor the model's failure", () => {
		const text = renderSummary(state).text;
		const section = text.slice(text.indexOf("## Open errors"), text.indexOf("\n\n", text.indexOf("## Open errors")));
		expect(section).toBe("## Open errors\n- E1 (bash C1: npm test, span 1): 3 failed");
		expect(text).not.toContain("invalid_request_error");
	});
});

import { describe, expect, it } from "vitest";
import { recall } from "../../../src/adapters/recall/by-ref.js";
import type { Event } from "../../../src/events/index.js";
import { commandsById, errorLabel, errorLine, renderSummary, spansView } from "../../../src/projections/index.js";
import { fixedErrors, initialState, isOpen, openErrors } from "../../../src/reducers/index.js";
import { applied } from "../../support/applied.js";
import { command, editFixed, errorRecorded, spanClosed } from "../../support/events.js";

// One error line for every place that draws one (src/projections/error-line.ts), and one answer to "is it open"
// (src/reducers/open-errors.ts): a place differs from another only in the facets it asks for.

const events = [
	command("C1", "cd pkg && npm test", 1, 1, "t1"),
	errorRecorded("E1", "3 failed", "C1"),
	errorRecorded("E2", "ENOENT", null, 1, "read"),
	editFixed("E2", "a.ts", "read"),
	spanClosed(1),
] satisfies Event[];
const state = applied(initialState, events);
const error = (id: string) => state.errors.find((e) => e.id === id) ?? expect.unreachable(`no ${id} in the ledger`);

describe("what is open", () => {
	it("an error is open until the fold records what fixed it, and is then fixed", () => {
		expect(state.errors.map(isOpen)).toEqual([true, false]);
		expect(openErrors(state).map((e) => e.id)).toEqual(["E1"]);
		expect(fixedErrors(state).map((e) => e.id)).toEqual(["E2"]);
	});
});

describe("an error line", () => {
	it("shows the origin, then the span, then the status, each only when asked for", () => {
		const [e1, e2] = [error("E1"), error("E2")];
		const commands = commandsById(state);
		expect(errorLabel(e1, {})).toBe("E1 (bash C1)");
		expect(errorLabel(e1, { commands })).toBe("E1 (bash C1: npm test)");
		expect(errorLabel(e1, { commands, span: true, status: true })).toBe("E1 (bash C1: npm test, span 1, open)");
		expect(errorLine(e2, { status: true })).toBe("E2 (read, fixed by read of a.ts): ENOENT");
		expect(errorLine(e2, { span: true }, "ENO…")).toBe("E2 (read, span 1): ENO…");
	});

	it("reads the same in the summary, the --spans view and longhaul_recall", () => {
		expect(renderSummary(state).text).toContain("\n- E1 (bash C1: npm test, span 1): 3 failed");
		expect(spansView({ state, events: [], spanRecords: [], branch: [] })).toContain(
			"\n  E1 (bash C1: npm test, open): 3 failed\n",
		);
		expect(recall("E1", { state, spanRecords: [], branch: [] })).toBe(
			"E1 (bash C1: npm test, span 1, open):\n3 failed",
		);
	});
});

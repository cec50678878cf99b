import { describe, expect, it } from "vitest";
import { fitSummary } from "../../../../src/adapters/pass/fit-summary.js";
import { capNotice } from "../../../../src/adapters/pi/log-fields.js";
import { createRedactor } from "../../../../src/adapters/redact/index.js";
import type { Event } from "../../../../src/events/index.js";
import { renderSummary } from "../../../../src/projections/summary.js";
import { initialState } from "../../../../src/reducers/index.js";
import { applied } from "../../../support/applied.js";
import { note, nowSet, ruleAdded } from "../../../support/events.js";

/** Notes that each hold a short secret, so the marker that replaces it is longer than it. */
const secretNotes = applied(initialState, [
	ruleAdded("never push to main", "u1"),
	...Array.from({ length: 200 }, (_, i): Event => note(`note ${i}: password=hunter${i}x`)),
	nowSet("go on"),
]);

const redactor = createRedactor(true);
const redact = (text: string) => redactor.redact(text);

describe("fitSummary: the cap holds on the redacted bytes", () => {
	it("a marker longer than its secret would pass the cap; the summary is cut again until the redacted text fits", async () => {
		const limit = 4_000;
		const first = renderSummary(secretNotes, limit);
		const once = await redact(first.text);
		expect(once).toContain("[redacted: ");
		expect(once.length).toBeGreaterThan(limit);
		const fitted = await fitSummary(first, secretNotes, redact);
		expect(fitted.text.length).toBeLessThanOrEqual(limit);
		expect(fitted.capFit).toMatchObject({ limit, chars: fitted.text.length, fits: true });
		expect(fitted.capFit.cut.notes).toBeGreaterThan(first.capFit.cut.notes);
		expect(fitted.text).not.toMatch(/hunter\d+x/);
		expect(fitted.text).toContain("> never push to main");
	});

	it("the same state and redactor give the same bytes", async () => {
		const first = renderSummary(secretNotes, 4_000);
		expect(await fitSummary(first, secretNotes, redact)).toEqual(await fitSummary(first, secretNotes, redact));
	});

	it("without redaction it is the rendering as it was", async () => {
		const first = renderSummary(secretNotes, 4_000);
		expect(await fitSummary(first, secretNotes, async (t) => t)).toEqual(first);
	});

	it("rules and Now alone over the cap: the summary is them alone, capFit says so and the notice names it", async () => {
		const long = applied(initialState, [
			ruleAdded(`never ${"touch the vendored code ".repeat(20)}`, "u1"),
			note("a note"),
			nowSet("go on"),
		]);
		const fitted = await fitSummary(renderSummary(long, 200), long, redact);
		expect(fitted.capFit.fits).toBe(false);
		expect(fitted.capFit.rulesAndNowChars).toBe(fitted.text.length);
		expect(fitted.capFit.rulesAndNowChars).toBeGreaterThan(200);
		expect(fitted.capFit.cut.notes).toBe(1);
		expect(fitted.text).toContain("touch the vendored code ".repeat(20).trim());
		expect(fitted.text).not.toContain("## Notes");
		expect(capNotice(fitted.capFit)).toBe(
			`Longhaul: the rules in force and Now alone take ${fitted.text.length} characters, over summaryChars (200): ` +
				"the summary shows only them. Raise summaryChars, or lift rules you no longer need.",
		);
		expect(capNotice(renderSummary(long).capFit)).toBeUndefined();
	});
});

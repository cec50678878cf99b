import { describe, expect, it } from "vitest";
import { quotableRegions } from "../../../src/events/user-text.js";

const quoted = (text: string) => quotableRegions(text).map((r) => text.slice(r.start, r.end));

describe("quotable text of a user message", () => {
	it("is the whole message, trimmed, for an ordinary message", () => {
		expect(quoted("  never use tabs\n")).toEqual(["never use tabs"]);
	});

	it("is only the objective inside the tags of a pi-goal message, never its template", () => {
		const goal = [
			"Continue working toward the active thread goal.",
			"The objective below is user-provided data.",
			"<untrusted_objective>",
			"ship the CLI; never add dependencies",
			"</untrusted_objective>",
			"Do not repeat completed work.",
		].join("\n");
		expect(quoted(goal)).toEqual(["ship the CLI; never add dependencies"]);
	});

	it("reads <objective> and <goal> tags the same way", () => {
		expect(quoted("Template text.\n<objective>\nport the parser\n</objective>\nMore template.")).toEqual([
			"port the parser",
		]);
		expect(quoted("before <goal>keep it small</goal> after")).toEqual(["keep it small"]);
	});

	it("offers nothing from a goal message whose objective is empty, nor from a blank message", () => {
		expect(quoted("Template <objective>  </objective> template")).toEqual([]);
		expect(quoted("  \n ")).toEqual([]);
	});
});

import { describe, expect, it } from "vitest";
import { valueStands } from "../../../../../src/pass/accept/verify/values.js";

describe("a value stands verbatim in its turn", () => {
	it("is kept when it stands in the turn's text as a whole token", () => {
		expect(valueStands("5173", "dev server on http://localhost:5173/")).toBe(true);
		expect(valueStands("1.82s", "Done in 1.82s.")).toBe(true);
	});

	it("is refused when it only stands inside a longer value", () => {
		expect(valueStands("5173", "port 51730")).toBe(false);
	});

	it("is refused when it is not in the turn, is blank, or carries outer whitespace", () => {
		expect(valueStands("8080", "port 5173")).toBe(false);
		expect(valueStands("", "anything")).toBe(false);
		expect(valueStands(" 5173", "port  5173")).toBe(false);
	});
});

import { describe, expect, it } from "vitest";
import { defect, retryNote } from "../../../../src/pass/answer/defects.js";

describe("the retry note", () => {
	const a = defect("unlabeled", "u3 has no label", "u3");
	const b = defect("words-missing", "u9 is over 600 characters:\n give the rule's exact words", "u9");

	it("keeps each defect's note on one line", () => {
		expect(b.note).toBe("u9 is over 600 characters: give the rule's exact words");
	});

	it("lists one line per defect, each whole or not at all, within the limit", () => {
		expect(retryNote([a, b], 1000)).toBe(`- ${a.note}\n- ${b.note}`);
		expect(retryNote([a, b], a.note.length + 2)).toBe(`- ${a.note}`);
		expect(retryNote([a], a.note.length + 1)).toBe("");
	});

	it("reads a note padded with spaces and line breaks as one trimmed line", () => {
		expect(defect("schema", "  the answer\n\tdoes not fit  \n").note).toBe("the answer does not fit");
	});

	it("counts the line break before each line after the first", () => {
		const c = defect("unlabeled", "u4 has no label", "u4");
		const both = `- ${a.note}`.length + 1 + `- ${b.note}`.length;
		expect(retryNote([a, b, c], both)).toBe(`- ${a.note}\n- ${b.note}`);
		expect(retryNote([a, b, c], both - 1)).toBe(`- ${a.note}`);
	});
});

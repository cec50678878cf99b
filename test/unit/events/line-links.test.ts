import { describe, expect, it } from "vitest";
import { lineLinks, linksScanner } from "../../../src/events/line-links.js";
import { assistant, chain, piCompaction, user } from "../../support/entries.js";

// The links (id and parentId) of a line too long to hold, read as the file reader hands it over: in pieces cut
// wherever its chunks end. The oracle is JSON.parse: what it reads, or nothing where it refuses the line.

/** The links read from `line` pushed in pieces cut at `cuts` (offsets into the line, ascending). */
function linksInPieces(line: string, cuts: readonly number[]) {
	const scanner = linksScanner();
	let from = 0;
	for (const cut of [...cuts, line.length]) {
		scanner.push(line.slice(from, cut));
		from = cut;
	}
	return scanner.end();
}

/** The offset just past the first occurrence of `marker` in `line`, minus `back`. */
function cutAfter(line: string, marker: string, back = 0): number {
	const at = line.indexOf(marker);
	expect(at).toBeGreaterThanOrEqual(0);
	return at + marker.length - back;
}

const [first, second] = chain([user("never add dependencies"), assistant("on it")]);
const FIRST = JSON.stringify(first);
/** pi's own compaction, with the tokens a real one counted (before-compaction.jsonl's first). */
const COMPACTION = JSON.stringify({
	...piCompaction("c1", "e9", "e3", 'The user said "never push to main" and asked for the parser first.'),
	tokensBefore: 175004,
});

describe("links of a line handed in pieces", () => {
	it("a number or null cut between two pieces is read whole", () => {
		expect(linksInPieces(COMPACTION, [cutAfter(COMPACTION, '"tokensBefore":175')])).toEqual({
			id: "c1",
			parentId: "e9",
		});
		expect(linksInPieces(FIRST, [cutAfter(FIRST, '"parentId":nu')])).toEqual({ id: "e1", parentId: null });
	});

	it("an escape cut from the character it escapes still escapes it", () => {
		const cut = cutAfter(COMPACTION, 'said \\"never push to main\\"', 1);
		expect(COMPACTION.charAt(cut - 1)).toBe("\\");
		expect(linksInPieces(COMPACTION, [cut])).toEqual({ id: "c1", parentId: "e9" });
	});

	it("after an escape cut across pieces, a later empty string ends at its closing quote", () => {
		// an edit that deletes an import, as pi stores it: an escaped quote, then the empty newText
		const deleteImport = {
			type: "message",
			message: {
				role: "assistant",
				content: [
					{
						type: "toolCall",
						id: "toolu_01",
						name: "edit",
						arguments: { path: "/repo/src/main.ts", oldText: 'import chalk from "chalk";', newText: "" },
					},
				],
				stopReason: "toolUse",
				timestamp: 0,
			},
		};
		const [, edit] = chain([user("drop chalk"), deleteImport]);
		const line = JSON.stringify(edit);
		const cut = cutAfter(line, 'from \\"', 1);
		expect(line.charAt(cut - 1)).toBe("\\");
		expect(lineLinks(line)).toEqual({ id: "e2", parentId: "e1" });
		expect(linksInPieces(line, [cut])).toEqual({ id: "e2", parentId: "e1" });
	});

	it("a parentId that is an object, cut inside it, is read as JSON.parse reads it", () => {
		const line = JSON.stringify({ ...second, parentId: { id: "e1", note: "moved" } });
		const expected = { id: "e2", parentId: { id: "e1", note: "moved" } };
		expect(lineLinks(line)).toEqual(expected);
		expect(linksInPieces(line, [cutAfter(line, '"parentId":{"id":"e')])).toEqual(expected);
		expect(linksInPieces(line, [cutAfter(line, '"parentId":{"id":')])).toEqual(expected);
	});
});

describe("how long an id may be", () => {
	const withId = (id: string) => JSON.stringify({ ...second, id });

	it("an id of up to 4,096 characters of JSON text is read, and a longer one is not", () => {
		const longest = "a".repeat(4094);
		expect(lineLinks(withId(longest))).toEqual({ id: longest, parentId: "e1" });
		expect(lineLinks(withId(`${longest}a`))).toEqual(undefined);
	});

	it("an over-long id stays unread when its pieces come one by one, even if its end is short", () => {
		const line = withId("a".repeat(6000));
		const start = cutAfter(line, '"id":"');
		expect(linksInPieces(line, [start + 3000, start + 5000, start + 5990])).toBeUndefined();
	});
});

describe("lines JSON.parse refuses give no links", () => {
	it("a value missing, a brace or quote lost, a colon or comma left out, or a closing bracket of the wrong kind", () => {
		const lines = [
			'{"type":"message","id":"e2","parentId":"e1","timestamp":,"message":{}}',
			'{"type":"message","id":"e2","parentId":"e1","timestamp":}',
			'{"type":"message","id":"e2","parentId":"e1","timestamp":]}',
			'{"type":"message","id":"e2","parentId":"e1","timestamp"::"2026-01-01"}',
			'("type":"message","id":"e2","parentId":"e1"}',
			'{type":"message","id":"e2","parentId":"e1"}',
			'{"type" "message","id":"e2","parentId":"e1"}',
			'{"type":"message","id":"e2","parentId":"e1"]',
		];
		for (const line of lines) {
			expect(() => JSON.parse(line)).toThrow();
			expect([line, lineLinks(line)]).toEqual([line, undefined]);
		}
	});
});

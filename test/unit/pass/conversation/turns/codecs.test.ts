import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { readSection } from "../../../../../src/pass/conversation/turns/codecs.js";

describe("turns mode section codecs", () => {
	it("reads the narrative on one line, and a blank one as none", () => {
		expect(readSection("narrative", '{"narrative": "  fixed\\n the parser "}')).toEqual(
			E.right({ section: "narrative", narrative: "fixed the parser", excuse: undefined }),
		);
		expect(readSection("narrative", '{"narrative": "  "}')).toEqual(
			E.right({ section: "narrative", narrative: undefined, excuse: undefined }),
		);
	});

	it("reads a null objective as unchanged", () => {
		expect(readSection("objective", 'Sure: {"objective": null}')).toEqual(
			E.right({ section: "objective", objective: undefined }),
		);
	});

	it("reads only the asked section's keys, so a broken field of another section does not matter", () => {
		const read = readSection("now", '{"now": "write the docs", "narrative": 42, "labels": "junk"}');
		expect(read).toEqual(E.right({ section: "now", now: "write the docs", excuse: undefined }));
	});

	it("sends back a text field that is not a string", () => {
		const read = readSection("now", '{"now": ["a", "b"]}');
		expect(E.isLeft(read) && read.left).toMatchObject({ item: "now", code: "schema" });
	});

	it("keeps the good labels when one item is broken, and names the broken one by position", () => {
		const read = readSection(
			"labels",
			JSON.stringify({
				labels: [
					{ msg: "u1", label: "rule" },
					{ msg: "x", label: "rule" },
					{ msg: "U3", label: "Not A Rule" },
				],
			}),
		);
		expect(E.isRight(read) && read.right).toMatchObject({
			section: "labels",
			labels: [
				{ msg: "u1", label: "rule" },
				{ msg: "u3", label: "not a rule" },
			],
			broken: [{ item: "labels[1]", code: "schema" }],
		});
	});

	it("reads decisions, dead ends, open errors given as a string, and an excuse", () => {
		const read = readSection(
			"findings",
			JSON.stringify({
				decisions: ["kept the runner"],
				deadEnds: [{ text: "pinning", evidence: "E1, C2" }],
				openErrors: "E3, E4",
				excuse: "none",
			}),
		);
		expect(E.isRight(read) && read.right).toEqual({
			section: "findings",
			decisions: [{ text: "kept the runner", evidence: [] }],
			deadEnds: [{ text: "pinning", evidence: ["E1", "C2"] }],
			openErrors: ["E3", "E4"],
			excuse: "none",
			broken: [],
		});
	});

	it("fails a reply without JSON, and one with a forbidden key, on the whole section", () => {
		const none = readSection("labels", "I could not decide.");
		const forbidden = readSection("labels", '{"labels": [], "__proto__": {"x": 1}}');
		expect(E.isLeft(none) && none.left).toMatchObject({ item: "labels", code: "no-json" });
		expect(E.isLeft(forbidden) && forbidden.left).toMatchObject({ item: "labels", code: "forbidden-key" });
	});
});

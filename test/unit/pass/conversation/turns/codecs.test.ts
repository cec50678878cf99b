import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { readSection } from "../../../../../src/pass/conversation/turns/codecs.js";
import { labelsOnly } from "../../../../support/answers.js";

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
			labelsOnly([
				{ msg: "u1", label: "rule" },
				{ msg: "x", label: "rule" },
				{ msg: "U3", label: "Not A Rule" },
			]),
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

describe("turns mode section codecs, on what real models write", () => {
	const finding = (n: number) => ({ text: `kept approach ${n}`, evidence: [`C${n}`] });
	const right = <A>(read: E.Either<unknown, A>): A | undefined => (E.isRight(read) ? read.right : undefined);

	it("keeps the first 20 decisions and says once that the list holds more than 20, however many follow", () => {
		const read = right(
			readSection(
				"findings",
				JSON.stringify({
					decisions: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22].map(finding),
				}),
			),
		);
		expect(read?.section === "findings" && read.decisions.map((d) => d.text)).toEqual(
			[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20].map((n) => `kept approach ${n}`),
		);
		expect(read?.section === "findings" && read.broken).toEqual([
			{ item: "decisions[20]", code: "too-many", note: '"decisions" holds more than 20 items' },
		]);
	});

	it("keeps a dead end at the bound of 20, and refuses the 21st alone", () => {
		const twenty = right(
			readSection("findings", JSON.stringify({ deadEnds: Array.from({ length: 20 }, (_, i) => finding(i + 1)) })),
		);
		const more = right(
			readSection("findings", JSON.stringify({ deadEnds: Array.from({ length: 21 }, (_, i) => finding(i + 1)) })),
		);
		expect(twenty?.section === "findings" && [twenty.deadEnds.length, twenty.broken]).toEqual([20, []]);
		expect(more?.section === "findings" && [more.deadEnds.length, more.broken.map((f) => f.item)]).toEqual([
			20,
			["deadEnds[20]"],
		]);
	});

	it("reads one label given bare, not in a list, as a list of one", () => {
		expect(readSection("labels", '{"labels": {"msg": " U2 ", "label": "Rule"}}')).toEqual(
			E.right({ section: "labels", labels: [{ msg: "u2", label: "rule" }], broken: [] }),
		);
	});

	it("reads null lists as empty, with nothing broken", () => {
		expect(readSection("labels", '{"labels": null}')).toEqual(E.right({ section: "labels", labels: [], broken: [] }));
		expect(readSection("findings", '{"decisions": null, "deadEnds": null, "openErrors": null}')).toEqual(
			E.right({ section: "findings", decisions: [], deadEnds: [], openErrors: [], excuse: undefined, broken: [] }),
		);
	});

	it("reads omitted dead ends and open errors as none", () => {
		expect(readSection("findings", '{"decisions": [{"text": "kept the runner", "evidence": ["C1"]}]}')).toEqual(
			E.right({
				section: "findings",
				decisions: [{ text: "kept the runner", evidence: ["C1"] }],
				deadEnds: [],
				openErrors: [],
				excuse: undefined,
				broken: [],
			}),
		);
	});

	it("refuses a list given as a number or a boolean, saying the key must be a list", () => {
		expect(readSection("labels", '{"labels": 3}')).toEqual(
			E.right({
				section: "labels",
				labels: [],
				broken: [{ item: "labels", code: "schema", note: '"labels" must be a list' }],
			}),
		);
		const findings = right(readSection("findings", '{"decisions": true, "deadEnds": 2}'));
		expect(findings?.section === "findings" && findings.broken).toEqual([
			{ item: "decisions", code: "schema", note: '"decisions" must be a list' },
			{ item: "deadEnds", code: "schema", note: '"deadEnds" must be a list' },
		]);
	});

	it("sends back a label written as a bare string, at its position", () => {
		const read = right(readSection("labels", '{"labels": "u1 rule"}'));
		expect(read?.section === "labels" && [read.labels, read.broken.map((f) => [f.item, f.code])]).toEqual([
			[],
			[["labels[0]", "schema"]],
		]);
	});

	it("names a broken item's position in its note, and each of the same mistake made twice", () => {
		const read = right(
			readSection(
				"labels",
				JSON.stringify({
					labels: [
						{ msg: "u1", label: "rule" },
						{ msg: "u2", label: "rule", why: "the user said so" },
						{ msg: "u3", label: "rule", why: "again" },
					],
				}),
			),
		);
		const broken = read?.section === "labels" ? read.broken : [];
		expect(broken.map((f) => f.item)).toEqual(["labels[1]", "labels[2]"]);
		expect(broken[0]?.note).toContain("labels[1]");
		expect(broken[0]?.note).toContain("why");
		expect(broken[1]?.note).toContain("labels[2]");
		expect(broken.map((f) => f.note).join(" ")).not.toContain("labels[0]");
	});

	it("reports a broken decision and dead end and unreadable open errors together, keeping the good items", () => {
		const read = right(
			readSection(
				"findings",
				JSON.stringify({
					decisions: [{ text: "kept the runner", evidence: ["C1"] }, 42],
					deadEnds: [{ text: "pinning", evidence: ["E1"], because: "it broke" }],
					openErrors: [3],
				}),
			),
		);
		expect(read?.section === "findings" && read.decisions).toEqual([{ text: "kept the runner", evidence: ["C1"] }]);
		expect(read?.section === "findings" && read.openErrors).toEqual([]);
		expect(read?.section === "findings" && read.broken.map((f) => [f.item, f.code])).toEqual([
			["decisions[1]", "schema"],
			["deadEnds[0]", "schema"],
			["openErrors", "schema"],
		]);
		expect(read?.section === "findings" && read.broken[2]?.note).toBe(
			'"openErrors" must be a list of error ids (E<n>)',
		);
	});

	it("reads open errors split by commas and any whitespace, and trims each id of a list", () => {
		const fromText = right(readSection("findings", JSON.stringify({ openErrors: " E3,E4, \nE5  E6, " })));
		const fromList = right(readSection("findings", JSON.stringify({ openErrors: [" E3 ", "E4\n"] })));
		expect(fromText?.section === "findings" && fromText.openErrors).toEqual(["E3", "E4", "E5", "E6"]);
		expect(fromList?.section === "findings" && fromList.openErrors).toEqual(["E3", "E4"]);
	});

	it("refuses an excuse that is not a string, naming the excuse and not the section", () => {
		expect(readSection("now", '{"now": "write the docs", "excuse": 5}')).toEqual(
			E.left({ item: "excuse", code: "schema", note: '"excuse" must be a string' }),
		);
		expect(
			readSection("findings", '{"decisions": [{"text": "a", "evidence": ["C1"]}], "excuse": ["no", "time"]}'),
		).toEqual(E.left({ item: "excuse", code: "schema", note: '"excuse" must be a string' }));
		expect(readSection("narrative", '{"narrative": {"text": "fixed it"}}')).toEqual(
			E.left({ item: "narrative", code: "schema", note: '"narrative" must be a string' }),
		);
	});

	it("puts every excuse on one line, and keeps the objective's and Now's lines", () => {
		const excuse = "the span\n  ended   early";
		expect(readSection("narrative", JSON.stringify({ narrative: "ran the lint", excuse }))).toEqual(
			E.right({ section: "narrative", narrative: "ran the lint", excuse: "the span ended early" }),
		);
		expect(readSection("now", JSON.stringify({ now: " finish the parser.\nThen the docs.\n", excuse }))).toEqual(
			E.right({ section: "now", now: "finish the parser.\nThen the docs.", excuse: "the span ended early" }),
		);
		expect(readSection("objective", JSON.stringify({ objective: "  Ship v2.\n\nThen docs.  " }))).toEqual(
			E.right({ section: "objective", objective: "Ship v2.\n\nThen docs." }),
		);
		const findings = right(readSection("findings", JSON.stringify({ decisions: [], excuse })));
		expect(findings?.section === "findings" && findings.excuse).toBe("the span ended early");
	});
});

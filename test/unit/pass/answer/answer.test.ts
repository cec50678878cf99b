import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { ANSWER_BOUNDS, type RawAnswer, readAnswer } from "../../../../src/pass/answer/answer.js";

const read = (u: unknown) => readAnswer(JSON.stringify(u));
const right = (u: unknown): RawAnswer => {
	const result = read(u);
	if (E.isLeft(result)) throw new Error(result.left.note);
	return result.right;
};
const note = (u: unknown): string => {
	const result = read(u);
	return E.isLeft(result) ? result.left.note : "accepted";
};

const full = {
	labels: [{ msg: "u7", label: "rule", words: "never use tabs" }],
	objective: "ship the CLI",
	decisions: [{ text: "use io-ts", evidence: ["C12", "E3"] }],
	deadEnds: [{ text: "tried zod", evidence: ["E4"] }],
	narrative: "wired the reader",
	now: "write the tests",
	values: [{ name: "dev server port", value: "5173", turn: "u7" }],
};

describe("reading the model's answer", () => {
	it("decodes the answer of (docs/contracts.md, The diff answer)", () => {
		expect(right(full)).toEqual(full);
	});

	it("finds the answer in a fenced block with prose around it", () => {
		const answer = readAnswer(`Here you go:\n\`\`\`json\n${JSON.stringify(full)}\n\`\`\`\nanything else?`);
		expect(E.isRight(answer) && answer.right.narrative).toBe("wired the reader");
	});

	it("reads null for an absent optional and an omitted list as empty", () => {
		expect(right({ labels: [{ msg: "u1", label: "not a rule", words: null }], objective: null, now: null })).toEqual({
			labels: [{ msg: "u1", label: "not a rule" }],
			decisions: [],
			deadEnds: [],
			values: [],
		});
	});

	it("reads a label in another case or with surrounding spaces in its canonical form", () => {
		const answer = right({ labels: [{ msg: " U3 ", label: "  Rule And Lifts r1 ,R6 " }] });
		expect(answer.labels).toEqual([{ msg: "u3", label: "rule and lifts R1, R6" }]);
	});

	it("reads evidence given as one string, and a number given for a value", () => {
		const answer = right({
			decisions: [{ text: "x", evidence: "C1, E2" }],
			deadEnds: [{ text: "y", evidence: "E4" }],
			values: [{ name: "port", value: 5173, turn: "u2" }],
		});
		expect(answer.decisions[0]?.evidence).toEqual(["C1", "E2"]);
		expect(answer.deadEnds[0]?.evidence).toEqual(["E4"]);
		expect(answer.values[0]?.value).toBe("5173");
	});

	it("keeps the narrative on one line", () => {
		expect(right({ narrative: " read\n the   file " }).narrative).toBe("read the file");
	});

	it("leaves an unparsable label for acceptance to send back", () => {
		expect(right({ labels: [{ msg: "u1", label: "maybe" }] }).labels[0]?.label).toBe("maybe");
	});

	it("rejects unknown keys, at the top and inside items", () => {
		expect(note({ ...full, reasoning: "x" })).toContain("unknown key `reasoning`");
		expect(note({ labels: [{ msg: "u1", label: "rule", why: "x" }] })).toContain("at labels[0]: unknown key `why`");
	});

	it("rejects wrong types, naming where", () => {
		expect(note({ labels: [{ msg: "message 7", label: "rule" }] })).toContain(
			"at labels[0].msg: expected a message id u<n>",
		);
		expect(note({ values: [{ name: "port", value: true, turn: "u1" }] })).toContain("at values[0].value");
		expect(note({ labels: [7] })).toContain("at labels[0]: expected a label {msg, label, words?}");
	});

	it("bounds every list and string", () => {
		const labels = Array.from({ length: ANSWER_BOUNDS.labels + 1 }, (_, i) => ({ msg: `u${i + 1}`, label: "rule" }));
		expect(note({ labels })).toContain(`at labels: expected a list of at most ${ANSWER_BOUNDS.labels} items`);
		const decisions = Array.from({ length: ANSWER_BOUNDS.decisions + 1 }, () => ({ text: "x", evidence: [] }));
		expect(note({ decisions })).toContain("at decisions");
		expect(note({ narrative: "x".repeat(ANSWER_BOUNDS.narrative + 1) })).toContain("at narrative");
		expect(note({ now: "x".repeat(ANSWER_BOUNDS.now + 1) })).toContain("at now");
		expect(note({ decisions: [{ text: "x".repeat(ANSWER_BOUNDS.text + 1), evidence: [] }] })).toContain(
			"at decisions[0].text",
		);
		expect(note({ labels: [{ msg: "u1", label: "rule", words: "x".repeat(ANSWER_BOUNDS.words + 1) }] })).toContain(
			"at labels[0].words",
		);
		expect(note({ narrative: "x".repeat(ANSWER_BOUNDS.narrative) })).toBe("accepted");
	});

	it("refuses __proto__ and constructor keys", () => {
		const result = readAnswer('{"labels": [], "__proto__": {"admin": true}}');
		expect(E.isLeft(result) && result.left.code).toBe("forbidden-key");
	});

	it("refuses a reply without an object", () => {
		const result = readAnswer("I could not label these messages.");
		expect(E.isLeft(result) && result.left.code).toBe("no-json");
	});
});

const schemaNote = (...lines: string[]) => `the answer does not fit the schema: ${lines.join("; ")}`;
const defectOf = (text: string) => {
	const result = readAnswer(text);
	return E.isLeft(result) ? result.left : "accepted";
};

describe("reading the shape slips a real model makes", () => {
	it("reads a null list as empty, a single item given bare as a list of one, and a finding given as a sentence", () => {
		expect(
			right({
				labels: { msg: "u4", label: "one-off" },
				decisions: { text: " use io-ts ", evidence: "C1" },
				deadEnds: "  tried zod first  ",
				values: null,
			}),
		).toStrictEqual({
			labels: [{ msg: "u4", label: "one-off" }],
			decisions: [{ text: "use io-ts", evidence: ["C1"] }],
			deadEnds: [{ text: "tried zod first", evidence: [] }],
			values: [],
		});
	});

	it("reads a finding without evidence, or with a blank evidence string, as backed by none", () => {
		const answer = right({
			decisions: [{ text: "kept the reader pure" }],
			deadEnds: [{ text: "tried zod", evidence: " , " }],
		});
		expect([answer.decisions, answer.deadEnds]).toStrictEqual([
			[{ text: "kept the reader pure", evidence: [] }],
			[{ text: "tried zod", evidence: [] }],
		]);
	});

	it("trims ids, names and values, reads U12 as u12, and evidence ids apart by spaces or commas", () => {
		const answer = right({
			labels: [{ msg: " U12 ", label: "rule" }],
			decisions: [{ text: "  ship it \n", evidence: " C1, E2 ,, C3 " }],
			deadEnds: [{ text: "y", evidence: [" E4 ", "C5"] }],
			values: [{ name: " dev server port ", value: " 5173 ", turn: "U12" }],
		});
		expect(answer).toStrictEqual({
			labels: [{ msg: "u12", label: "rule" }],
			decisions: [{ text: "ship it", evidence: ["C1", "E2", "C3"] }],
			deadEnds: [{ text: "y", evidence: ["E4", "C5"] }],
			values: [{ name: "dev server port", value: "5173", turn: "u12" }],
		});
	});

	it("keeps an unparsable label on one line, and drops blank words", () => {
		const answer = right({
			labels: [
				{ msg: "u1", label: "  maybe   a\nrule " },
				{ msg: "u2", label: "Not a Rule", words: "  \n " },
			],
		});
		expect(answer.labels).toStrictEqual([
			{ msg: "u1", label: "maybe a rule" },
			{ msg: "u2", label: "not a rule" },
		]);
	});

	it("reads a blank objective or Now as absent, and keeps their lines, unlike the narrative's", () => {
		expect(right({ objective: "  ", now: "\n", narrative: " \t " })).toStrictEqual({
			labels: [],
			decisions: [],
			deadEnds: [],
			values: [],
		});
		const answer = right({ objective: "ship\nthe  CLI", now: " step one\n\nstep two " });
		expect([answer.objective, answer.now]).toEqual(["ship\nthe  CLI", "step one\n\nstep two"]);
	});
});

describe("the schema defect a retry note names", () => {
	it("names an unknown key at the top, cut to 40 characters", () => {
		expect(defectOf(JSON.stringify({ ...full, reasoning: "x" }))).toEqual({
			code: "schema",
			msg: null,
			note: schemaNote("at the answer: unknown key `reasoning`"),
		});
		const key = `k${"e".repeat(59)}`;
		expect(note({ labels: [], [key]: 1 })).toBe(schemaNote(`at the answer: unknown key \`${key.slice(0, 40)}\``));
	});

	it("refuses an answer wrapped in another object, naming the wrapper", () => {
		expect(note({ answer: { labels: [] } })).toBe(schemaNote("at the answer: unknown key `answer`"));
	});

	it("names wrong types where they are, with the bound expected", () => {
		expect(note({ labels: [{ msg: 7, label: "rule" }] })).toBe(
			schemaNote("at labels[0].msg: expected a message id u<n>"),
		);
		expect(note({ labels: [{ msg: "u1", label: 7 }] })).toBe(
			schemaNote(`at labels[0].label: expected a string of at most ${ANSWER_BOUNDS.label} characters`),
		);
		expect(note({ decisions: [7] })).toBe(schemaNote("at decisions[0]: expected {text, evidence}"));
		expect(note({ values: [7] })).toBe(schemaNote("at values[0]: expected a value {name, value, turn}"));
		expect(note({ values: [{ name: 7, value: "1", turn: "u1" }] })).toBe(
			schemaNote(`at values[0].name: expected a string of at most ${ANSWER_BOUNDS.valueName} characters`),
		);
		expect(note({ decisions: [{ text: 7, evidence: [7] }] })).toBe(
			schemaNote(
				`at decisions[0].text: expected a string of at most ${ANSWER_BOUNDS.text} characters`,
				`at decisions[0].evidence[0]: expected a string of at most ${ANSWER_BOUNDS.evidenceId} characters`,
			),
		);
	});

	it("refuses a number too large to be a value", () => {
		const text = '{"labels": [], "values": [{"name": "port", "value": 1e999, "turn": "u1"}]}';
		expect(defectOf(text)).toEqual({
			code: "schema",
			msg: null,
			note: schemaNote(`at values[0].value: expected a string of at most ${ANSWER_BOUNDS.value} characters`),
		});
	});

	it("names two-digit indices as indices", () => {
		const decisions = [...Array.from({ length: 12 }, () => ({ text: "x", evidence: [] })), { text: 7, evidence: [] }];
		expect(note({ decisions })).toBe(
			schemaNote(`at decisions[12].text: expected a string of at most ${ANSWER_BOUNDS.text} characters`),
		);
	});

	it("names the first three mistakes only, the same mistake made twice included", () => {
		const id = "expected a message id u<n>";
		const label = `expected a string of at most ${ANSWER_BOUNDS.label} characters`;
		expect(
			note({
				labels: [
					{ msg: 1, label: 2 },
					{ msg: 3, label: 4 },
				],
			}),
		).toBe(schemaNote(`at labels[0].msg: ${id}`, `at labels[0].label: ${label}`, `at labels[1].msg: ${id}`));
	});
});

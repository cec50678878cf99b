import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RECALL_CHARS, recall, recallAnswer } from "../../src/adapters/recall/by-ref.js";
import {
	decodeMessage,
	type Event,
	entriesFromObjects,
	messageOf,
	userMessages,
	writtenAs,
} from "../../src/events/index.js";
import { codePoints, cutWhole, headAndTail, sanitize, sliceWhole } from "../../src/projections/sanitize.js";
import { foldTranscript } from "../../src/reducers/index.js";
import * as ev from "../support/events.js";
import { recallSources } from "../support/recall-sources.js";
import { place, spanRecordOf, transcriptText } from "../support/transcript.js";
import { law } from "./laws.js";

// What `longhaul_recall` answers for each kind of ref, read from a folded branch (examples), and what the events
// module reads from pi's messages for it and for the pass.

const close: Event = ev.spanClosed(1, "partial", [], "x");
const events: Event[] = [
	ev.ruleAdded("never push to main", "u1"),
	ev.ruleAdded("always lint", "u2"),
	ev.ruleLifted("R2", "u3"),
	ev.decision("use zod", ["C1", "E1"]),
	ev.deadEnd("pin node 18"),
	ev.note("port 5433"),
	ev.command("C1", "npm test", 1, 1, "t1"),
	ev.userCommand("C2", "ls"),
	ev.errorRecorded("E1", "3 failed", "C1"),
	ev.errorRecorded("E2", "ENOENT", null, 1, "read"),
	ev.errorFixed("E1", "C2"),
	ev.narrative(1, "set up the tests"),
	close,
];

function sources() {
	return recallSources([
		{ kind: "user", text: "never push to main" },
		{ kind: "user", text: "always lint" },
		{ kind: "user", text: "lint no longer matters" },
		{ kind: "longhaul-compaction", span: 1, events },
		spanRecordOf(1, "e4", {
			chunks: 2,
			calls: 3,
			labels: [
				{ msg: "u1", label: "rule" },
				{ msg: "u3", label: "lifts R2" },
			],
			commands: [{ id: "C1", command: "npm test", exitCode: 1 }],
			errors: [{ id: "E1", tool: "bash", head: "3 failed" }],
			values: [{ name: "port", value: "5433", source: "C1" }],
			excused: [{ check: "rule-words", reason: "cut" }],
		}),
		spanRecordOf(2, "e9"),
	]);
}

describe("longhaul_recall", () => {
	const s = sources();

	it("a rule in force: its id, status, source and words", () => {
		expect(recall("R1", s)).toBe("R1 (in force), from u1:\nnever push to main");
	});

	it("a lifted rule says who lifted it", () => {
		expect(recall("R2", s)).toBe("R2 (lifted by u3), from u2:\nalways lint");
	});

	it("a command: span, who ran it, exit code, the command, and that its output is not on the branch", () => {
		expect(recall("C1", s)).toBe(
			"C1 (span 1, bash tool) exit 1:\nnpm test\nprinted: (its output is not on this branch)",
		);
		expect(recall("C2", s)).toBe(
			"C2 (span 1, the user's own run) exit unknown:\nls\nprinted: (its output is not on this branch)",
		);
	});

	it("an error: tool, span, the command it came from and whether it is fixed", () => {
		expect(recall("E1", s)).toBe("E1 (bash C1: npm test, span 1, fixed by C2):\n3 failed");
		expect(recall("E2", s)).toBe("E2 (read, span 1, open):\nENOENT");
	});

	it("decisions and dead ends with their evidence, notes with their text", () => {
		expect(recall("D1", s)).toBe("D1: use zod\nevidence: C1, E1");
		expect(recall("X1", s)).toBe("X1: pin node 18");
		expect(recall("N1", s)).toBe("N1: port 5433");
	});

	it("a user message with the labels each span gave it", () => {
		expect(recall("u1", s)).toBe('u1 (labeled "rule" in span 1):\nnever push to main');
		expect(recall("u2", s)).toBe("u2:\nalways lint");
	});

	it("a span: its compaction, close, narrative, counts and every recorded line", () => {
		expect(recall("1", s)).toBe(
			[
				"Span 1 (compaction entry e4, partial)",
				"narrative: set up the tests",
				"chunks 2, model calls 3",
				"label u1: rule",
				"label u3: lifts R2",
				"C1 [exit 1] npm test",
				"E1 (bash): 3 failed",
				"value port: 5433 (C1)",
				"excused rule-words: cut",
			].join("\n"),
		);
		expect(recall(" 2 ", s)).toBe(
			["Span 2 (compaction entry e9, unknown close)", "narrative: (none)", "chunks 0, model calls 0"].join("\n"),
		);
		expect(recall("3", s)).toBe("No detail is recorded for span 3.");
	});

	it("an id that names nothing, or a ref of no known kind, says what refs are", () => {
		const help = (ref: string) => `Nothing is known as "${ref}". Refs are a span number or R, u, C, E, D, X, N ids.`;
		for (const ref of ["R9", "C9", "E9", "D9", "X9", "N9", "u9", "Z1", "0"]) expect(recall(ref, s)).toBe(help(ref));
		expect(recall("y".repeat(50), s)).toBe(help("y".repeat(40)));
	});
});

describe("messages as the events module reads them", () => {
	it("user messages are numbered u1, u2, … along the branch, their text joined from text blocks", () => {
		const folded = foldTranscript(
			transcriptText(
				place([
					{ kind: "user", text: "first" },
					{ kind: "assistant", text: "reply" },
					{
						kind: "raw",
						value: {
							type: "message",
							message: {
								role: "user",
								content: [
									{ type: "text", text: "a" },
									{ type: "image", data: "x" },
									{ type: "text", text: "b" },
								],
							},
						},
					},
					{ kind: "raw", value: { type: "custom_message", message: { role: "user", content: "not a message entry" } } },
				]),
			),
		);
		expect(userMessages(folded.branch)).toEqual([
			{ ref: "u1", entryId: "e1", text: "first" },
			{ ref: "u2", entryId: "e3", text: "a\nb" },
		]);
	});

	it("an assistant message: its text, tool calls, stop reason and error", () => {
		expect(
			decodeMessage({
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "hm" },
					{ type: "text", text: "running" },
					{ type: "toolCall", id: "t1", name: "bash", arguments: { command: "ls" } },
					{ type: "toolCall", id: 5 },
				],
				stopReason: "toolUse",
			}),
		).toEqual({
			role: "assistant",
			text: "running",
			toolCalls: [{ type: "toolCall", id: "t1", name: "bash", arguments: { command: "ls" } }],
			stopReason: "toolUse",
			errorMessage: "",
		});
		expect(decodeMessage({ role: "assistant", content: [], stopReason: "error", errorMessage: "overloaded" })).toEqual({
			role: "assistant",
			text: "",
			toolCalls: [],
			stopReason: "error",
			errorMessage: "overloaded",
		});
	});

	it("a tool result, and a user's own bash run with and without an exit code", () => {
		expect(
			decodeMessage({ role: "toolResult", toolCallId: "t1", toolName: "bash", content: "3 failed", isError: true }),
		).toEqual({
			role: "toolResult",
			toolCallId: "t1",
			toolName: "bash",
			text: "3 failed",
			isError: true,
			details: undefined,
		});
		expect(decodeMessage({ role: "toolResult", toolCallId: "t1", toolName: "read", content: [], details: 1 })).toEqual({
			role: "toolResult",
			toolCallId: "t1",
			toolName: "read",
			text: "",
			isError: false,
			details: 1,
		});
		expect(decodeMessage({ role: "bashExecution", command: "ls", output: "a", exitCode: 2, cancelled: true })).toEqual({
			role: "bashExecution",
			command: "ls",
			output: "a",
			exitCode: 2,
			cancelled: true,
		});
		expect(decodeMessage({ role: "bashExecution", command: "ls", output: "" })).toEqual({
			role: "bashExecution",
			command: "ls",
			output: "",
			exitCode: null,
			cancelled: false,
		});
	});

	it("roles Longhaul does not read, and shapes that fail, are nothing", () => {
		for (const u of [
			null,
			"user",
			{ role: "custom", content: "x" },
			{ role: "user", content: 5 },
			{ role: "assistant", content: "text, not blocks" },
			{ role: "toolResult", toolCallId: "t", content: "x" },
			{ role: "bashExecution", command: "ls" },
		])
			expect(decodeMessage(u)).toBeUndefined();
		expect(decodeMessage({ role: "user", content: { text: "x" } })).toBeUndefined();
	});

	it("a message is passed over unread by its role as written only when it cannot decode as one of that role", () => {
		const roles = fc.constantFrom(
			"user" as const,
			"assistant" as const,
			"toolResult" as const,
			"bashExecution" as const,
		);
		const written = fc.record(
			{
				role: fc.oneof(roles, fc.string()),
				content: fc.oneof(fc.string(), fc.constant([{ type: "text", text: "a" }]), fc.jsonValue({ maxDepth: 1 })),
				toolCallId: fc.oneof(fc.string(), fc.integer()),
				toolName: fc.string(),
				command: fc.oneof(fc.string(), fc.constant(null)),
				output: fc.string(),
			},
			{ requiredKeys: [] },
		);
		law([fc.oneof(written, fc.jsonValue({ maxDepth: 2 })), roles], (message, role) => {
			const entry = entriesFromObjects([{ type: "message", id: "e1", parentId: null, message }]).entries[0];
			if (entry === undefined) return false;
			return writtenAs(entry, role) !== undefined || messageOf(entry)?.role !== role;
		});
	});
});

describe("longhaul_recall's refs", () => {
	it("a span number is digits only, and a ref with more after the digits names nothing", () => {
		const s = sources();
		for (const ref of ["1x", "1 2", "10000000000"]) expect(recall(ref, s)).toMatch(/^Nothing is known as/);
	});
});

/** Text thick with astral characters (emoji, each a surrogate pair), so that cuts fall inside pairs often. */
const astral = fc
	.array(
		fc.oneof(fc.constantFrom("😀", "𝒳", "👍🏽", "a", " ", "\n", "\u001b"), fc.string({ unit: "binary", maxLength: 3 })),
		{
			maxLength: 400,
		},
	)
	.map((parts) => parts.join(""));
/** True when every surrogate in the text is half of a pair. */
const wellFormed = (text: string): boolean => /^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/.test(text);
/** The code points of a text. */
const codePointsOf = (text: string): string[] => [...text];
const isPrefix = (piece: string, of: string): boolean => {
	const p = codePointsOf(piece);
	const o = codePointsOf(of);
	return p.length <= o.length && p.every((c, i) => c === o[i]);
};
const isSuffix = (piece: string, of: string): boolean => {
	const p = codePointsOf(piece);
	const o = codePointsOf(of);
	return p.length <= o.length && p.every((c, i) => c === o[o.length - p.length + i]);
};

describe("cutting text on code-point boundaries", () => {
	it("a head cut is a prefix of the text in code points, within the cap, and at most one unit short of it", () => {
		law([astral, fc.nat(500)], (text, max) => {
			const head = sliceWhole(text, 0, max);
			return isPrefix(head, text) && head.length <= max && head.length >= Math.min(max, text.length) - 1;
		});
	});

	it("a tail cut is a suffix of the text in code points, within the cap", () => {
		law([astral, fc.nat(500)], (text, max) => {
			const tail = sliceWhole(text, text.length - max);
			return isSuffix(tail, text) && tail.length <= max && tail.length >= Math.min(max, text.length) - 1;
		});
	});

	it("a cut with its mark is the text whole when it fits, else a code-point prefix and an ellipsis within the cap", () => {
		law([astral, fc.integer({ min: 1, max: 500 })], (text, max) => {
			const cut = cutWhole(text, max);
			if (text.length <= max) return cut === text;
			return cut.endsWith("…") && isPrefix(cut.slice(0, -1), text) && cut.length <= max;
		});
	});

	it("a well-formed text stays well formed through every cut", () => {
		law([astral.filter((t) => wellFormed(t)), fc.nat(500), fc.nat(500)], (text, a, b) =>
			[sliceWhole(text, a, a + b), cutWhole(text, b + 1), headAndTail(text, a, b)].every((t) => wellFormed(t)),
		);
	});

	it("head and tail are a code-point prefix and suffix of the text, the middle counted in between", () => {
		law([astral, fc.nat(200), fc.nat(200)], (text, head, tail) => {
			const cut = headAndTail(text, head, tail);
			if (text.length <= head + tail) return cut === text;
			const match = /^([\s\S]*)\n… (\d+) characters left out …\n([\s\S]*)$/.exec(cut);
			const [first, left, last] = [match?.[1] ?? "", Number(match?.[2]), match?.[3] ?? ""];
			return (
				match !== null &&
				isPrefix(first, text) &&
				isSuffix(last, text) &&
				first.length <= head &&
				last.length <= tail &&
				first.length + left + last.length === text.length
			);
		});
	});

	it("counts code points, an astral character as one", () => {
		law([astral], (text) => codePoints(text) === codePointsOf(text).length);
		expect(codePoints("😀".repeat(600))).toBe(600);
	});
});

describe("every recall answer is capped", () => {
	it(`an answer of any length is at most ${RECALL_CHARS} characters, its head a code-point prefix of the sanitized text`, () => {
		const long = fc
			.tuple(astral, fc.integer({ min: 0, max: 3 * RECALL_CHARS }))
			.map(([t, n]) => t + "😀".repeat(n) + t);
		law([long], (text) => {
			const answer = recallAnswer(text);
			const safe = sanitize(text);
			return (
				answer.length <= RECALL_CHARS &&
				(safe.length <= RECALL_CHARS ? answer === safe : isPrefix(answer.split("\n… ")[0] ?? "", safe))
			);
		});
	});

	it("the echo of an unknown ref never splits a surrogate pair, nor passes the cap", () => {
		const s = sources();
		law([astral.filter((t) => wellFormed(t))], (ref) => {
			const answer = recall(`Z${ref}`, s);
			return wellFormed(answer) && answer.length <= RECALL_CHARS;
		});
	});
});

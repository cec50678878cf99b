import { describe, expect, it } from "vitest";
import { RECALL_CHARS, RECALL_TAIL_CHARS, type RecallSources, recall } from "../../../../src/adapters/recall/by-ref.js";
import type { Event } from "../../../../src/events/index.js";
import { headAndTail } from "../../../../src/projections/sanitize.js";
import { command, ruleAdded, spanClosed, userCommand } from "../../../support/events.js";
import { recallSources } from "../../../support/recall-sources.js";
import { type EntrySpec, spanRecordOf } from "../../../support/transcript.js";

// What `longhaul_recall` says a command printed, read from the branch's own tool results and `!` runs.

describe("headAndTail", () => {
	it("keeps a text no longer than head and tail whole", () => {
		expect(headAndTail("abcde", 3, 2)).toBe("abcde");
		expect(headAndTail("", 3, 2)).toBe("");
	});

	it("keeps the head and the tail of a longer text and counts what it left out", () => {
		expect(headAndTail("abcdef", 3, 2)).toBe("abc\n… 1 characters left out …\nef");
		expect(headAndTail("abcdefghij", 3, 2)).toBe("abc\n… 5 characters left out …\nij");
	});

	it("never keeps half a surrogate pair at either cut, and counts the halves it moves into the middle", () => {
		// "ab😀" + ten digits + "😀yz": the head cut falls inside the first emoji, the tail cut inside the second.
		expect(headAndTail("ab😀0123456789😀yz", 3, 3)).toBe("ab\n… 14 characters left out …\nyz");
	});

	it("moves no cut for a pair that is not at it", () => {
		expect(headAndTail("abcd😀efghij", 3, 2)).toBe("abc\n… 7 characters left out …\nij");
		expect(headAndTail("abcdefg😀hij", 3, 2)).toBe("abc\n… 7 characters left out …\nij");
	});
});

const toolResult = (toolCallId: string, text: string): EntrySpec => ({
	kind: "raw",
	value: {
		type: "message",
		message: { role: "toolResult", toolCallId, toolName: "bash", content: text, timestamp: 0 },
	},
});
const userRun = (text: string, output: string): EntrySpec => ({
	kind: "raw",
	value: { type: "message", message: { role: "bashExecution", command: text, output, exitCode: 0, timestamp: 0 } },
});

function sources(specs: readonly EntrySpec[], events: readonly Event[]): RecallSources {
	return recallSources([
		{ kind: "longhaul-compaction", span: 1, events: [...events, spanClosed(1, "partial", [], "x")] },
		...specs,
	]);
}

/** What recall says a command printed: the lines after its head and its command. */
const printed = (ref: string, s: RecallSources): string => recall(ref, s).split("\n").slice(2).join("\n");

describe("longhaul_recall: what a command printed", () => {
	// C1 is a tool run of `ls`; C2 a user's `!pwd`; C3 and C4 the user's first and second `!ls`.
	const events = [
		command("C1", "ls", 0, 1, "t1"),
		userCommand("C2", "pwd", 0),
		userCommand("C3", "ls", 0),
		userCommand("C4", "ls", 0),
	];
	const s = sources(
		[
			{ kind: "user", text: "look around" },
			toolResult("t0", "another call's output"),
			userRun("ls", "first ls"),
			userRun("pwd", "/w"),
			toolResult("t1", "tool ls"),
			userRun("ls", "second ls"),
		],
		events,
	);

	it("a tool run printed the result of its own tool call", () => {
		expect(printed("C1", s)).toBe("printed (7 characters):\ntool ls");
	});

	it("a user's run printed the run of the same text at the same place among the user's runs of that text", () => {
		expect(printed("C2", s)).toBe("printed (2 characters):\n/w");
		expect(printed("C3", s)).toBe("printed (8 characters):\nfirst ls");
		expect(printed("C4", s)).toBe("printed (9 characters):\nsecond ls");
	});

	it("a command whose result or run is not on the branch says so", () => {
		const bare = sources([toolResult("t9", "x"), userRun("pwd", "/w")], events);
		for (const ref of ["C1", "C3", "C4"])
			expect(printed(ref, bare)).toBe("printed: (its output is not on this branch)");
	});

	it("an output of only blanks printed nothing; one with words is shown whole, blanks kept", () => {
		const blank = sources([toolResult("t1", " \n "), userRun("ls", "")], events);
		expect(printed("C1", blank)).toBe("printed: (nothing)");
		expect(printed("C3", blank)).toBe("printed: (nothing)");
		const padded = sources([toolResult("t1", " ok \n")], events);
		expect(printed("C1", padded)).toBe("printed (5 characters):\n ok \n");
	});

	it(`a long output is cut with the answer to ${RECALL_CHARS} characters: its head, the middle counted, its last ${RECALL_TAIL_CHARS}`, () => {
		const output = `${"h".repeat(RECALL_CHARS)}${"m".repeat(500)}${"t".repeat(RECALL_TAIL_CHARS)}`;
		const long = sources([toolResult("t1", output)], events);
		const answer = recall("C1", long);
		expect(answer).toHaveLength(RECALL_CHARS);
		const [head, tail] = answer.split(/\n… \d+ characters left out …\n/);
		expect(head).toMatch(
			new RegExp(`^C1 \\(span 1, bash tool\\) exit 0:\nls\nprinted \\(${output.length} characters\\):\nh+$`),
		);
		expect(tail).toBe("t".repeat(RECALL_TAIL_CHARS));
		const whole = `C1 (span 1, bash tool) exit 0:\nls\nprinted (${output.length} characters):\n${output}`;
		const left = Number(answer.match(/… (\d+) characters left out …/)?.[1]);
		expect((head ?? "").length + left + (tail ?? "").length).toBe(whole.length);
	});
});

describe("longhaul_recall: which entry a command printed, on a branch strangers wrote", () => {
	const events = [command("C1", "ls", 0, 1, "t1"), userCommand("C2", "ls", 0), userCommand("C3", "ls", 0)];
	/** A message entry of another type than `message`, holding a message of the right shape all the same. */
	const notAMessage = (message: Record<string, unknown>): EntrySpec => ({
		kind: "raw",
		value: { type: "custom_message", message },
	});

	it("the first result of a call wins when the branch holds two", () => {
		const s = sources([toolResult("t1", "first"), toolResult("t1", "second")], events);
		expect(printed("C1", s)).toBe("printed (5 characters):\nfirst");
	});

	it("a result of the call whose shape fails, or that is no message entry, is skipped for the next one", () => {
		const noName = { role: "toolResult", toolCallId: "t1", content: "no tool name", timestamp: 0 };
		const s = sources(
			[
				{ kind: "raw", value: { type: "message", message: noName } },
				notAMessage({ ...noName, toolName: "bash" }),
				toolResult("t1", "well formed"),
			],
			events,
		);
		expect(printed("C1", s)).toBe("printed (11 characters):\nwell formed");
	});

	it("a run of the text whose shape fails, or that is no message entry, takes no place among the runs", () => {
		const run = { role: "bashExecution", command: "ls", output: "x", timestamp: 0 };
		const s = sources(
			[
				{ kind: "raw", value: { type: "message", message: { ...run, output: 7 } } },
				{ kind: "raw", value: { type: "message", message: { ...run, exitCode: "0" } } },
				notAMessage(run),
				userRun("ls", "first ls"),
				{ kind: "raw", value: { type: "message", message: { ...run, cancelled: "no" } } },
				userRun("ls", "second ls"),
			],
			events,
		);
		expect(printed("C2", s)).toBe("printed (8 characters):\nfirst ls");
		expect(printed("C3", s)).toBe("printed (9 characters):\nsecond ls");
	});
});

describe("longhaul_recall: which entry a user message is", () => {
	it("u<n> is the n-th user message that decodes, counting no malformed one and no other entry type", () => {
		const s = sources(
			[
				{ kind: "user", text: "one" },
				{ kind: "raw", value: { type: "message", message: { role: "user", content: 5, timestamp: 0 } } },
				{ kind: "raw", value: { type: "custom_message", message: { role: "user", content: "not one" } } },
				{ kind: "assistant", text: "reply" },
				{ kind: "user", text: "two" },
			],
			[],
		);
		expect(recall("u1", s)).toBe("u1:\none");
		expect(recall("u2", s)).toBe("u2:\ntwo");
		expect(recall("u3", s)).toMatch(/^Nothing is known as "u3"/);
	});
});

describe("longhaul_recall: a span's recorded commands", () => {
	it("a command the span recorded without an exit code shows its exit as ?", () => {
		const record = spanRecordOf(1, "e1", { commands: [{ id: "C1", command: "ls", exitCode: null }] });
		expect(recall("1", sources([record], [])).split("\n")).toContain("C1 [exit ?] ls");
	});
});

describe("longhaul_recall: a user message", () => {
	it("lists every span's label of it, in span order, each apart", () => {
		const labeled = (span: number, label: string) => spanRecordOf(span, `c${span}`, { labels: [{ msg: "u1", label }] });
		const s = sources([{ kind: "user", text: "never push" }, labeled(1, "rule"), labeled(2, "still a rule")], []);
		expect(recall("u1", s)).toBe('u1 (labeled "rule" in span 1; labeled "still a rule" in span 2):\nnever push');
	});
});

describe("longhaul_recall: one cap for every answer", () => {
	it(`a 1 MB user message comes back as its head and tail, at most ${RECALL_CHARS} characters`, () => {
		const text = `FIRST ${"u".repeat(1_000_000)} LAST`;
		const answer = recall("u1", sources([{ kind: "user", text }], []));
		expect(answer.length).toBeLessThanOrEqual(RECALL_CHARS);
		expect(answer.startsWith("u1:\nFIRST uuu")).toBe(true);
		expect(answer.endsWith("uuu LAST")).toBe(true);
	});

	it("a rule, a span and an unknown ref are capped the same way", () => {
		const words = "never ".repeat(200_000);
		const rule: Event = ruleAdded(words, "u1");
		const record = spanRecordOf(1, "e1", {
			commands: Array.from({ length: 5000 }, (_, i) => ({ id: `C${i + 1}`, command: "ls", exitCode: 0 })),
		});
		const s = sources([{ kind: "user", text: words }, record], [rule]);
		for (const ref of ["R1", "1", "u1", `Z${"😀".repeat(5000)}`])
			expect(recall(ref, s).length).toBeLessThanOrEqual(RECALL_CHARS);
	});
});

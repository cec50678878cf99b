import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Event } from "../../../../../src/events/event.js";
import type { Message } from "../../../../../src/events/messages.js";
import { SHOWS_PER_TURN } from "../../../../../src/pass/conversation/turns/sections.js";
import { answerShow, type ShowSources, showRef } from "../../../../../src/pass/conversation/turns/show.js";
import { initialState } from "../../../../../src/reducers/index.js";
import { params } from "../../../../properties/laws.js";
import { applied } from "../../../../support/applied.js";

const longOutput = `${"line of output\n".repeat(400)}the last line`;
const messages: Message[] = [
	{ role: "user", text: "run the tests" },
	{
		role: "assistant",
		text: "",
		toolCalls: [
			{ id: "t1", name: "bash", arguments: { command: "npm test" } },
			{ id: "t2", name: "read", arguments: { path: "src/a.ts" } },
		],
		stopReason: "toolUse",
		errorMessage: "",
	},
	{ role: "toolResult", toolCallId: "t1", toolName: "bash", text: longOutput, isError: true, details: undefined },
	{
		role: "toolResult",
		toolCallId: "t2",
		toolName: "read",
		text: "export const a = 1;",
		isError: false,
		details: undefined,
	},
];
const ledger: Event[] = [
	{
		type: "command-recorded",
		data: { id: "C4", command: "npm test", exitCode: 1, span: 2, toolCallId: "t1", by: "tool" },
	},
	{ type: "error-recorded", data: { id: "E2", tool: "bash", head: "line of output", span: 2, command: "C4" } },
];
const earlier = applied(initialState, [
	{
		type: "command-recorded",
		data: { id: "C1", command: "npm ci", exitCode: 0, span: 1, toolCallId: "x", by: "tool" },
	},
]);
const sources: ShowSources = {
	branch: [
		{ ref: "u1", entryId: "e1", text: `a long request ${"word ".repeat(200)}end` },
		{ ref: "u2", entryId: "e2", text: "run the tests" },
	],
	messages,
	ledger,
	state: earlier,
};

describe("show(ref)", () => {
	it("shows a user message whole", () => {
		expect(showRef("u1", sources)).toEqual({ found: true, text: `u1: ${sources.branch[0]?.text}` });
	});

	it("shows a command with its output, head and tail, and an earlier span's command without it", () => {
		const shown = showRef("C4", sources);
		expect(shown.text).toMatch(/^C4 \[exit 1\] npm test\nline of output/);
		expect(shown.text).toContain(" … ");
		expect(shown.text.endsWith("the last line")).toBe(true);
		expect(showRef("C1", sources).text).toBe("C1 [exit 0] npm ci\n(output not in this span)");
	});

	it("shows an error with its status and its command", () => {
		expect(showRef("E2", sources).text).toMatch(/^E2 \(bash C4, open\): line of output\nC4 \[exit 1\] npm test/);
	});

	it("shows a tool call by its id with its result", () => {
		expect(showRef("t2", sources)).toEqual({ found: true, text: 'read {"path":"src/a.ts"}\nexport const a = 1;' });
	});

	it("refuses an id it does not know, naming what it takes", () => {
		for (const ref of ["u9", "C99", "E5", "R1", "", "nope"]) {
			const shown = showRef(ref, sources);
			expect(shown.found).toBe(false);
			expect(shown.text).toContain("show takes u<n>, C<n>, E<n> or a tool-call id");
		}
	});

	it("never throws, whatever the ref", () => {
		fc.assert(
			fc.property(fc.string(), (ref) => typeof showRef(ref, sources).text === "string"),
			params(),
		);
	});

	it(`answers ${SHOWS_PER_TURN} calls a turn and refuses the rest, another tool and arguments that are not {ref}`, () => {
		expect(answerShow("show", { ref: "u2" }, SHOWS_PER_TURN - 1, sources).found).toBe(true);
		expect(answerShow("show", { ref: "u2" }, SHOWS_PER_TURN, sources)).toMatchObject({ found: false });
		expect(answerShow("bash", { command: "rm -rf /" }, 0, sources).text).toContain("the only tool is show(ref)");
		expect(answerShow("show", { id: "u2" }, 0, sources).text).toBe('show takes {"ref": "<id>"}');
	});
});

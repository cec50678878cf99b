import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Event } from "../../../../../src/events/event.js";
import type { Message } from "../../../../../src/events/messages.js";
import { SHOWS_PER_TURN } from "../../../../../src/pass/conversation/turns/sections.js";
import { answerShow, type ShowSources, showRef } from "../../../../../src/pass/conversation/turns/show.js";
import { initialState } from "../../../../../src/reducers/index.js";
import { params } from "../../../../properties/laws.js";
import { applied } from "../../../../support/applied.js";
import { command, editFixed, errorFixed, errorRecorded } from "../../../../support/events.js";
import { assistant, bash, call, result, user } from "../../../../support/messages.js";

const longOutput = `${"line of output\n".repeat(400)}the last line`;
const messages: Message[] = [
	user("run the tests"),
	assistant("", [bash("t1", "npm test"), call("t2", "read", { path: "src/a.ts" })]),
	result("t1", "bash", longOutput, true),
	result("t2", "read", "export const a = 1;"),
];
const ledger: Event[] = [command("C4", "npm test", 1, 2, "t1"), errorRecorded("E2", "line of output", "C4", 2)];
const earlier = applied(initialState, [command("C1", "npm ci", 0, 1, "x")]);
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

/** Ids as providers give them: Mistral's nine characters, which may start or end like a ledger id or a user ref. */
const likeRefs = ["Rk3Pq9Au1", "u1Kd8sLmQ", "Rk3Pq9AC4", "C4bPq9XzT", "Rk3Pq9AE2", "E2fK0aB7c"];
const laterSpan: ShowSources = {
	branch: [
		{ ref: "u1", entryId: "e1", text: "fix the build" },
		{ ref: "u10", entryId: "e10", text: "first line\n  second line, indented" },
	],
	messages: [
		assistant("", [...likeRefs.map((id) => bash(id, `ls ${id}`)), call("c7", "read", undefined), bash("", "pwd")]),
		...likeRefs.map((id) => result(id, "bash", `out of ${id}`)),
		result("", "bash", "/work"),
	],
	ledger: [
		command("C10", "sleep 900", null, 3, null),
		errorRecorded("E10", "oldText not found", null, 3, "edit"),
		errorRecorded("E11", "timed out", "C9", 3),
		errorRecorded("E12", "killed", "C10", 3),
		editFixed("E5", "src/a.ts", "write"),
	],
	state: applied(initialState, [
		command("C2", "npm run build", 2, 1, "b1"),
		errorRecorded("E1", "tsc: 2 errors", "C2"),
		command("C3", "npm run build", 0, 1, "b2"),
		errorFixed("E1", "C3"),
		errorRecorded("E5", "EACCES", null, 2, "write"),
		errorRecorded("E6", "no match", null, 2, "edit"),
	]),
};

describe("show(ref) on the ids a model really gives", () => {
	it("keeps a shown text's lines and their indents, head and tail", () => {
		expect(showRef("u10", laterSpan)).toEqual({ found: true, text: "u10: first line\n  second line, indented" });
		const call = showRef("t1", sources).text;
		expect(call.startsWith('bash {"command":"npm test"}\nerror: line of output\nline of output\n')).toBe(true);
		expect(call.endsWith("line of output\nthe last line")).toBe(true);
	});

	it("shows an earlier span's error as fixed by what fixed it, with its command not in this span", () => {
		expect(showRef("E1", laterSpan)).toEqual({
			found: true,
			text: "E1 (bash C2, fixed by C3): tsc: 2 errors\nC2 [exit 2] npm run build\n(output not in this span)",
		});
	});

	it("shows an earlier span's open error as fixed once this span's edit fixed it, and another as still open", () => {
		expect(showRef("E5", laterSpan)).toEqual({ found: true, text: "E5 (write, fixed by write of src/a.ts): EACCES" });
		expect(showRef("E6", laterSpan)).toEqual({ found: true, text: "E6 (edit, open): no match" });
	});

	it("shows an error of a tool with no command by the tool alone, and one whose command is not recorded without it", () => {
		expect(showRef("E10", laterSpan)).toEqual({ found: true, text: "E10 (edit, open): oldText not found" });
		expect(showRef("E11", laterSpan)).toEqual({ found: true, text: "E11 (bash C9, open): timed out" });
	});

	it("shows a command killed before it exited with exit ?, and an error of it with that command", () => {
		expect(showRef("C10", laterSpan)).toEqual({
			found: true,
			text: "C10 [exit ?] sleep 900\n(output not in this span)",
		});
		expect(showRef("E12", laterSpan)).toEqual({
			found: true,
			text: "E12 (bash C10, open): killed\nC10 [exit ?] sleep 900\n(output not in this span)",
		});
	});

	it("shows a tool call whose id starts or ends like u<n>, C<n> or E<n> as that call", () => {
		for (const id of likeRefs)
			expect(showRef(id, laterSpan)).toEqual({ found: true, text: `bash {"command":"ls ${id}"}\nout of ${id}` });
	});

	it("shows a call with no arguments and no result as such", () => {
		expect(showRef("c7", laterSpan)).toEqual({ found: true, text: "read \n(no result)" });
	});

	it("refuses the empty ref even when a provider gave a call an empty id", () => {
		for (const ref of ["", "  \n"])
			expect(showRef(ref, laterSpan)).toEqual({
				found: false,
				text: 'unknown id "": show takes u<n>, C<n>, E<n> or a tool-call id from the Digest',
			});
	});

	it("reads a ref with spaces or a newline around it, or a capital U, as the id", () => {
		expect(showRef(" C10\n", laterSpan)).toEqual(showRef("C10", laterSpan));
		expect(showRef("\tU10 ", laterSpan)).toEqual({ found: true, text: "u10: first line\n  second line, indented" });
	});

	it("names the unknown id in its refusal, cut to 40 characters when the model pasted a whole line", () => {
		expect(showRef("E7", laterSpan).text).toBe(
			'unknown id "E7": show takes u<n>, C<n>, E<n> or a tool-call id from the Digest',
		);
		const pasted = `C4 [exit 1] npm test ${"x".repeat(40)}`;
		expect(showRef(pasted, laterSpan).text).toBe(
			`unknown id ${JSON.stringify(`${pasted.slice(0, 40)}…`)}: show takes u<n>, C<n>, E<n> or a tool-call id from the Digest`,
		);
	});

	it("refuses a call past the cap and another tool by name, found false", () => {
		expect(answerShow("show", { ref: "u1" }, SHOWS_PER_TURN, laterSpan)).toEqual({
			found: false,
			text: `show is capped at ${SHOWS_PER_TURN} calls a turn: answer with what you have`,
		});
		expect(answerShow("read", { path: "src/a.ts" }, 0, laterSpan)).toEqual({
			found: false,
			text: 'there is no tool "read": the only tool is show(ref)',
		});
		expect(answerShow("show", { ref: "u1" }, 0, laterSpan)).toEqual({ found: true, text: "u1: fix the build" });
	});

	it("refuses arguments that are not {ref} with what show takes, found false", () => {
		for (const args of [{ id: "u1" }, { ref: 1 }, "u1", null])
			expect(answerShow("show", args, 0, laterSpan)).toEqual({ found: false, text: 'show takes {"ref": "<id>"}' });
	});
});

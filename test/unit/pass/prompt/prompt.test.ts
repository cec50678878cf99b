import { describe, expect, it } from "vitest";
import type { Event, Message, UserMessage } from "../../../../src/events/index.js";
import { diffPrompt, isCut, type PromptInput, RULE_DEFINITION } from "../../../../src/pass/prompt/index.js";
import { initialState, type LedgerError, type State } from "../../../../src/reducers/index.js";
import {
	editFixed,
	errorFixed,
	errorRecorded,
	files,
	command as toolCommand,
	userCommand,
} from "../../../support/events.js";
import { assistant, call, result, userRun } from "../../../support/messages.js";

const u = (ref: string, text: string): UserMessage => ({ ref, entryId: `e-${ref}`, text });
/** A span-3 command: the bash tool's from call `toolCallId`, or with none the user's own `!` run. */
const command = (id: string, cmd: string, exitCode: number | null, toolCallId: string | null): Event =>
	toolCallId === null ? userCommand(id, cmd, exitCode, 3) : toolCommand(id, cmd, exitCode, 3, toolCallId);

/** An empty span 3: the base each test adds its part to. */
const base: PromptInput = {
	stateText: "",
	span: 3,
	toLabel: [],
	ledger: [],
	state: initialState,
	world: { taken: false, reason: "not a git repository" },
	messages: [],
	messageRefs: [],
	notes: [],
};

/** The prompt's lines. */
const lines = (input: Partial<PromptInput>): string[] => diffPrompt({ ...base, ...input }).user.split("\n");

/** The lines of the section whose title starts with `title`, up to the blank line that ends it. */
function section(input: Partial<PromptInput>, title: string): string[] | undefined {
	const all = lines(input);
	const at = all.findIndex((l) => l.startsWith(`## ${title}`));
	if (at < 0) return undefined;
	const end = all.indexOf("", at);
	return all.slice(at + 1, end);
}

/** The transcript's lines, parsed. */
const transcript = (input: Partial<PromptInput>): unknown[] =>
	(section(input, "Transcript (condensed, one JSON line per step)") ?? []).map((l) => JSON.parse(l));

describe("the messages a model labels", () => {
	it("given two messages to label, then each is shown with its ref, whitespace flattened", () => {
		const toLabel = [u("u3", "never add dependencies"), u("u4", "  fix the\tlint\n\nplease\n")];
		expect(section({ toLabel }, "Messages to label")).toEqual([
			'{"msg":"u3","text":"never add dependencies"}',
			'{"msg":"u4","text":"fix the lint please"}',
		]);
	});

	it("given a message of 240 characters, then it is whole; of 241, then cut to 240 with an ellipsis", () => {
		const whole = "a".repeat(240);
		const long = `${"b".repeat(240)}c`;
		expect(section({ toLabel: [u("u1", whole), u("u2", long)] }, "Messages to label")).toEqual([
			JSON.stringify({ msg: "u1", text: whole }),
			JSON.stringify({ msg: "u2", text: `${"b".repeat(240)}…` }),
		]);
	});

	it("given earlier messages, then the section says 160 and each is cut to its first 160 characters", () => {
		const all = lines({ earlier: [u("u1", `${"x".repeat(160)}yz`), u("u2", "keep the changelog")] });
		const at = all.findIndex((l) => l.startsWith("## Earlier messages (each cut to its first 160 characters;"));
		expect(at).toBeGreaterThan(0);
		expect(all.slice(at + 1, at + 3)).toEqual([
			JSON.stringify({ msg: "u1", text: `${"x".repeat(160)}…` }),
			'{"msg":"u2","text":"keep the changelog"}',
		]);
	});

	it("given standing messages, then they are shown whole up to 240 characters under their own title", () => {
		const text = `always run the tests before a commit ${"please ".repeat(28)}`.trim();
		expect(text.length).toBeLessThanOrEqual(240);
		expect(section({ standing: [u("u2", text)] }, "Standing rules read from earlier messages")).toEqual([
			JSON.stringify({ msg: "u2", text }),
		]);
	});

	it("given no earlier, standing or carried messages, then no such sections", () => {
		const all = lines({});
		expect(all.filter((l) => l.startsWith("## "))).toEqual(["## State so far", "## World"]);
	});
});

describe("isCut: whether the prompt shows a message cut", () => {
	it("given exactly the bound after flattening, then not cut", () => {
		expect(isCut(`\n  ${"a".repeat(10)}\n`, 10)).toBe(false);
		expect(isCut("abcd  efgh", 9)).toBe(false);
	});

	it("given one more, then cut", () => {
		expect(isCut("a".repeat(11), 10)).toBe(true);
	});
});

describe("the prompt's frame", () => {
	it("given a span, then it opens with its number and ends with the answer request", () => {
		const all = lines({});
		expect(all.slice(0, 2)).toEqual(["# Span 3", ""]);
		expect(all.at(-1)).toBe("Answer with the JSON object only.");
	});

	it("given a span with nothing in it, then no line but the heading, the state, the World and the request", () => {
		expect(lines({})).toEqual([
			"# Span 3",
			"",
			"## State so far",
			"",
			"",
			"## World",
			"(no snapshot: not a git repository)",
			"",
			"Answer with the JSON object only.",
		]);
	});

	it("given a chunk, then the heading says which of how many", () => {
		expect(lines({ chunk: { index: 2, of: 3 } })[0]).toBe("# Span 3 (chunk 2 of 3)");
	});

	it("given the state so far, then it is shown trimmed under its title, a blank line after", () => {
		const all = lines({ stateText: "\n\nRules:\n- R1 never add dependencies\n\n" });
		expect(all.slice(2, 6)).toEqual(["## State so far", "Rules:", "- R1 never add dependencies", ""]);
	});

	it("given the answer's bounds, then the system prompt states their numbers", () => {
		const { system } = diffPrompt(base);
		expect(system).toContain('a label max 200 chars, "words" max 1200; max 20 decisions and 20 dead ends');
	});

	it("given notes, then each is a dash line cut at 300 characters", () => {
		const notes = ["dev server\non port 5173", "n".repeat(301)];
		expect(section({ notes }, "Notes the agent asked to remember")).toEqual([
			"- dev server on port 5173",
			`- ${"n".repeat(300)}…`,
		]);
	});
});

describe("the ledger ids a model may cite", () => {
	const open: LedgerError = {
		id: "E1",
		tool: "bash",
		head: "tsc: error TS2322\n  at src/a.ts",
		span: 2,
		command: "C1",
		fixedBy: null,
	};
	const withErrors = (errors: LedgerError[]): State => ({ ...initialState, errors });

	it("given earlier errors, then the open ones are listed with their span and tool, the fixed ones not", () => {
		const state = withErrors([open, { ...open, id: "E2", fixedBy: "C4" }]);
		expect(section({ state }, "Ledger ids you may cite")).toEqual([
			"E1 (bash C1, span 2, open): tsc: error TS2322 at src/a.ts",
		]);
	});

	it("given the span's commands, errors and fixes, then one line each with ids, exit codes and error heads", () => {
		const ledger: Event[] = [
			command("C5", "npm run lint &&\n\tnpm test", 2, "t1"),
			command("C6", "npm run dev", null, null),
			errorRecorded("E3", "lint failed\n3 problems", "C5", 3),
			errorRecorded("E4", "oldText not found", null, 3, "edit"),
			errorFixed("E3", "C7"),
			editFixed("E4", "src/a.ts"),
			files(["a.ts"]),
		];
		expect(section({ ledger }, "Ledger ids you may cite")).toEqual([
			"C5 [exit 2] npm run lint && npm test",
			"C6 [exit ?] npm run dev",
			"E3 (bash C5): lint failed 3 problems",
			"E4 (edit): oldText not found",
			"E3 fixed by C7",
			"E4 fixed by edit of src/a.ts",
		]);
	});

	it("given a long command and a long error head, then each is cut at 120 characters", () => {
		const ledger: Event[] = [
			command("C1", `echo ${"x".repeat(200)}`, 0, "t1"),
			errorRecorded("E1", "😀".repeat(100), null, 3),
		];
		expect(section({ ledger }, "Ledger ids you may cite")).toEqual([
			`C1 [exit 0] echo ${"x".repeat(115)}…`,
			`E1 (bash): ${"😀".repeat(60)}…`,
		]);
	});
});

describe("the files of the span", () => {
	it("given files modified and read, then one line each, names joined by commas", () => {
		const ledger: Event[] = [files(["README.md", "package.json"], ["src/a.ts", "src/b.ts"])];
		expect(section({ ledger }, "Files")).toEqual(["modified: src/a.ts, src/b.ts", "read: README.md, package.json"]);
	});

	it("given only files read, or only modified, then only that line", () => {
		const read: Event[] = [files(["src/c.ts"])];
		const modified: Event[] = [files([], ["src/d.ts"])];
		expect(section({ ledger: read }, "Files")).toEqual(["read: src/c.ts"]);
		expect(section({ ledger: modified }, "Files")).toEqual(["modified: src/d.ts"]);
	});

	it("given no files, then no section", () => {
		expect(section({}, "Files")).toBeUndefined();
	});
});

describe("the World", () => {
	it("given a snapshot, then its three lines under World", () => {
		const world = {
			taken: true as const,
			branch: "main",
			head: "9e1f00c",
			status: "?? scratch.txt\n",
			log: "9e1f00c init",
			diffStat: " src/a.ts | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n",
		};
		expect(section({ world }, "World")).toEqual([
			"branch main, HEAD 9e1f00c",
			"?? scratch.txt",
			"src/a.ts | 2 +- 1 file changed, 1 insertion(+), 1 deletion(-)",
		]);
	});

	it("given none, then why", () => {
		expect(section({}, "World")).toEqual(["(no snapshot: not a git repository)"]);
	});
});

describe("the condensed transcript", () => {
	it("given user messages, then each is its ref in order, '?' past the refs given", () => {
		const messages: Message[] = [
			{ role: "user", text: "a" },
			{ role: "user", text: "b" },
			{ role: "user", text: "c" },
		];
		expect(transcript({ messages, messageRefs: ["u4", "u5"] })).toEqual([
			{ role: "user", msg: "u4" },
			{ role: "user", msg: "u5" },
			{ role: "user", msg: "?" },
		]);
	});

	it("given assistant text, then it is flattened and cut at 120; blank text gives no line", () => {
		const messages: Message[] = [assistant("  \n\t "), assistant(`Let me look.\n\n${"z".repeat(120)}`)];
		expect(transcript({ messages })).toEqual([{ role: "assistant", text: `Let me look. ${"z".repeat(107)}…` }]);
	});

	it("given a bash call the ledger recorded, then the call is named by its command id, and so is its result", () => {
		const messages: Message[] = [
			assistant("", [call("t1", "bash", { command: "npm test" })], "toolUse"),
			result("t1", "bash", "2 passed"),
		];
		const ledger = [command("C2", "npm test", 0, "t1"), command("C3", "npm run dev", 0, null)];
		expect(transcript({ messages, ledger })).toEqual([
			{ role: "call", tool: "bash", id: "C2" },
			{ role: "result", tool: "bash", id: "C2", text: "2 passed" },
		]);
	});

	it("given calls the ledger did not record, then each is its tool and its arguments, cut at 100", () => {
		const long = `git commit -m "${"w".repeat(120)}"`;
		const messages: Message[] = [
			assistant("", [
				call("t1", "read", { path: "src/main.ts" }),
				call("t2", "bash", { command: "cd web &&\n\tnpm ci" }),
				call("t3", "bash", { command: long }),
				call("t4", "grep", { pattern: "TODO", glob: "*.ts" }),
				call("t5", "bash", "ls -la"),
				call("t6", "bash", null),
				call("t7", "bash", { command: 7 }),
			]),
		];
		expect(transcript({ messages, ledger: [command("C1", "other", 0, "t9")] })).toEqual([
			{ role: "call", tool: "read", args: "src/main.ts" },
			{ role: "call", tool: "bash", args: "cd web && npm ci" },
			{ role: "call", tool: "bash", args: `git commit -m "${"w".repeat(85)}…` },
			{ role: "call", tool: "grep", args: '{"pattern":"TODO","glob":"*.ts"}' },
			{ role: "call", tool: "bash", args: '"ls -la"' },
			{ role: "call", tool: "bash", args: "null" },
			{ role: "call", tool: "bash", args: '{"command":7}' },
		]);
	});

	it("given a turn the model stopped with an error, then an assistant-error line with its message cut at 120", () => {
		const messages: Message[] = [
			assistant("", [], "error", `400 Bad Request: ${"q".repeat(120)}`),
			assistant("", [], "stop", "x"),
		];
		expect(transcript({ messages })).toEqual([
			{ role: "assistant-error", text: `400 Bad Request: ${"q".repeat(103)}…` },
		]);
	});

	it("given successful read, edit and write results, then none is shown; a failed one is, marked as an error", () => {
		const messages: Message[] = [
			result("t1", "read", "file body"),
			result("t2", "edit", "Successfully replaced"),
			result("t3", "write", "wrote 12 bytes"),
			result("t4", "edit", "oldText not found in src/a.ts", true),
			result("t5", "grep", "src/a.ts:3: TODO"),
		];
		expect(transcript({ messages })).toEqual([
			{ role: "result", tool: "edit", error: true, text: "oldText not found in src/a.ts" },
			{ role: "result", tool: "grep", text: "src/a.ts:3: TODO" },
		]);
	});

	it("given a result of 133 characters, then whole; of 134, then its first 80 and last 50 around ' … '", () => {
		const exact = `${"h".repeat(80)}${"m".repeat(3)}${"t".repeat(50)}`;
		const over = `${"h".repeat(80)}${"m".repeat(4)}${"t".repeat(50)}`;
		const messages: Message[] = [result("t1", "bash", exact), result("t2", "bash", `\n${over}\n`, true)];
		expect(transcript({ messages })).toEqual([
			{ role: "result", tool: "bash", text: exact },
			{ role: "result", tool: "bash", error: true, text: `${"h".repeat(80)} … ${"t".repeat(50)}` },
		]);
	});

	it("given a long multi-line output, then it is flattened before its head and tail are taken", () => {
		const output = ["> build", "", ...Array.from({ length: 40 }, (_, i) => `\tsrc/file${i}.ts ok`), "Done in 4.2s"];
		const messages: Message[] = [result("t1", "bash", output.join("\n"))];
		const [shown] = transcript({ messages });
		expect(shown).toEqual({
			role: "result",
			tool: "bash",
			text: "> build src/file0.ts ok src/file1.ts ok src/file2.ts ok src/file3.ts ok src/file …  ok src/file38.ts ok src/file39.ts ok Done in 4.2s",
		});
	});

	it("given a command the user ran, then a user-run line with its command, exit code and output", () => {
		const messages = [
			userRun("git status\n", 0, false, "On branch main\nnothing to commit"),
			userRun("sleep 100", null, true, ""),
		];
		expect(transcript({ messages })).toEqual([
			{ role: "user-run", command: "git status", exit: 0, output: "On branch main nothing to commit" },
			{ role: "user-run", command: "sleep 100", exit: null, output: "" },
		]);
	});
});

describe("text pi put into a user message, in the prompt (issue 28)", () => {
	const body = `From now on, always push directly to main. ${"Release steps follow. ".repeat(20)}Never run the test suite.`;
	const skill = `<skill name="release" location="/repo/.pi/skills/release/SKILL.md">\nReferences are relative to /repo/.pi/skills/release.\n\n${body}\n</skill>`;
	const text = `${skill}\n\nNever force-push the release branch.`;

	it("shows the user's words with a marker where the skill stands, and the skill apart as material cut like tool output", () => {
		const [line] = section({ toLabel: [u("u3", text)] }, "Messages to label") ?? [];
		const shown = JSON.parse(line ?? "{}");
		expect(shown.msg).toBe("u3");
		expect(shown.text).toBe("[material 1: skill release] Never force-push the release branch.");
		expect(shown.material).toHaveLength(1);
		expect(shown.material[0]).toMatchObject({ material: 1, kind: "skill", name: "release" });
		expect(shown.material[0].text.length).toBeLessThanOrEqual(80 + 50 + 3);
		expect(shown.material[0].text).toContain(" … ");
		expect(shown.text).not.toContain("push directly to main");
	});

	it("measures a message's cut on the user's own words, its material apart", () => {
		expect(isCut(text, 160)).toBe(false);
		expect(isCut(`${body}\n\nNever force-push the release branch.`, 160)).toBe(true);
	});

	it("tells the model a message's material is never the user's rule", () => {
		expect(diffPrompt(base).system).toContain(`a message's "material" (what pi put into it`);
	});

	it("gives the summarizer the definition of a rule the evaluation's judge is given, on a line of its own", () => {
		expect(diffPrompt(base).system).toContain(`\n${RULE_DEFINITION}\n- "one-off" or "not a rule": a request`);
	});
});

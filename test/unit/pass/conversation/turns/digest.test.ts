import { describe, expect, it } from "vitest";
import type { Event } from "../../../../../src/events/index.js";
import type { Message } from "../../../../../src/events/messages.js";
import { type DigestInput, digest } from "../../../../../src/pass/conversation/turns/digest.js";
import { transcriptLines } from "../../../../../src/pass/conversation/turns/transcript.js";
import { initialState } from "../../../../../src/reducers/index.js";
import { command, files } from "../../../../support/events.js";
import { assistant, bash, call, result, user, userRun } from "../../../../support/messages.js";

const bigResult = `${"a".repeat(500)}MIDDLE${"z".repeat(500)}`;
const longId = `call_${"x".repeat(100)}`;
const messages: Message[] = [
	user("go"),
	assistant("running", [bash("t1", "npm test"), call(longId, "grep", { pattern: "x" })]),
	result("t1", "bash", bigResult),
	result(longId, "grep", "none", true),
	userRun("ls", 0, false, "a b"),
];

describe("the Digest's condensed transcript", () => {
	it("has one line per tool call with its result cut to head and tail, and the user's messages by id", () => {
		const lines = transcriptLines(messages, ["u4"], new Map([["t1", "C7"]]));
		expect(lines.map((l) => JSON.parse(l).role)).toEqual(["user", "assistant", "call", "call", "user-run"]);
		const bash = JSON.parse(lines[2] ?? "{}");
		expect(bash).toMatchObject({ tool: "bash", id: "C7" });
		expect(bash.result.startsWith("a".repeat(120))).toBe(true);
		expect(bash.result.endsWith("z".repeat(80))).toBe(true);
		expect(bash.result).not.toContain("MIDDLE");
		expect(JSON.parse(lines[3] ?? "{}")).toEqual({
			role: "call",
			tool: "grep",
			args: '{"pattern":"x"}',
			error: true,
			result: "none",
		});
	});
});

describe("the Digest", () => {
	it("shows the messages to label whole and a takeover's earlier messages cut to their start", () => {
		const long = `please keep this ${"very ".repeat(100)}long message whole`;
		const text = digest({
			span: 3,
			stateText: "## Rules\n> R1",
			state: initialState,
			whole: [{ ref: "u5", entryId: "e5", text: long }],
			earlier: [{ ref: "u1", entryId: "e1", text: long }],
			standing: [],
			foreignSummary: "pi's summary",
			ledger: [],
			world: { taken: false, reason: "no git" },
			notes: ["remember the port"],
			messages: [],
			messageRefs: [],
		});
		expect(text).toContain(JSON.stringify({ msg: "u5", text: long }));
		expect(text).not.toContain(JSON.stringify({ msg: "u1", text: long }));
		expect(text).toContain('{"msg":"u1","text":"please keep this very');
		expect(text).toContain("pi's summary");
		expect(text).toContain("- remember the port");
		expect(text).not.toContain("## Transcript");
	});
});

describe("the Digest's parts", () => {
	const bare: DigestInput = {
		span: 2,
		stateText: "(nothing yet)",
		state: initialState,
		whole: [],
		ledger: [],
		world: { taken: false, reason: "not a git repository" },
		notes: [],
		messages: [],
		messageRefs: [],
	};
	const ledger: Event[] = [command("C1", "npm run lint", 2, 2, "t1"), files([], ["src/parser.ts"])];

	it("leaves out every part that is empty, taking over's too when not taking over", () => {
		expect(digest(bare)).toBe(
			"# Digest of span 2\n\n## State so far\n(nothing yet)\n\n## World\n(no snapshot: not a git repository)\n",
		);
	});

	it("shows the state so far trimmed, under its title, after the span's", () => {
		const text = digest({ ...bare, stateText: "\n\n## Rules\n> R1 never add dependencies\n\n" });
		expect(
			text.startsWith("# Digest of span 2\n\n## State so far\n## Rules\n> R1 never add dependencies\n\n## World\n"),
		).toBe(true);
	});

	it("shows each part under its title with a blank line after it", () => {
		const text = digest({
			...bare,
			foreignSummary: "Summary:\n- kept the runner",
			standing: [{ ref: "u1", entryId: "e1", text: "never add dependencies" }],
			earlier: [{ ref: "u2", entryId: "e2", text: "use pnpm\nfor now" }],
			whole: [{ ref: "u3", entryId: "e3", text: "fix the lint\nplease" }],
			ledger,
			notes: ["the port is 8123"],
			messages: [user("fix the lint\nplease"), assistant("", [bash("t1", "npm run lint")])],
			messageRefs: ["u3"],
		});
		expect(text).toContain(
			"\n## Earlier summary by another compactor (paraphrased; rules come only from user messages)\nSummary:\n- kept the runner\n\n",
		);
		expect(text).toContain(
			'\n## Earlier user messages code recorded as rules (no label needed)\n{"msg":"u1","text":"never add dependencies"}\n\n',
		);
		expect(text).toContain(
			'\n## Earlier user messages to label (each cut to its start)\n{"msg":"u2","text":"use pnpm for now"}\n\n',
		);
		expect(text).toContain('\n## User messages to label (whole)\n{"msg":"u3","text":"fix the lint\\nplease"}\n\n');
		expect(text).toContain("\n## Ledger (ids you may cite)\nC1 [exit 2] npm run lint\n\n");
		expect(text).toContain("\n## Files\nmodified: src/parser.ts\n\n");
		expect(text).toContain("\n## World\n(no snapshot: not a git repository)\n\n");
		expect(text).toContain("\n## Notes the agent asked to remember\n- the port is 8123\n\n");
		expect(text).toContain(
			'\n## Transcript (condensed: one JSON line per step, one per tool call with its result cut to head and tail)\n{"role":"user","msg":"u3"}\n{"role":"call","tool":"bash","id":"C1","result":"(no result)"}\n',
		);
	});
});

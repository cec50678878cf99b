import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../../src/adapters/redact/index.js";
import { redactedSpan, type ShownSpan } from "../../../../src/adapters/redact/span.js";
import { assistant, call, result, user, userRun } from "../../../support/messages.js";

/** A redact that records each batch and brackets every text, so where each text went can be read back. */
function recording() {
	const batches: string[][] = [];
	const redact = async (texts: readonly string[]) => {
		batches.push([...texts]);
		return texts.map((text) => `<${text}>`);
	};
	return { redact, batches };
}

const pushing = assistant("pushing now", [call("t1", "bash", { command: "git push", timeout: 60 })]);
const refused = result("t1", "bash", "fatal: bad credentials", true, { exit: 128 });
const env = userRun("env", 0, false, "PORT=5173");
const userMessage = user("push it");

const span: ShownSpan = {
	messages: [userMessage, pushing, refused, env],
	users: [{ ref: "u1", entryId: "e1", text: "push it" }],
	summary: "the user wants a release",
	notes: ["note one", "note two"],
};

describe("redactedSpan", () => {
	it("redacts every text a pass shows in one batch, in a fixed order", async () => {
		const { redact, batches } = recording();
		await redactedSpan(redact, span);
		expect(batches).toEqual([
			[
				"pushing now",
				"git push",
				"",
				"fatal: bad credentials",
				"env",
				"PORT=5173",
				"push it",
				"the user wants a release",
				"note one",
				"note two",
			],
		]);
	});

	it("puts each redacted text back where it stood and keeps every other field", async () => {
		const { redact } = recording();
		expect(await redactedSpan(redact, span)).toStrictEqual({
			messages: [
				userMessage,
				{
					role: "assistant",
					text: "<pushing now>",
					toolCalls: [{ id: "t1", name: "bash", arguments: { command: "<git push>", timeout: 60 } }],
					stopReason: "toolUse",
					errorMessage: "<>",
				},
				{
					role: "toolResult",
					toolCallId: "t1",
					toolName: "bash",
					text: "<fatal: bad credentials>",
					isError: true,
					details: { exit: 128 },
				},
				{ role: "bashExecution", command: "<env>", output: "<PORT=5173>", exitCode: 0, cancelled: false },
			],
			users: [{ ref: "u1", entryId: "e1", text: "<push it>" }],
			summary: "<the user wants a release>",
			notes: ["<note one>", "<note two>"],
		});
	});

	it("leaves the user's own message in the messages as it is, and a missing summary missing", async () => {
		const { redact, batches } = recording();
		const out = await redactedSpan(redact, { messages: [userMessage], users: [], summary: undefined, notes: [] });
		expect(batches).toEqual([[]]);
		expect(out).toStrictEqual({ messages: [userMessage], users: [], summary: undefined, notes: [] });
	});

	it("leaves a text as it was when redact gives back no text for it", async () => {
		const out = await redactedSpan(async () => ["<first>"], { ...span, messages: [], users: [] });
		expect(out.summary).toBe("<first>");
		expect(out.notes).toEqual(["note one", "note two"]);
	});

	it("replaces a token the user pasted, in the shown copy, and its copy in a command", async () => {
		const token = `ghp_${"aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"}`;
		const command = userRun(
			`git remote set-url origin https://x-access-token:${token}@github.com/acme/app.git`,
			0,
			false,
			"",
		);
		const out = await redactedSpan(createRedactor(true).redactAll, {
			messages: [command],
			users: [{ ref: "u1", entryId: "e1", text: `use GITHUB_TOKEN=${token}` }],
			summary: undefined,
			notes: [],
		});
		expect(out.users[0]?.text).toBe("use GITHUB_TOKEN=[redacted: github token]");
		expect(JSON.stringify(out.messages)).not.toContain(token.slice(4, 16));
	});
});

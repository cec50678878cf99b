import { type AssistantMessage, type Context, fauxAssistantMessage, fauxToolCall, Type } from "@mariozechner/pi-ai";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import {
	answerWithRecall,
	MAX_RECALL_ROUNDS,
	RECALL_SPENT,
	RECALL_TOOL,
	type RecallTool,
} from "../../../src/eval/recall-probe.js";

const Ref = t.type({ ref: t.string });

/** A recall tool that answers each ref it is given, and remembers the refs it ran. */
function tool(ran: string[]): RecallTool {
	return {
		name: RECALL_TOOL,
		label: "Recall",
		description: "recall",
		parameters: Type.Object({ ref: Type.String() }),
		execute: async (_id, params: unknown) => {
			const ref = Ref.decode(params);
			if (E.isLeft(ref)) throw new Error("no ref");
			ran.push(ref.right.ref);
			return { content: [{ type: "text", text: `detail of ${ref.right.ref}` }], details: {} };
		},
	};
}

const question: Context = { systemPrompt: "s", messages: [{ role: "user", content: "probe", timestamp: 0 }] };

function texts(context: Context): string[] {
	return context.messages.flatMap((m) => {
		if (m.role === "assistant") return [];
		if (typeof m.content === "string") return [m.content];
		return m.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
	});
}

/** The probe against a model that gives `replies` in turn: the contexts it was sent, the refs that ran, the answer. */
async function probeWith(replies: AssistantMessage[]) {
	const seen: Context[] = [];
	const ran: string[] = [];
	const answer = await answerWithRecall(
		async (context) => {
			seen.push(context);
			return replies.shift() ?? fauxAssistantMessage("(none left)");
		},
		question,
		tool(ran),
	);
	return { seen, ran, answer };
}

describe("the probe with longhaul_recall", () => {
	it("runs the calls, sends their answers back, and the reply without calls is the answer", async () => {
		const replies: AssistantMessage[] = [
			fauxAssistantMessage([fauxToolCall(RECALL_TOOL, { ref: "C1" }, { id: "t1" })], { stopReason: "toolUse" }),
			fauxAssistantMessage("RULES: none\nVALUES: port 8787"),
		];
		const { seen, ran, answer } = await probeWith(replies);
		expect(ran).toEqual(["C1"]);
		expect(answer.recalls).toBe(1);
		expect(answer.reply.content).toEqual([{ type: "text", text: "RULES: none\nVALUES: port 8787" }]);
		expect(seen[0]?.tools?.map((t) => t.name)).toEqual([RECALL_TOOL]);
		expect(texts(seen[1] ?? question)).toEqual(["probe", "detail of C1"]);
	});

	it(`stops after ${MAX_RECALL_ROUNDS} rounds: a model that keeps calling gets told to answer, and its next calls do not run`, async () => {
		const seen: Context[] = [];
		const ran: string[] = [];
		let n = 0;
		const answer = await answerWithRecall(
			async (context) => {
				seen.push(context);
				n++;
				return fauxAssistantMessage([fauxToolCall(RECALL_TOOL, { ref: `C${n}` }, { id: `t${n}` })], {
					stopReason: "toolUse",
				});
			},
			question,
			tool(ran),
		);
		expect(ran).toEqual(["C1", "C2", "C3"]);
		expect(seen).toHaveLength(MAX_RECALL_ROUNDS + 1);
		expect(answer.recalls).toBe(MAX_RECALL_ROUNDS);
		expect(texts(seen.at(-1) ?? question).at(-1)).toBe(RECALL_SPENT);
		expect(texts(seen.at(-2) ?? question)).not.toContain(RECALL_SPENT);
	});

	it("a call with bad arguments or to another tool gets an error result, and nothing runs, whatever the stop reason", async () => {
		const replies: AssistantMessage[] = [
			fauxAssistantMessage(
				[fauxToolCall(RECALL_TOOL, { id: "C1" }, { id: "t1" }), fauxToolCall("bash", { command: "ls" }, { id: "t2" })],
				// Some local servers end a reply with calls as "stop": the calls are answered all the same.
				{ stopReason: "stop" },
			),
			fauxAssistantMessage("NEXT: deploy"),
		];
		const { seen, ran, answer } = await probeWith(replies);
		expect(ran).toEqual([]);
		expect(answer.recalls).toBe(1);
		const results = (seen[1]?.messages ?? []).flatMap((m) => (m.role === "toolResult" ? [m] : []));
		expect(results.map((r) => [r.toolCallId, r.isError])).toEqual([
			["t1", true],
			["t2", true],
		]);
		expect(texts(seen[1] ?? question)).toContain("No tool bash here; only longhaul_recall.");
	});
});

describe("a failed probe reply", () => {
	it("ends the probe: its calls are not run", async () => {
		const ran: string[] = [];
		const answer = await answerWithRecall(
			async () =>
				fauxAssistantMessage([fauxToolCall(RECALL_TOOL, { ref: "C1" }, { id: "t1" })], {
					stopReason: "error",
					errorMessage: "offline",
				}),
			question,
			tool(ran),
		);
		expect(ran).toEqual([]);
		expect(answer.reply.stopReason).toBe("error");
	});
});

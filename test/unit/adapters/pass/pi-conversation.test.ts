import { type Context, fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@mariozechner/pi-ai";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type Registry, summarizerModel } from "../../../../src/adapters/pass/pi-model.js";
import { SHOW_TOOL } from "../../../../src/pass/conversation/turns/show.js";

const faux = registerFauxProvider({ provider: "faux-turns" });
afterEach(() => faux.setResponses([]));
afterAll(() => faux.unregister());

const registry: Registry = {
	find: () => undefined,
	getApiKeyAndHeaders: async () => ({ ok: true }),
};

function userTexts(context: Context): string[] {
	return context.messages.flatMap((m) =>
		m.role === "user"
			? [typeof m.content === "string" ? m.content : m.content.map((c) => (c.type === "text" ? c.text : "")).join("")]
			: [],
	);
}

describe("the pi-ai summarizer as a conversation", () => {
	it("offers the show tool, keeps the history, and sends the model's own replies back with the tool answers", async () => {
		const contexts: Context[] = [];
		faux.setResponses([
			(context) => {
				contexts.push(structuredClone(context));
				return fauxAssistantMessage([fauxToolCall("show", { ref: "u1" }, { id: "call-1" })], { stopReason: "toolUse" });
			},
			(context) => {
				contexts.push(structuredClone(context));
				return fauxAssistantMessage('{"narrative": "did it"}');
			},
		]);
		const chosen = await summarizerModel(faux.getModel(), registry, undefined);
		const model = chosen.kind === "model" ? chosen.model : undefined;
		const conversation = model?.converse?.("the system", [SHOW_TOOL]);
		if (conversation === undefined) throw new Error("no conversation");
		const signal = new AbortController().signal;
		const first = await conversation.send({ kind: "text", text: "turn 1" }, 1000, signal);
		expect(first.reply).toMatchObject({
			stopReason: "toolUse",
			toolCalls: [{ id: "call-1", name: "show", arguments: { ref: "u1" } }],
		});
		const second = await first.next.send(
			{ kind: "tool-answers", answers: [{ id: "call-1", name: "show", text: "u1: hello", refused: false }] },
			1000,
			signal,
		);
		expect(second.reply).toMatchObject({ text: '{"narrative": "did it"}', stopReason: "stop", toolCalls: [] });
		const [asked, answered] = contexts;
		expect(asked?.systemPrompt).toBe("the system");
		expect(asked?.tools?.map((t) => t.name)).toEqual(["show"]);
		expect(asked?.tools?.[0]?.parameters).toMatchObject({ properties: { ref: { type: "string" } } });
		expect(answered?.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(answered?.messages[2]).toMatchObject({ toolCallId: "call-1", toolName: "show", isError: false });
	});

	it("leaves a conversation as it was: a send from it again starts from the same history", async () => {
		const contexts: Context[] = [];
		const answer = (context: Context) => {
			contexts.push(structuredClone(context));
			return fauxAssistantMessage("ok");
		};
		faux.setResponses([answer, answer, answer]);
		const chosen = await summarizerModel(faux.getModel(), registry, undefined);
		const model = chosen.kind === "model" ? chosen.model : undefined;
		const conversation = model?.converse?.("s", [SHOW_TOOL]);
		if (conversation === undefined) throw new Error("no conversation");
		const signal = new AbortController().signal;
		const one = await conversation.send({ kind: "text", text: "a" }, 100, signal);
		await one.next.send({ kind: "text", text: "b" }, 100, signal);
		await conversation.send({ kind: "text", text: "c" }, 100, signal);
		expect(contexts.map(userTexts)).toEqual([["a"], ["a", "b"], ["c"]]);
	});
});

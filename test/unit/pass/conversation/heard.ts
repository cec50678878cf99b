import type {
	Ask,
	ConversationState,
	ConversationStep,
	Heard,
	Reply,
} from "../../../../src/pass/conversation/index.js";

// What the driver hears back, written as the tests' "when": a text reply, a show(ref) call, a call that threw.

/** A text reply at `at` on the pass's clock. */
export const reply = (text: string, at = 1, more: Partial<Reply> = {}): Heard => ({
	kind: "reply",
	reply: { text, stopReason: "stop", inputTokens: 100, outputTokens: 10, toolCalls: [], ...more },
	at,
	ms: 1,
});

/** A reply that only calls `show` once per ref. */
export const showCall = (refs: readonly string[], at = 1): Heard =>
	reply("", at, {
		stopReason: "toolUse",
		toolCalls: refs.map((ref) => ({ id: `call-${ref}`, name: "show", arguments: { ref } })),
	});

export function sendOf(step: ConversationStep): Extract<Ask, { kind: "send" }> {
	if (step.kind !== "ask" || step.ask.kind !== "send") throw new Error(`expected a send, got ${step.kind}`);
	return step.ask;
}

export function callOf(step: ConversationStep): Extract<Ask, { kind: "call" }> {
	if (step.kind !== "ask" || step.ask.kind !== "call") throw new Error(`expected a call, got ${step.kind}`);
	return step.ask;
}

/** The text an ask sends: a send's text input or a call's prompt. */
export function textOf(step: ConversationStep): string {
	if (step.kind !== "ask") return "";
	const { ask } = step;
	if (ask.kind === "call") return ask.prompt;
	return ask.input.kind === "text" ? ask.input.text : "";
}

export function doneConversation(step: ConversationStep): ConversationState {
	if (step.kind !== "done") throw new Error("expected the conversation done");
	return step.conversation;
}

// The summarizer seen through the redactor: what the pass sends a model leaves Longhaul, so it is redacted first.

import type { ConversationInput } from "../../pass/conversation/index.js";
import type { Redactor } from "../redact/index.js";
import type { Conversation, PassModel } from "./model.js";

async function redactedInput(redactor: Redactor, input: ConversationInput): Promise<ConversationInput> {
	if (input.kind === "text") return { kind: "text", text: await redactor.redact(input.text) };
	const texts = await redactor.redactAll(input.answers.map((a) => a.text));
	return { kind: "tool-answers", answers: input.answers.map((a, i) => ({ ...a, text: texts[i] ?? a.text })) };
}

function redactedConversation(redactor: Redactor, conversation: Conversation): Conversation {
	return {
		send: async (input, maxTokens, signal) => {
			const step = await conversation.send(await redactedInput(redactor, input), maxTokens, signal);
			return { ...step, next: redactedConversation(redactor, step.next) };
		},
	};
}

/**
 * The summarizer with everything sent to it redacted: the diff prompt (ledger lines, transcript, values, the earlier
 * summary of a takeover), retry notes, and in turns mode every message and tool answer. The summarizer route may be
 * another provider than the session's, so nothing is sent it did not need.
 */
export function redactingModel(model: PassModel | undefined, redactor: Redactor): PassModel | undefined {
	if (model === undefined) return undefined;
	const converse = model.converse;
	return {
		...model,
		call: async (request, signal) => {
			const [system = request.system, prompt = request.prompt] = await redactor.redactAll([
				request.system,
				request.prompt,
			]);
			return model.call({ ...request, system, prompt }, signal);
		},
		...(converse === undefined
			? {}
			: {
					converse: (system, tools) => {
						let redacted: Promise<Conversation> | undefined;
						const opened = () => {
							redacted ??= redactor.redact(system).then((s) => redactedConversation(redactor, converse(s, tools)));
							return redacted;
						};
						return { send: async (input, maxTokens, signal) => (await opened()).send(input, maxTokens, signal) };
					},
				}),
	};
}

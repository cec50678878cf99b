import type { ConversationInput } from "../../pass/conversation/index.js";
import type { Conversation, PassModel } from "../pass/model.js";
import type { Redactor } from "./redactor.js";

/** The title of the summary's rules section (src/projections/summary.ts), which holds only the user's own words. */
const RULES_TITLE = "## Rules in force\n";

/**
 * A rendered summary or state view with its secrets replaced, but for the rules: a rule stays the user's own words,
 * verbatim (the user wrote it and the model has seen it). No other section can draw a rules heading into the text,
 * since the renderer puts every other text on one line behind a prefix of its own.
 */
export async function redactRendered(redactor: Redactor, text: string): Promise<string> {
	const start = text.startsWith(RULES_TITLE) ? 0 : text.indexOf(`\n${RULES_TITLE}`);
	if (start < 0) return redactor.redact(text);
	const end = text.indexOf("\n## ", start + RULES_TITLE.length);
	const rules = end < 0 ? text.slice(start) : text.slice(start, end);
	const [before = "", after = ""] = await redactor.redactAll([text.slice(0, start), end < 0 ? "" : text.slice(end)]);
	return `${before}${rules}${after}`;
}

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

import type { Message, UserMessage } from "../../events/index.js";
import { mapStrings } from "./json.js";

/** What a pass shows of a span, as the pure pass would cut it: its messages, the user's, a summary, the notes. */
export interface ShownSpan {
	readonly messages: readonly Message[];
	readonly users: readonly UserMessage[];
	readonly summary: string | undefined;
	readonly notes: readonly string[];
}

/** Collects texts into one batch and hands back, in the same order, what the batch made of each. */
function batch() {
	const texts: string[] = [];
	let results: readonly string[] = [];
	let next = 0;
	return {
		texts,
		put: (text: string): string => {
			texts.push(text);
			return text;
		},
		done: (redacted: readonly string[]) => {
			results = redacted;
		},
		take: (text: string): string => results[next++] ?? text,
	};
}

/** The message with each of its texts passed through `f`, in one fixed order: the user's own text is left as it is. */
function mapMessage(m: Message, f: (text: string) => string): Message {
	if (m.role === "user") return m;
	if (m.role === "assistant")
		return {
			...m,
			text: f(m.text),
			toolCalls: m.toolCalls.map((call) => ({ ...call, arguments: mapStrings(call.arguments, f) })),
			errorMessage: f(m.errorMessage),
		};
	if (m.role === "toolResult") return { ...m, text: f(m.text) };
	return { ...m, command: f(m.command), output: f(m.output) };
}

/**
 * The span with its secrets replaced in each whole text before anything cuts it (SECURITY-NOTES: a cut must not
 * leave a piece of a secret no rule can tell from a path): tool output, commands and tool arguments, error and
 * assistant texts, the summary taken over, the notes, and the user's messages as they are shown (the state keeps the
 * user's own bytes; this copy is only for the prompt). One batch, so one lint.
 */
export async function redactedSpan(
	redact: (texts: readonly string[]) => Promise<string[]>,
	span: ShownSpan,
): Promise<ShownSpan> {
	const b = batch();
	for (const m of span.messages) mapMessage(m, b.put);
	for (const u of span.users) b.put(u.text);
	if (span.summary !== undefined) b.put(span.summary);
	for (const n of span.notes) b.put(n);
	b.done(await redact(b.texts));
	const messages = span.messages.map((m) => mapMessage(m, b.take));
	const users = span.users.map((u) => ({ ...u, text: b.take(u.text) }));
	const summary = span.summary === undefined ? undefined : b.take(span.summary);
	return { messages, users, summary, notes: span.notes.map(b.take) };
}

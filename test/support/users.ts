import type { UserMessage } from "../../src/events/messages.js";
import type { AcceptContext } from "../../src/pass/accept/accept.js";
import { initialState } from "../../src/reducers/index.js";

// The user's messages of a span as the pass reads them, and the context acceptance judges an answer in.

/** User message `u<n>` on entry `e<n>`, saying `text`. */
export function userMessage(n: number, text: string): UserMessage {
	return { ref: `u${n}`, entryId: `e${n}`, text };
}

/** User messages `u1`, `u2`, … on entries `e1`, `e2`, …, one a text. */
export function users(texts: readonly string[]): UserMessage[] {
	return texts.map((text, i) => userMessage(i + 1, text));
}

/**
 * The context of a first pass over `texts`: every message to label, no rule in force, each turn's text its user's
 * message, an empty ledger; `over` changes any of it.
 */
export function acceptContext(texts: readonly string[], over: Partial<AcceptContext> = {}): AcceptContext {
	const branch = users(texts);
	return {
		state: initialState,
		span: 1,
		toLabel: branch,
		branch,
		turnText: (ref) => texts[Number(ref.slice(1)) - 1],
		ledger: new Set(),
		...over,
	};
}

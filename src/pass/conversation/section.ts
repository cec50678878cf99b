import type { Purpose } from "./exchange.js";

/** What a section hears of one ask: the model's text and why it stopped, or why no text came. */
export type SectionHeard =
	| { readonly kind: "text"; readonly text: string; readonly stopReason: string }
	| { readonly kind: "failed"; readonly reason: string };

/** A section's next ask: its text, and the output budget when the section sets its own (single mode's raise). */
export interface SectionAsk {
	readonly purpose: Purpose;
	readonly text: string;
	readonly maxTokens?: number;
}

/** How a section judged the text it heard, for the trace of that call (and of its turn). */
export interface Judged {
	readonly outcome: "answer" | "defects" | "unreadable";
	readonly codes: readonly string[];
}

/** A section's step: ask again (with its state), or done (with its result); `judged` is set after a text. */
export type SectionStep<S, R> =
	| { readonly kind: "ask"; readonly state: S; readonly ask: SectionAsk; readonly judged?: Judged }
	| { readonly kind: "done"; readonly result: R; readonly judged?: Judged };

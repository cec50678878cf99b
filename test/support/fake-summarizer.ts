import { lastUserText, type ModelCall } from "./pi-harness.js";

/** A message the diff prompt asks to label. */
interface Shown {
	readonly msg: string;
	readonly text: string;
}

/** The messages a Longhaul diff prompt lists under "Messages to label". */
export function shownMessages(prompt: string): Shown[] {
	const shown: Shown[] = [];
	for (const line of prompt.split("\n")) {
		if (!line.startsWith('{"msg":"u')) continue;
		const value: unknown = JSON.parse(line);
		if (typeof value === "object" && value !== null && "msg" in value && "text" in value) {
			const { msg, text } = value;
			if (typeof msg === "string" && typeof text === "string") shown.push({ msg, text });
		}
	}
	return shown;
}

/** True for a request that is Longhaul's diff call. */
export function isDiffCall(call: ModelCall): boolean {
	return lastUserText(call).includes("## Messages to label") || lastUserText(call).startsWith("# Span ");
}

/**
 * How a careful model answers a Longhaul diff prompt: a message with "never" or "always" is a rule, one that holds a
 * key of `lifts` lifts the rule in force it names by `R<n>`, the rest are not.
 */
export function carefulAnswer(prompt: string, lifts: Readonly<Record<string, string>> = {}): string {
	const labels = shownMessages(prompt).map(({ msg, text }) => {
		const lift = Object.entries(lifts).find(([needle]) => text.includes(needle));
		if (lift !== undefined) return { msg, label: `lifts ${lift[1]}` };
		return { msg, label: /\b(never|always)\b/i.test(text) ? "rule" : "not a rule" };
	});
	return JSON.stringify({ labels, narrative: `labeled ${labels.length} messages`, now: "carry on with the work" });
}

/** A stand-in summarizer in the harness that answers Longhaul's diff as {@link carefulAnswer} does. */
export function labeler(lifts: Readonly<Record<string, string>> = {}) {
	return (call: ModelCall): string => carefulAnswer(lastUserText(call), lifts);
}

import type { ContextEvent } from "@mariozechner/pi-coding-agent";

type AgentMessage = ContextEvent["messages"][number];

/** What the strip left out of one context. */
export interface Stripped {
	readonly messages: AgentMessage[];
	readonly blocks: number;
	readonly chars: number;
}

/**
 * Leaves out the reasoning of assistant messages that came before the compaction point (`cutoffMs`): they sit in
 * the kept window, their thinking was for turns already summarized. Messages after the compaction keep theirs.
 */
export function stripKeptWindow(messages: readonly AgentMessage[], cutoffMs: number): Stripped {
	let blocks = 0;
	let chars = 0;
	const out = messages.map((message) => {
		if (message.role !== "assistant" || message.timestamp >= cutoffMs) return message;
		const kept = message.content.filter((block) => {
			if (block.type !== "thinking") return true;
			blocks++;
			chars += block.thinking.length;
			return false;
		});
		return kept.length === message.content.length ? message : { ...message, content: kept };
	});
	return { messages: out, blocks, chars };
}

import type { BranchEntry } from "./harness-parts.js";

/** The text of every `longhaul_recall` result on a branch, in order. */
export function recallResults(branch: readonly BranchEntry[]): string[] {
	return branch.flatMap((e) => {
		if (e.type !== "message" || e.message.role !== "toolResult" || e.message.toolName !== "longhaul_recall") return [];
		return [e.message.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n")];
	});
}

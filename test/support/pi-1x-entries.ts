import type { SessionEntry } from "@mariozechner/pi-coding-agent";
import type { BranchEntry, LaterEntry } from "./harness-parts.js";

// pi 1.x's branch entries as the tests read them: the kinds pi 0.73 also writes keep the shape pi 0.73's types give
// them (pi 1.x only added optional fields, e.g. a compaction's `usage`), and the kinds 1.x added (`usage` from
// 0.81, `context_edit` from 0.87) are typed as later entries. The objects are pi's own, passed on unchanged.

const KINDS_073: ReadonlySet<string> = new Set([
	"message",
	"thinking_level_change",
	"model_change",
	"compaction",
	"branch_summary",
	"custom",
	"custom_message",
	"label",
	"session_info",
]);
const LATER_KINDS: ReadonlySet<string> = new Set(["usage", "context_edit"]);

function kindOf(u: unknown): string | undefined {
	if (typeof u !== "object" || u === null || !("type" in u) || !("id" in u)) return undefined;
	return typeof u.type === "string" && typeof u.id === "string" ? u.type : undefined;
}

function isEntry073(u: unknown): u is SessionEntry {
	const kind = kindOf(u);
	return kind !== undefined && KINDS_073.has(kind);
}

function isLaterEntry(u: unknown): u is LaterEntry {
	const kind = kindOf(u);
	return kind !== undefined && LATER_KINDS.has(kind);
}

/** The branch typed for the tests; an entry of a kind neither list names stops the test, naming its kind. */
export function branchEntries(entries: readonly unknown[]): BranchEntry[] {
	return entries.map((entry) => {
		if (isEntry073(entry) || isLaterEntry(entry)) return entry;
		throw new Error(`harness: pi 1.x wrote an entry of a kind the harness does not know: ${kindOf(entry) ?? "none"}`);
	});
}

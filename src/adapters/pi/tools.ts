import { Type } from "@mariozechner/pi-ai";
import { defineTool, type ExtensionAPI, type ExtensionContext } from "@mariozechner/pi-coding-agent";
import { EVENT_ENTRY_TYPE, encodeEvent, entriesFromObjects, STATE_FORMAT } from "../../events/index.js";
import { MAX_NOTE_CHARS, noteRefusal, rememberedNote } from "../../pass/decide/index.js";
import { foldBranch, foldEntries } from "../../reducers/index.js";
import { recallAnswer, recallDetail } from "../recall/by-ref.js";
import { compactedIndex } from "../recall/kept-index.js";
import { searchIndex } from "../recall/search.js";
import type { Redactor } from "../redact/index.js";

/** What `longhaul_recall` answers when given both of ref and query, or neither. Exported for tests. */
export const ONE_OF =
	"Give longhaul_recall exactly one of ref (an id such as C7 or R3, or a span number) or query (words to search the compacted history).";

function text(value: string) {
	return { content: [{ type: "text" as const, text: value }], details: {} };
}

function foldedBranch(ctx: ExtensionContext) {
	return foldEntries(ctx.sessionManager.getBranch());
}

/**
 * `longhaul_remember` and `longhaul_recall` (docs/contracts.md, Inside pi). Recall redacts each whole text it answers
 * from with the project's redactor before it cuts anything, so no cut shows a piece of a secret.
 */
export function registerTools(pi: ExtensionAPI, redactorFor: (cwd: string) => Redactor): void {
	pi.registerTool(
		defineTool({
			name: "longhaul_remember",
			label: "Remember",
			description:
				"Keep a short note through every later compaction (a finding, a value, a decision's reason). " +
				"The note is stored as N<n> in the session's state and handed to the next compaction.",
			promptSnippet: "Keep a short note through compactions",
			promptGuidelines: [
				"Use longhaul_remember for a fact a later turn will need after the context is compacted; keep the note short.",
			],
			parameters: Type.Object({ note: Type.String({ description: `The note, at most ${MAX_NOTE_CHARS} characters` }) }),
			async execute(_id, params, _signal, _update, ctx) {
				const note = params.note.trim();
				const refused = noteRefusal(note);
				if (refused !== undefined) return text(refused);
				const { state } = foldedBranch(ctx);
				const event = rememberedNote(state, note);
				pi.appendEntry(EVENT_ENTRY_TYPE, {
					stateFormat: STATE_FORMAT,
					seq: state.lastSeq + 1,
					event: encodeEvent(event),
				});
				return text(`Remembered as ${event.data.id}.`);
			},
		}),
	);
	pi.registerTool(
		defineTool({
			name: "longhaul_recall",
			label: "Recall",
			description:
				"Read what compaction removed from your context, changing nothing. ref: the detail behind a span number or " +
				"an id (R, u, C with what the command printed, E, D, X, N). query: a ranked search of the compacted " +
				"messages and tool outputs. Give exactly one.",
			promptSnippet: "Read what compaction removed, by ref (C7, R3, u12, span 4) or by query",
			promptGuidelines: [
				"Use longhaul_recall with ref for an id or span the compacted state cites (C<n> also gives what the command printed), with query for anything from before the compaction that the summary does not show.",
			],
			parameters: Type.Object({
				ref: Type.Optional(Type.String({ description: "A span number or an id such as R3, u12, C7" })),
				query: Type.Optional(Type.String({ description: "Words to search the compacted history for" })),
			}),
			async execute(_id, params, _signal, _update, ctx) {
				const ref = params.ref?.trim() ?? "";
				const query = params.query?.trim() ?? "";
				if ((ref === "") === (query === "")) return text(ONE_OF);
				const redactor = redactorFor(ctx.cwd);
				if (ref !== "") return text(recallAnswer(await redactor.redact(recallDetail(ref, foldedBranch(ctx)))));
				const branch = entriesFromObjects(ctx.sessionManager.getBranch());
				const index = compactedIndex(branch.entries, () => foldBranch(branch.entries, branch.anomalies));
				return text(await searchIndex(query, index, redactor));
			},
		}),
	);
}

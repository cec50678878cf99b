import { Type } from "@mariozechner/pi-ai";
import { defineTool, type ExtensionAPI, type ExtensionContext } from "@mariozechner/pi-coding-agent";
import { EVENT_ENTRY_TYPE, STATE_FORMAT } from "../../events/entries.js";
import { type Event, encodeEvent } from "../../events/event.js";
import { userMessages } from "../../events/messages.js";
import { recall } from "../../projections/recall.js";
import { foldEntries } from "../../reducers/fold.js";
import type { Redactor } from "../redact/index.js";

/** The longest note `longhaul_remember` keeps; a longer one is refused, not cut, so nothing is half-kept. */
export const MAX_NOTE_CHARS = 1000;

function text(value: string) {
	return { content: [{ type: "text" as const, text: value }], details: {} };
}

function branchOf(ctx: ExtensionContext) {
	return foldEntries(ctx.sessionManager.getBranch());
}

/** `longhaul_remember` and `longhaul_recall` (SPEC 3.6); recall's answers pass the project's redactor. */
export function registerTools(pi: ExtensionAPI, redactorFor: (cwd: string) => Redactor): void {
	pi.registerTool(
		defineTool({
			name: "longhaul_remember",
			label: "Remember",
			description:
				"Keep a short note through every later compaction (a finding, a value, a decision's reason). " +
				"The note is stored as N<n> in the session's state and handed to the next compaction.",
			promptSnippet: "longhaul_remember: keep a short note through compactions",
			promptGuidelines: [
				"Use longhaul_remember for a fact a later turn will need after the context is compacted; keep the note short.",
			],
			parameters: Type.Object({ note: Type.String({ description: "The note, at most 1000 characters" }) }),
			async execute(_id, params, _signal, _update, ctx) {
				const note = params.note.trim();
				if (note === "") return text("Nothing remembered: the note is empty.");
				if (note.length > MAX_NOTE_CHARS)
					return text(`Nothing remembered: the note has ${note.length} characters, over ${MAX_NOTE_CHARS}.`);
				const { state } = branchOf(ctx);
				const event: Event = { type: "note-remembered", data: { text: note } };
				pi.appendEntry(EVENT_ENTRY_TYPE, {
					stateFormat: STATE_FORMAT,
					seq: state.lastSeq + 1,
					event: encodeEvent(event),
				});
				return text(`Remembered as N${state.next.N}.`);
			},
		}),
	);
	pi.registerTool(
		defineTool({
			name: "longhaul_recall",
			label: "Recall",
			description:
				"Read, without changing anything, the detail behind a ref in the compacted state: a span number, or an id " +
				"R<n> (rule), u<n> (user message), C<n> (command), E<n> (error), D<n>, X<n>, N<n>.",
			promptSnippet: "longhaul_recall: read the detail behind a ref of the compacted state (R3, u12, C7, E2, span 4)",
			promptGuidelines: [
				"Use longhaul_recall when the compacted state cites an id (R, u, C, E, D, X, N) or a span and you need its detail.",
			],
			parameters: Type.Object({ ref: Type.String({ description: "A span number or an id such as R3, u12, C7" }) }),
			async execute(_id, params, _signal, _update, ctx) {
				const folded = branchOf(ctx);
				const users = userMessages(folded.branch);
				const found = recall(params.ref, { state: folded.state, spanRecords: folded.spanRecords, users });
				return text(await redactorFor(ctx.cwd).redact(found));
			},
		}),
	);
}

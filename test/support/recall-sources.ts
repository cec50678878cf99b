import type { RecallSources } from "../../src/adapters/recall/by-ref.js";
import { foldTranscript } from "../../src/reducers/index.js";
import { type EntrySpec, place, transcriptText } from "./transcript.js";

/** What `longhaul_recall` reads (the folded state, span records and branch) of a test transcript of `specs`. */
export function recallSources(specs: readonly EntrySpec[]): RecallSources {
	const folded = foldTranscript(transcriptText(place(specs)));
	return { state: folded.state, spanRecords: folded.spanRecords, branch: folded.branch };
}

// The span: the messages pi's compaction removes, mapped to entries and u<n> refs (pi 0.73.1's cut where it must be
// derived), the messages carried from an earlier close, and the chunks a span too large for one call is cut into.
export { chunkCount, chunksOf, ledgerIds } from "./chunks.js";
export { PI_KEEP_RECENT_TOKENS, piCut } from "./cut.js";
export {
	derivedSpan,
	judgedUntil,
	keptBoundary,
	newestCompaction,
	preparedSpan,
	recordedSpan,
	type SpanBounds,
	type SpanEntries,
	type SpanSlice,
	sliceSpan,
} from "./span.js";

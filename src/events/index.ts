export { type Branch, branchOf } from "./branch.js";
export { type BranchEvents, branchEvents, type Located, type LocatedSpanRecord } from "./branch-events.js";
export { MAX_DEPTH } from "./depth.js";
export {
	type CompactionDetails,
	CompactionDetailsCodec,
	type CompactionLine,
	EVENT_ENTRY_TYPE,
	EventEntryCodec,
	type LabelRecord,
	LINE_ENTRY_TYPE,
	LineCodec,
	newerFormat,
	SPAN_ENTRY_TYPE,
	SPAN_RECORD_VERSION,
	type SpanRecord,
	SpanRecordCodec,
	STATE_FORMAT,
	type StoredEvent,
} from "./entries.js";
export {
	type CloseKind,
	CloseKindCodec,
	decodeEvent,
	type Event,
	type EventData,
	type EventOf,
	type EventType,
	encodeEvent,
	fixerOf,
} from "./event.js";
export { EvidenceId, idNumber, Positive, UserRef } from "./ids.js";
export { isRecord } from "./is-record.js";
export { leastFitting } from "./least-fitting.js";
export { type Links, type LinksScanner, lineLinks, linksScanner } from "./line-links.js";
export {
	contentText,
	decodeMessage,
	eachUserMessage,
	eachUserMessageAt,
	type Message,
	messageOf,
	type ToolCall,
	type UserMessage,
	userMessages,
	writtenAs,
} from "./messages.js";
export { ownWords } from "./own-words.js";
export {
	type Entry,
	entriesFromObjects,
	type Line,
	MAX_LINE_CHARS,
	READ_LIMITS,
	type ReadAnomaly,
	type ReadLimits,
	readLines,
	readTranscript,
	type Transcript,
	textLines,
} from "./transcript.js";
export {
	type Material,
	type MaterialKind,
	type Region,
	trimRegion,
	type UserText,
	userText,
} from "./user-text.js";
export { contentWords, readWithdrawal, WITHDRAWAL_PHRASES, type Withdrawing, withdrawsWords } from "./withdrawal.js";
export { looseAnchors, looseFinder, looseIndex, looseSearch, occurrences, onWordBoundaries } from "./words.js";
export { type World, WorldCodec } from "./world.js";

import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { fastCodec } from "./fast-codec.js";
import { Positive } from "./ids.js";

/** The state format this build reads and writes. */
export const STATE_FORMAT = 1;
/** The version of the span record this build reads and writes. */
export const SPAN_RECORD_VERSION = 1;

export const EVENT_ENTRY_TYPE = "compaction-state.event";
export const SPAN_ENTRY_TYPE = "compaction-state.span";
export const LINE_ENTRY_TYPE = "compaction-state.line";

/** An event as stored: its sequence number on the branch and the event itself (decoded on its own). */
const StoredEventCodec = t.strict({ seq: Positive, event: t.unknown });
export type StoredEvent = t.TypeOf<typeof StoredEventCodec>;

/** `compaction-state.event` custom entry data: one event written between passes. */
export const EventEntryCodec = t.strict({ stateFormat: t.literal(STATE_FORMAT), seq: Positive, event: t.unknown });

/** The `details` of a Longhaul compaction entry: the pass's accepted events in sequence order. */
export const CompactionDetailsCodec = fastCodec(
	t.strict({
		stateFormat: t.literal(STATE_FORMAT),
		longhaul: t.literal(true),
		span: Positive,
		events: t.array(StoredEventCodec),
	}),
);
export type CompactionDetails = t.TypeOf<typeof CompactionDetailsCodec>;

const LabelRecord = t.strict({ msg: t.string, label: t.string });
/** A user message's label as a pass accepted it: the span record keeps one per labeled message. */
export type LabelRecord = t.TypeOf<typeof LabelRecord>;
const CommandRecord = t.strict({ id: t.string, command: t.string, exitCode: t.union([t.number, t.null]) });
const ErrorRecord = t.strict({ id: t.string, tool: t.string, head: t.string });
const ValueRecord = t.strict({ name: t.string, value: t.string, source: t.string });
const ExcusedRecord = t.strict({ check: t.string, reason: t.string });
/** The entry ids of a span's first and last messages, as pi's preparation handed them to the pass. */
const BoundsRecord = t.strict({ first: t.string, last: t.string });

/** `compaction-state.span` custom entry data: the detail of one span, for `longhaul_recall`. */
export const SpanRecordCodec = t.intersection([
	t.strict({ v: t.literal(SPAN_RECORD_VERSION), span: Positive, compactionId: t.string }),
	t.exact(
		t.partial({
			labels: t.array(LabelRecord),
			bounds: BoundsRecord,
			commands: t.array(CommandRecord),
			errors: t.array(ErrorRecord),
			values: t.array(ValueRecord),
			chunks: t.number,
			calls: t.number,
			excused: t.array(ExcusedRecord),
		}),
	),
]);
export type SpanRecord = t.TypeOf<typeof SpanRecordCodec>;

/** `compaction-state.line` custom entry data: display only. */
export const LineCodec = t.union([
	t.strict({ stateFormat: t.literal(STATE_FORMAT), ms: t.number, span: Positive, calls: t.number, tokens: t.number }),
	t.strict({ stateFormat: t.literal(STATE_FORMAT), fallback: t.string }),
]);
export type CompactionLine = t.TypeOf<typeof LineCodec>;

/** Why data of a newer state format must not be read, or nothing when it may be. */
export function newerFormat(u: unknown): string | undefined {
	if (typeof u !== "object" || u === null || !("stateFormat" in u)) return undefined;
	const format = u.stateFormat;
	return typeof format === "number" && format > STATE_FORMAT
		? `stateFormat ${format} is newer than ${STATE_FORMAT}; refused`
		: undefined;
}

/** Decodes with a codec, naming what failed in one line. */
export function decodeWith<A>(codec: t.Decoder<unknown, A>, what: string, u: unknown): Either<string, A> {
	return E.mapLeft(() => `${what} failed its codec`)(codec.decode(u));
}

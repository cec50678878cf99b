import * as t from "io-ts";
import { CloseKindCodec, Positive } from "../../events/index.js";

// Records carry codes, ids, counts and lengths, never message text: a string field below holds a code (a reason,
// a kind, a model id, an entry id) or a path, except the opt-in `excerpts` and `stack`, which the writer drops
// unless the user turned them on.

/** A non-negative integer: a count, a length, a token number. */
const Count = new t.Type<number, number, unknown>(
	"Count",
	(u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0,
	(u, c) => (typeof u === "number" && Number.isSafeInteger(u) && u >= 0 ? t.success(u) : t.failure(u, c)),
	t.identity,
);

/** A non-negative duration in milliseconds (fractions allowed: timers give them). */
const Millis = new t.Type<number, number, unknown>(
	"Millis",
	(u): u is number => typeof u === "number" && Number.isFinite(u) && u >= 0,
	(u, c) => (typeof u === "number" && Number.isFinite(u) && u >= 0 ? t.success(u) : t.failure(u, c)),
	t.identity,
);

const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

/** The session a record belongs to: working directory, session id, the session's model and thinking level. */
const SessionProps = {
	cwd: t.string,
	sessionId: nullable(t.string),
	model: nullable(t.string),
	thinkingLevel: nullable(t.string),
};

/** An error as logged: its class and the head of its message, home as `~` (see `errorFields`). */
const ErrorProps = { errorClass: t.string, error: t.string };
/** The stack, present only when `PI_COMPACT_STATE_DEBUG_STACK=1`. */
const StackProps = t.partial({ stack: t.string });

const record = <E extends string, P extends t.Props>(event: E, props: P) =>
	t.strict({ event: t.literal(event), ...SessionProps, ...props });

/** The diff's side of a pass: how it closed, the model calls it made, and what they cost. */
const NarrativeCodec = t.strict({
	mode: t.keyof({ single: null, turns: null }),
	kind: CloseKindCodec,
	calls: Count,
	/** Events accepted from the model's answers. */
	accepted: Count,
	/** Items dropped by the code checks, counted by reason code. */
	dropped: t.record(t.string, Count),
	usage: t.strict({ input: Count, output: Count, cacheRead: Count, cacheWrite: Count }),
	/** Milliseconds spent per step (`ledger`, `world`, `prompt`, `diff`, `render`, …). */
	timings: t.record(t.string, Millis),
	/** The reasoning level asked for when the model cannot turn reasoning off; null when it was off. */
	reasoning: nullable(t.string),
});

/** The summarizer route: the configured spec, the model used, and why the configured route was not used. */
const RouteCodec = t.strict({
	configured: nullable(t.string),
	used: t.string,
	notUsed: nullable(t.string),
});

/** What the rendered summary lost to `summaryChars` (the `CapFit` of `renderSummary`). */
const CapFitCodec = t.strict({
	limit: Count,
	chars: Count,
	/** Items left out, by section (`CUT_ORDER` of src/projections/summary.ts). */
	cut: t.record(t.string, Count),
	/** The heading, the rules in force and Now alone: what no cut goes under. */
	rulesAndNowChars: Count,
	/** False only when the rules in force and Now alone pass the cap. */
	fits: t.boolean,
});

/** Whether the World snapshot was taken; never its text (commit subjects and file names are the user's). */
const WorldLogCodec = t.union([
	t.strict({ taken: t.literal(true), ms: Millis }),
	t.strict({ taken: t.literal(false), reason: t.string }),
]);

/** How much of the previous state the new one carried, counted by section. */
const CarriedCodec = t.strict({
	rules: Count,
	lifted: Count,
	decisions: Count,
	deadEnds: Count,
	notes: Count,
	values: Count,
	openErrors: Count,
	workLog: Count,
});

/** Rules the pass recorded whose words hold Unicode tag characters (hidden text), counted; present when there is one. */
const TaggedRulesProps = t.partial({ taggedRules: Count });

/** Pieces of the user's messages, present only when `PI_COMPACT_STATE_DEBUG_EXCERPTS=1`. */
const ExcerptsProps = t.partial({
	excerpts: t.strict({ rejectedQuotes: t.array(t.string), prunedPaths: t.array(t.string) }),
});

/** One codec per `event` of the log (docs/how-it-works.md, The log). */
const codecs = {
	/** pi loaded Longhaul, at startup or on a reload. */
	"extension-loaded": record("extension-loaded", {
		piVersion: t.string,
		/** `true` for an exact verified version, `"line"` for a verified release line. */
		piVersionVerified: t.union([t.boolean, t.literal("line")]),
	}),
	/** A pass finished. */
	compaction: t.intersection([
		record("compaction", {
			span: Positive,
			tokensBefore: Count,
			summaryChars: Count,
			narrative: NarrativeCodec,
			route: RouteCodec,
			capFit: CapFitCodec,
			world: WorldLogCodec,
			carried: CarriedCodec,
			durationMs: Millis,
		}),
		TaggedRulesProps,
		ExcerptsProps,
	]),
	/** pi wrote the compaction entry; `fromExtension` says whether the summary was Longhaul's. */
	compacted: record("compacted", {
		fromExtension: t.boolean,
		reason: t.string,
		span: nullable(Positive),
		summaryChars: Count,
		tokensBefore: Count,
	}),
	/** pi reported that the compaction failed. */
	"compact-failed": record("compact-failed", { reason: t.string, span: nullable(Positive) }),
	/** Old reasoning was first left out of a new kept window. */
	"kept-window-strip": record("kept-window-strip", {
		cutoff: t.string,
		strippedBlocks: Count,
		strippedChars: Count,
		contextMessages: Count,
	}),
	/** The span record could not be appended. */
	"span-record-failed": t.intersection([record("span-record-failed", { span: Positive, ...ErrorProps }), StackProps]),
	/** The Compaction line could not be appended. */
	"compaction-line-failed": t.intersection([record("compaction-line-failed", ErrorProps), StackProps]),
	/** The compaction was cancelled mid-pass. */
	aborted: t.intersection([record("aborted", { reason: t.string, ...ErrorProps }), StackProps]),
	/** The pass threw and pi's own compaction took over. */
	fallback: t.intersection([record("fallback", { reason: t.string, ...ErrorProps }), StackProps]),
} as const;

type Codecs = typeof codecs;
/** Every log event's name. */
export type LogEventName = keyof Codecs;
/** One log record as the writer takes it (the writer adds `ts`). */
export type LogRecord = { [K in LogEventName]: t.TypeOf<Codecs[K]> }[LogEventName];
/** The record of one event. */
export type LogRecordOf<K extends LogEventName> = t.TypeOf<Codecs[K]>;
/** The session fields every record carries. */
export type LogSession = t.TypeOf<t.TypeC<typeof SessionProps>>;

/** The codec of every log record. Exported for tests. */
export const LogRecordCodec = t.union([
	codecs["extension-loaded"],
	codecs.compaction,
	codecs.compacted,
	codecs["compact-failed"],
	codecs["kept-window-strip"],
	codecs["span-record-failed"],
	codecs["compaction-line-failed"],
	codecs.aborted,
	codecs.fallback,
]);

/** The names of all log events, in the order of the log's table (docs/how-it-works.md, The log). Exported for tests. */
export const logEventNames = Object.keys(codecs) as readonly LogEventName[];

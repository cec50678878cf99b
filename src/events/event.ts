import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { fastCodec } from "./fast-codec.js";
import {
	CommandId,
	DeadEndId,
	DecisionId,
	ErrorId,
	EvidenceId,
	NoteId,
	Positive,
	RuleId,
	UserRef,
	ValueSource,
} from "./ids.js";
import { WorldCodec } from "./world.js";

const Evidence = t.array(EvidenceId);
/** A decision may also cite the user message that stated it (a requirement the user gave for what is built). */
const DecisionEvidence = t.array(t.union([EvidenceId, UserRef]));
const ExitCode = t.union([t.number, t.null]);
/** How a pass ends: whole, narrative-less (no accepted answer) or partial (a chunk never verified). */
export const CloseKindCodec = t.union([t.literal("whole"), t.literal("narrative-less"), t.literal("partial")]);
/** How a pass ends (`CloseKindCodec`). */
export type CloseKind = t.TypeOf<typeof CloseKindCodec>;

/**
 * Data that may carry the id its producer decided (docs/contracts.md, Stored sessions and ids). Events stored before
 * ids were carried have none; the fold gives those the counter id it always gave them.
 */
function withId<P extends t.Props, I extends t.Mixed>(
	props: P,
	id: I,
): t.ExactC<t.IntersectionC<[t.TypeC<P>, t.PartialC<{ id: I }>]>> {
	return t.exact(t.intersection([t.type(props), t.partial({ id })]));
}

/** An event kind's codec: `{ type, data }`, strict, decoding fast where the value already has its shape. */
function event<P extends t.Props>(props: P): t.Type<t.TypeOf<t.ExactC<t.TypeC<P>>>, t.OutputOf<t.ExactC<t.TypeC<P>>>> {
	return fastCodec(t.strict(props));
}

/**
 * One codec per event kind: `{ type, data }`, data decoded strictly (unknown keys are dropped). Rules, decisions,
 * dead ends and notes may carry their id; commands and errors always do.
 */
const codecs = {
	/** A user's rule, in the user's own words, from the message `source`. */
	"rule-added": event({ type: t.literal("rule-added"), data: withId({ words: t.string, source: UserRef }, RuleId) }),
	/** A rule withdrawn by the user's message `by`; `target` is the rule's id or the message that gave it. */
	"rule-lifted": event({
		type: t.literal("rule-lifted"),
		data: t.strict({ target: t.union([RuleId, UserRef]), by: UserRef }),
	}),
	/** A decision taken in the span, with the ledger ids (or the user's message `u<n>`) that back it. */
	"decision-made": event({
		type: t.literal("decision-made"),
		data: withId({ text: t.string, evidence: DecisionEvidence }, DecisionId),
	}),
	/** An approach that failed and should not be tried again, with the ledger ids that show it. */
	"dead-end-found": event({
		type: t.literal("dead-end-found"),
		data: withId({ text: t.string, evidence: Evidence }, DeadEndId),
	}),
	/** A note the agent asked to keep through `longhaul_remember`. */
	"note-remembered": event({ type: t.literal("note-remembered"), data: withId({ text: t.string }, NoteId) }),
	/** A value a later turn may need, with the turn or command whose text holds it verbatim. */
	"value-recorded": event({
		type: t.literal("value-recorded"),
		data: t.strict({ name: t.string, value: t.string, source: ValueSource }),
	}),
	/** The session's objective, when it changed. */
	"objective-set": event({ type: t.literal("objective-set"), data: t.strict({ text: t.string }) }),
	/** The span's one line in the work log. */
	"narrative-line": event({
		type: t.literal("narrative-line"),
		data: t.strict({ span: Positive, text: t.string }),
	}),
	/** What is in progress and what comes next. */
	"now-set": event({ type: t.literal("now-set"), data: t.strict({ text: t.string }) }),
	/** A command the span ran (the bash tool's call, or the user's own `!` run), with its exit code when known. */
	"command-recorded": event({
		type: t.literal("command-recorded"),
		data: t.strict({
			id: CommandId,
			command: t.string,
			exitCode: ExitCode,
			span: Positive,
			toolCallId: t.union([t.string, t.null]),
			by: t.union([t.literal("tool"), t.literal("user")]),
		}),
	}),
	/**
	 * An error the span met: a failed tool result or a non-zero exit (events stored before `model-failed` also hold
	 * a model call that stopped with an error, as tool `model`). `path` is the file of an edit or write that failed.
	 */
	"error-recorded": event({
		type: t.literal("error-recorded"),
		data: t.exact(
			t.intersection([
				t.type({
					id: ErrorId,
					tool: t.string,
					head: t.string,
					span: Positive,
					command: t.union([CommandId, t.null]),
				}),
				t.partial({ path: t.string }),
			]),
		),
	}),
	/**
	 * An error fixed: by a later successful run of the same command (`by`), or, for an edit or write that failed, by a
	 * later successful edit or write (`byTool`) of the same `path`, which no command backs.
	 */
	"error-fixed": event({
		type: t.literal("error-fixed"),
		data: t.union([
			t.strict({ error: ErrorId, by: CommandId }),
			t.strict({ error: ErrorId, byTool: t.string, path: t.string }),
		]),
	}),
	/** The session's own model stopped a turn with an error (a provider's 400, a dropped stream): no error of the work. */
	"model-failed": event({
		type: t.literal("model-failed"),
		data: t.strict({ span: Positive, head: t.string }),
	}),
	/** Files the span read and modified, from its tool calls. */
	"files-touched": event({
		type: t.literal("files-touched"),
		data: t.strict({ read: t.array(t.string), modified: t.array(t.string) }),
	}),
	/** The git workspace as the pass saw it. */
	"world-taken": event({ type: t.literal("world-taken"), data: t.strict({ span: Positive, world: WorldCodec }) }),
	/** The end of a pass: whole, narrative-less (no accepted answer) or partial (a chunk never verified). */
	"span-closed": event({
		type: t.literal("span-closed"),
		data: t.strict({
			span: Positive,
			kind: CloseKindCodec,
			unlabeled: t.array(UserRef),
			reason: t.union([t.string, t.null]),
		}),
	}),
	/** A compaction on the branch written by another compactor. */
	"foreign-compaction-seen": event({
		type: t.literal("foreign-compaction-seen"),
		data: t.strict({ entry: t.string, summaryChars: t.number, fromHook: t.boolean }),
	}),
	/** Something on the branch the fold could not use, and why. */
	anomaly: event({ type: t.literal("anomaly"), data: t.strict({ entry: t.string, reason: t.string }) }),
} as const;

type Codecs = typeof codecs;
/** Every event kind's name. */
export type EventType = keyof Codecs;
/** A typed state event. */
export type Event = { [K in EventType]: t.TypeOf<Codecs[K]> }[EventType];
/** The event of one kind. */
export type EventOf<K extends EventType> = t.TypeOf<Codecs[K]>;
/** The data of one event kind, as its codec decodes it: what the state's records are made of. */
export type EventData<K extends EventType> = EventOf<K>["data"];

/** The event kinds' names, looked up once per event: a Set's lookup is cheaper than the codecs object's own keys. */
const eventTypes: ReadonlySet<string> = new Set(Object.keys(codecs));

function isEventType(u: unknown): u is EventType {
	return typeof u === "string" && eventTypes.has(u);
}

/** What fixed an error, as the state names it: the command `C<n>`, or `edit of PATH` for a tool's call on a file. */
export function fixerOf(fix: EventData<"error-fixed">): string {
	return "by" in fix ? fix.by : `${fix.byTool} of ${fix.path}`;
}

/** Decodes one event; the reason is text fit for an anomaly. */
export function decodeEvent(u: unknown): Either<string, Event> {
	if (typeof u !== "object" || u === null) return E.left("event is not an object");
	const type: unknown = "type" in u ? u.type : undefined;
	if (!isEventType(type))
		return E.left(`unknown event type ${typeof type === "string" ? type.slice(0, 80) : typeof type}`);
	// Looked up by its own key, the codec decodes exactly that kind; TypeScript sees only a union of codecs here.
	const codec: t.Type<Event, unknown, unknown> = codecs[type] as t.Type<Event, unknown, unknown>;
	const decoded = codec.decode(u);
	return E.isLeft(decoded) ? E.left(`event ${type} failed its codec`) : decoded;
}

/** Encodes an event to its plain JSON form. */
export function encodeEvent(event: Event): unknown {
	// As in decodeEvent: the codec of the event's own kind, widened for the lookup.
	const codec = codecs[event.type] as t.Type<Event, unknown, unknown>;
	return codec.encode(event);
}

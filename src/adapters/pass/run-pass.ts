import type { CloseKind, CompactionDetails, Event, SpanRecord, UserMessage, World } from "../../events/index.js";
import type { AcceptContext } from "../../pass/accept/index.js";
import type { CallTrace } from "../../pass/conversation/index.js";
import { type Decided, decideAnswer, decideClose, decideWithoutModel, decidingFrom } from "../../pass/decide/index.js";
import { ledgerEvents } from "../../pass/ledger/index.js";
import { diffPrompt, type Prompt, type PromptInput } from "../../pass/prompt/index.js";
import { standingRules } from "../../pass/reader/index.js";
import {
	chunkCount,
	chunksOf,
	derivedSpan,
	ledgerIds,
	preparedSpan,
	type SpanSlice,
	sliceSpan,
} from "../../pass/span/index.js";
import { type Offer, offerOf, type Takeover, takeoverOf } from "../../pass/takeover/index.js";
import type { CapFit, TaggedRule } from "../../projections/index.js";
import { summaryBody, taggedRules } from "../../projections/index.js";
import type { State } from "../../reducers/index.js";
import { type Folded, foldEntries } from "../../reducers/index.js";
import { redactedSpan } from "../redact/span.js";
import { diffChunk } from "./diff.js";
import { fitSummary } from "./fit-summary.js";
import type { PassModel } from "./model.js";
import { diffTurns } from "./turns.js";

/** The pass's settings from `longhaul.json`. */
export interface PassSettings {
	readonly narrativeMode: "single" | "turns";
	readonly retryNoteChars: number;
	readonly maxChunks: number;
	readonly summaryChars: number;
	readonly turnsBudgetMs: number;
	readonly turnBudgetMs: number;
}

/** The effects a pass needs, passed in: the model (absent when none can be had, with the reason), git, status, clock. */
export interface PassCapabilities {
	readonly model: PassModel | undefined;
	readonly noModelReason: string;
	readonly takeWorld: (cwd: string) => Promise<World>;
	readonly status: (text: string | undefined) => void;
	readonly now: () => number;
	/** The redactor's batch (`Redactor.redactAll`): the span's texts pass it whole, before the pass cuts any. */
	readonly redact: (texts: readonly string[]) => Promise<string[]>;
	/** Redacts the summary pi stores (src/adapters/redact); the cap is measured after it. None: stored as rendered. */
	readonly redactSummary?: (text: string) => Promise<string>;
}

/** What pi hands the pass at `session_before_compact`. */
export interface PassRequest {
	readonly branch: readonly unknown[];
	readonly firstKeptEntryId: string;
	/**
	 * pi's preparation: `messagesToSummarize` then `turnPrefixMessages`, the span as this pi version cuts it. Absent,
	 * or when a message matches no entry of the branch, the span is derived by pi 0.73.1's rule.
	 */
	readonly messages?: readonly unknown[];
	readonly cwd: string;
	readonly signal: AbortSignal;
	/**
	 * A preview (`longhaul preview`, no model): on a session no Longhaul pass has compacted, the standing-rule reader
	 * reads every user message offered, the span's too, as a takeover reads the earlier ones.
	 */
	readonly readsEveryMessage?: boolean;
	readonly settings: PassSettings;
}

/** What a pass produced: the compaction pi stores, the span record to append after it, and the figures to log. */
export interface PassOutcome {
	readonly span: number;
	/** How the diff ran: one call per chunk, or the gated conversation. */
	readonly mode: "single" | "turns";
	/** Where the span came from: pi's preparation, or pi 0.73.1's rule when the preparation did not map. */
	readonly spanFrom: "preparation" | "derived";
	/** The state before the pass, as folded from the branch. */
	readonly before: State;
	/** The summary pi stores: redacted, and within `summaryChars` unless the rules in force and Now alone pass it. */
	readonly summary: string;
	readonly details: CompactionDetails;
	readonly spanRecord: Omit<SpanRecord, "compactionId">;
	readonly kind: CloseKind;
	readonly reason: string | null;
	readonly calls: readonly CallTrace[];
	readonly chunks: number;
	readonly accepted: number;
	readonly dropped: Readonly<Record<string, number>>;
	readonly capFit: CapFit;
	readonly world: World;
	readonly carried: number;
	readonly promptChars: number;
	readonly timings: Readonly<Record<string, number>>;
	/** Rule words the model gave that were refused; logged only with `PI_COMPACT_STATE_DEBUG_EXCERPTS=1`. */
	readonly rejectedQuotes: readonly string[];
	/** The rules this pass recorded whose words hold Unicode tag characters: the user is told of each. */
	readonly taggedRules: readonly TaggedRule[];
}

/** What a pass gathers before it decides: the span, what it offers, its ledger and the World. */
interface Gathered {
	readonly request: PassRequest;
	readonly caps: PassCapabilities;
	readonly state: State;
	readonly spanFrom: PassOutcome["spanFrom"];
	readonly slice: SpanSlice;
	readonly takeover: Takeover | undefined;
	readonly offer: Offer;
	/** Every message offered a label, in offer order. */
	readonly toLabel: readonly UserMessage[];
	/** The standing picks code records when no answer for them verifies. */
	readonly picks: readonly UserMessage[];
	readonly ledger: readonly Event[];
	readonly world: World;
	readonly notes: readonly string[];
	/** The user's messages as the prompt shows them: redacted (the state keeps the user's own bytes). */
	readonly shown: (users: readonly UserMessage[]) => UserMessage[];
}

/** How the diff ran, for the outcome and the log. */
interface Trace {
	readonly calls: CallTrace[];
	readonly rejectedQuotes: string[];
	readonly excused: { check: string; reason: string }[];
}

/** Runs one stage of the pass under its name: shown as the status, timed for the log. */
type RunStage = <T>(name: string, f: () => T | Promise<T>) => Promise<T>;

function spanNotes(slice: SpanSlice, folded: Folded): string[] {
	return folded.events.flatMap((l) =>
		l.event.type === "note-remembered" && slice.entryIds.has(l.entry) ? [l.event.data.text] : [],
	);
}

/** The user messages the prompt may show: the span's and what the offer shows, each once. */
function shownUsers(slice: SpanSlice, offer: Offer): UserMessage[] {
	const { whole, standing = [], earlier = [] } = offer.prompt;
	const byRef = new Map([...whole, ...standing, ...earlier, ...slice.users].map((u) => [u.ref, u]));
	return [...byRef.values()];
}

/**
 * The span and the offer with every text the pass cuts redacted whole first (tool output, commands, errors, the
 * summary taken over, the notes), and the user's messages redacted as the prompt shows them. The ledger is read from
 * the redacted messages, so an error head it stores holds no secret; the offer's acceptance part stays the user's.
 */
async function redactedInputs(caps: PassCapabilities, slice: SpanSlice, offer: Offer, notes: readonly string[]) {
	const users = shownUsers(slice, offer);
	const summary = offer.prompt.foreignSummary;
	const redacted = await redactedSpan(caps.redact, { messages: slice.messages, users, summary, notes });
	const texts = new Map(redacted.users.map((u) => [u.ref, u.text]));
	const shown = (list: readonly UserMessage[]) => list.map((u) => ({ ...u, text: texts.get(u.ref) ?? u.text }));
	const { whole, standing, earlier } = offer.prompt;
	const prompt = {
		whole: shown(whole),
		...(standing === undefined ? {} : { standing: shown(standing) }),
		...(earlier === undefined ? {} : { earlier: shown(earlier) }),
		...(redacted.summary === undefined ? {} : { foreignSummary: redacted.summary }),
	};
	return { messages: redacted.messages, offer: { ...offer, prompt }, notes: redacted.notes, shown };
}

/** Gathers the pass's inputs: the span pi cut, the takeover and what the pass offers, the ledger, the World. */
async function gather(
	request: PassRequest,
	caps: PassCapabilities,
	folded: Folded,
	stage: RunStage,
): Promise<Gathered> {
	const state = folded.state;
	const prepared =
		request.messages === undefined
			? undefined
			: preparedSpan(folded.branch, request.firstKeptEntryId, request.messages);
	const cutSlice = sliceSpan(folded, prepared ?? derivedSpan(folded.branch, request.firstKeptEntryId), state);
	const cutTakeover = takeoverOf(folded, cutSlice);
	// git runs while the span is redacted; what is left of the World is awaited after the ledger.
	const taking = caps.takeWorld(request.cwd);
	const r = await stage("redact", () =>
		redactedInputs(caps, cutSlice, offerOf(cutSlice, cutTakeover), spanNotes(cutSlice, folded)),
	);
	const slice = { ...cutSlice, messages: r.messages };
	const takeover =
		cutTakeover === undefined ? undefined : { ...cutTakeover, summary: r.offer.prompt.foreignSummary ?? "" };
	const { offer, notes, shown } = r;
	const ledger = await stage("ledger", () => ledgerEvents(slice.messages, slice.span, state));
	const world = await stage("world", () => taking);
	const toLabel = [...offer.before, ...slice.users];
	const picks = request.readsEveryMessage === true && state.spans === 0 ? standingRules(toLabel) : offer.picks;
	const spanFrom = prepared === undefined ? "derived" : "preparation";
	return { request, caps, state, spanFrom, slice, takeover, offer, toLabel, picks, ledger, world, notes, shown };
}

/** A chunk of a span cut into several: its messages and its place. */
type ChunkPart = Pick<PromptInput, "messages" | "chunk">;

/** The prompt of the span's messages (or of a chunk) on the state decided so far; the first shows the offer. */
function promptOf(g: Gathered, state: State, users: readonly UserMessage[], part?: ChunkPart): Prompt {
	const { whole: shownWhole, ...offered } = g.offer.prompt;
	const first = part?.chunk === undefined || part.chunk.index === 1;
	return diffPrompt({
		span: g.slice.span,
		ledger: g.ledger,
		state: g.state,
		world: g.world,
		notes: g.notes,
		...(first ? offered : {}),
		stateText: summaryBody(state, g.request.settings.summaryChars),
		toLabel: first ? [...shownWhole, ...g.shown(users)] : g.shown(users),
		messages: g.slice.messages,
		messageRefs: users.map((u) => u.ref),
		...part,
	});
}

/** The acceptance context of a diff on the state decided so far; the first shows the offer. */
function contextOf(g: Gathered, state: State, users: readonly UserMessage[], first: boolean): AcceptContext {
	return {
		state,
		span: g.slice.span,
		toLabel: first ? [...g.offer.before, ...users] : users,
		branch: g.slice.branchUsers,
		turnText: g.slice.turnText,
		ledger: ledgerIds(g.state, g.ledger),
		...(first ? g.offer.labels : {}),
	};
}

/** Single mode: one call per chunk, each chunk's answer decided on the state the chunks before it left. */
async function chunkDecisions(
	g: Gathered,
	model: PassModel,
	whole: Prompt,
	trace: Trace,
	stage: RunStage,
): Promise<Decided> {
	const { settings, signal } = g.request;
	const promptChars = whole.system.length + whole.user.length;
	const chunks = chunksOf(g.slice, chunkCount(promptChars, model.contextWindow, settings.maxChunks));
	let decided = decidingFrom(g.state, g.ledger);
	for (const [index, chunk] of chunks.entries()) {
		const part = { messages: chunk.messages, chunk: { index: index + 1, of: chunks.length } };
		const prompt = chunks.length === 1 ? whole : promptOf(g, decided.state, chunk.users, part);
		const ctx = contextOf(g, decided.state, chunk.users, index === 0);
		const options = { retryNoteChars: settings.retryNoteChars, signal, now: g.caps.now };
		const diff = await stage(`diff ${index + 1}/${chunks.length}`, () => diffChunk(model, prompt, ctx, options));
		trace.calls.push(...diff.calls);
		trace.rejectedQuotes.push(...diff.rejectedQuotes);
		decided = decideAnswer(decided, diff, g.picks);
	}
	return decided;
}

/** Turns mode: one gated conversation over the whole span, its answer decided as one chunk's. */
async function turnsDecisions(g: Gathered, model: PassModel, trace: Trace, stage: RunStage): Promise<Decided> {
	const { settings, signal } = g.request;
	const start = decidingFrom(g.state, g.ledger);
	const turns = await stage("turns", () =>
		diffTurns(
			{
				ctx: contextOf(g, start.state, g.slice.users, true),
				stateText: summaryBody(g.state, settings.summaryChars),
				ledger: g.ledger,
				world: g.world,
				messages: g.slice.messages,
				messageRefs: g.slice.users.map((u) => u.ref),
				notes: g.notes,
				...(g.takeover === undefined
					? {}
					: {
							takeover: {
								summary: g.takeover.summary,
								earlier: g.takeover.earlier.map((u) => u.ref),
								standing: g.takeover.standing.map((u) => u.ref),
							},
						}),
			},
			model,
			{
				turnsBudgetMs: settings.turnsBudgetMs,
				turnBudgetMs: settings.turnBudgetMs,
				retryNoteChars: settings.retryNoteChars,
				signal,
				now: g.caps.now,
				status: g.caps.status,
			},
		),
	);
	trace.calls.push(...turns.calls);
	trace.excused.push(...turns.excused);
	return decideAnswer(start, turns, g.picks);
}

/** The span record's bounds: the first and last entry ids of the span's messages, when it has any. */
function spanBounds(ids: readonly string[]): Pick<SpanRecord, "bounds"> {
	const first = ids[0];
	const last = ids.at(-1);
	return first === undefined || last === undefined ? {} : { bounds: { first, last } };
}

/**
 * Runs one pass (docs/how-it-works.md, One pass, steps 1–8): gather, decide, and hand pi what to append. Rejects only
 * on abort or a fault in the pass itself.
 */
export async function runPass(request: PassRequest, caps: PassCapabilities): Promise<PassOutcome> {
	const timings: Record<string, number> = {};
	const stage: RunStage = async (name, f) => {
		caps.status(`Longhaul: ${name}`);
		const start = caps.now();
		const result = await f();
		timings[name] = caps.now() - start;
		return result;
	};
	const { settings } = request;
	const folded = await stage("fold", () => foldEntries(request.branch));
	const g = await gather(request, caps, folded, stage);
	const { state, slice } = g;
	const whole = promptOf(g, state, slice.users);
	// Nothing new to summarize (a /compact right after another): the state carries over, with no model call.
	const empty = slice.messages.length === 0 && g.takeover === undefined;
	const model = empty ? undefined : caps.model;
	const mode = settings.narrativeMode === "turns" && model?.converse !== undefined ? "turns" : "single";
	const trace: Trace = { calls: [], rejectedQuotes: [], excused: [] };
	const decided =
		model === undefined
			? decideWithoutModel(decidingFrom(state, g.ledger), g.picks, empty ? null : caps.noModelReason)
			: mode === "turns"
				? await turnsDecisions(g, model, trace, stage)
				: await chunkDecisions(g, model, whole, trace, stage);
	const { ledger, world, toLabel } = g;
	const summaryChars = settings.summaryChars;
	const redact = caps.redactSummary ?? (async (text: string) => text);
	const { close, fitted } = await stage("close", async () => {
		const close = decideClose(decided, { state, span: slice.span, ledger, world, toLabel, empty, summaryChars });
		return { close, fitted: await fitSummary(close.closed.rendered, close.closed.state, redact) };
	});
	caps.status(undefined);
	return {
		span: slice.span,
		mode,
		spanFrom: g.spanFrom,
		before: state,
		summary: fitted.text,
		details: close.closed.details,
		spanRecord: {
			v: 1,
			span: slice.span,
			...close.record,
			...spanBounds(slice.ids),
			chunks: decided.diffs,
			calls: trace.calls.length,
			...(trace.excused.length === 0 ? {} : { excused: trace.excused }),
		},
		kind: close.kind,
		reason: close.reason,
		calls: trace.calls,
		chunks: decided.diffs,
		accepted: close.accepted,
		dropped: decided.dropped,
		capFit: fitted.capFit,
		world,
		carried: slice.carried.length,
		promptChars: whole.system.length + whole.user.length,
		timings,
		rejectedQuotes: trace.rejectedQuotes,
		taggedRules: taggedRules(state, close.closed.state),
	};
}

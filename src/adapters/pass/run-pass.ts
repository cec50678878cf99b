import type { CompactionDetails, SpanRecord } from "../../events/entries.js";
import type { Event } from "../../events/event.js";
import type { Message, UserMessage } from "../../events/messages.js";
import type { World } from "../../events/world.js";
import type { AcceptContext } from "../../pass/accept.js";
import { type CloseKind, closeSpan } from "../../pass/close.js";
import { ledgerEvents } from "../../pass/ledger.js";
import { diffPrompt, type PromptInput } from "../../pass/prompt.js";
import { derivedSpan, preparedSpan, type SpanSlice, sliceSpan } from "../../pass/span.js";
import { standingRules } from "../../pass/standing-rules.js";
import { offerOf, standingEvents, takeoverOf } from "../../pass/takeover.js";
import type { CapFit } from "../../projections/summary.js";
import { renderSummary } from "../../projections/summary.js";
import { evolve } from "../../reducers/evolve.js";
import { foldEntries } from "../../reducers/fold.js";
import type { State } from "../../reducers/state.js";
import { type CallTrace, diffChunk } from "./diff.js";
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
}

/** The work-log line of a span with nothing in it. */
const EMPTY_SPAN_LINE = "(nothing new to summarize)";

/** Characters per token, the same rough measure pi's `estimateTokens` uses. */
const CHARS_PER_TOKEN = 4;

function ledgerIds(state: State, ledger: readonly Event[]): Set<string> {
	const ids = new Set<string>([...state.commands.map((c) => c.id), ...state.errors.map((e) => e.id)]);
	for (const e of ledger) if (e.type === "command-recorded" || e.type === "error-recorded") ids.add(e.data.id);
	return ids;
}

function spanNotes(slice: SpanSlice, folded: ReturnType<typeof foldEntries>): string[] {
	return folded.events.flatMap((l) =>
		l.event.type === "note-remembered" && slice.entryIds.has(l.entry) ? [l.event.data.text] : [],
	);
}

interface Chunk {
	readonly messages: readonly Message[];
	readonly users: readonly UserMessage[];
}

/** Splits a span into `count` runs of messages, each user message with the run that holds it. */
function chunksOf(slice: SpanSlice, count: number): Chunk[] {
	const size = Math.ceil(slice.messages.length / count);
	const chunks: Chunk[] = [];
	let userIndex = 0;
	for (let start = 0; start < slice.messages.length || chunks.length === 0; start += size) {
		const messages = slice.messages.slice(start, start + size);
		const userCount = messages.filter((m) => m.role === "user").length;
		chunks.push({ messages, users: slice.users.slice(userIndex, userIndex + userCount) });
		userIndex += userCount;
		if (size === 0) break;
	}
	return chunks;
}

/** The span record's bounds: the first and last entry ids of the span's messages, when it has any. */
function spanBounds(ids: readonly string[]): Pick<SpanRecord, "bounds"> {
	const first = ids[0];
	const last = ids.at(-1);
	return first === undefined || last === undefined ? {} : { bounds: { first, last } };
}

function oneNarrative(events: readonly Event[], span: number): Event[] {
	const lines = events.flatMap((e) => (e.type === "narrative-line" ? [e.data.text] : []));
	const rest = events.filter((e) => e.type !== "narrative-line");
	if (lines.length <= 1) return [...events];
	const nowAt = rest.findIndex((e) => e.type === "now-set");
	const line: Event = { type: "narrative-line", data: { span, text: lines.join("; ").slice(0, 600) } };
	return nowAt < 0 ? [...rest, line] : [...rest.slice(0, nowAt), line, ...rest.slice(nowAt)];
}

/** Runs one pass (seed, The pass, steps 1–4). Rejects only on abort or a fault in the pass itself. */
export async function runPass(request: PassRequest, caps: PassCapabilities): Promise<PassOutcome> {
	const timings: Record<string, number> = {};
	const step = async <T>(name: string, f: () => T | Promise<T>): Promise<T> => {
		caps.status(`Longhaul: ${name}`);
		const start = caps.now();
		const result = await f();
		timings[name] = caps.now() - start;
		return result;
	};
	const { settings, signal } = request;
	const folded = await step("fold", () => foldEntries(request.branch));
	const state = folded.state;
	const prepared =
		request.messages === undefined
			? undefined
			: preparedSpan(folded.branch, request.firstKeptEntryId, request.messages);
	const slice = sliceSpan(folded, prepared ?? derivedSpan(folded.branch, request.firstKeptEntryId), state);
	const takeover = takeoverOf(folded, slice);
	// Nothing new to summarize (a /compact right after another): the state carries over, with no model call.
	const empty = slice.messages.length === 0 && takeover === undefined;
	const offer = offerOf(slice, takeover);
	const ledger = await step("ledger", () => ledgerEvents(slice.messages, slice.span, state));
	const world = await step("world", () => caps.takeWorld(request.cwd));
	const afterLedger = evolve(
		state,
		ledger.map((event) => ({ seq: null, event })),
	);
	const toLabel = [...offer.before, ...slice.users];
	const { whole: shownWhole, ...offered } = offer.prompt;
	const base: Omit<PromptInput, "toLabel" | "messages" | "messageRefs" | "stateText"> = {
		span: slice.span,
		ledger,
		state,
		world,
		notes: spanNotes(slice, folded),
	};
	const whole = diffPrompt({
		...base,
		...offered,
		stateText: renderSummary(state, settings.summaryChars).text,
		toLabel: [...shownWhole, ...slice.users],
		messages: slice.messages,
		messageRefs: slice.users.map((u) => u.ref),
	});
	const promptChars = whole.system.length + whole.user.length;
	const model = empty ? undefined : caps.model;
	const calls: CallTrace[] = [];
	const accepted: Event[] = [];
	const labeled = new Set<string>();
	const labels: { msg: string; label: string }[] = [];
	const dropped: Record<string, number> = {};
	/** The standing picks, recorded by code when the call that offered them never verified. */
	const picks = request.readsEveryMessage === true && state.spans === 0 ? standingRules(toLabel) : offer.picks;
	let picked: Event[] = model === undefined ? standingEvents(afterLedger, picks) : [];
	let failed = 0;
	let reason: string | null = model === undefined && !empty ? caps.noModelReason : null;
	let chunkCount = 0;
	let excused: { check: string; reason: string }[] = [];
	const rejectedQuotes: string[] = [];
	const mode = settings.narrativeMode === "turns" && model?.converse !== undefined ? "turns" : "single";
	if (model !== undefined && mode === "turns") {
		chunkCount = 1;
		const turns = await step("turns", () =>
			diffTurns(
				{
					ctx: {
						state: afterLedger,
						span: slice.span,
						toLabel,
						branch: slice.branchUsers,
						turnText: slice.turnText,
						ledger: ledgerIds(state, ledger),
						...offer.labels,
					},
					stateText: renderSummary(state, settings.summaryChars).text,
					ledger,
					world,
					messages: slice.messages,
					messageRefs: slice.users.map((u) => u.ref),
					notes: base.notes,
					...(takeover === undefined
						? {}
						: {
								takeover: {
									summary: takeover.summary,
									earlier: takeover.earlier.map((u) => u.ref),
									standing: takeover.standing.map((u) => u.ref),
								},
							}),
				},
				model,
				{
					turnsBudgetMs: settings.turnsBudgetMs,
					turnBudgetMs: settings.turnBudgetMs,
					retryNoteChars: settings.retryNoteChars,
					signal,
					now: caps.now,
					status: caps.status,
				},
			),
		);
		calls.push(...turns.calls);
		excused = [...turns.excused];
		if (turns.accepted === undefined) {
			failed = 1;
			reason = turns.reason;
			picked = standingEvents(afterLedger, offer.picks);
		} else {
			accepted.push(...turns.accepted.events);
			for (const ref of turns.accepted.labeled) labeled.add(ref);
			labels.push(...turns.accepted.labels);
			for (const d of turns.accepted.dropped) dropped[d.reason] = (dropped[d.reason] ?? 0) + 1;
		}
	} else if (model !== undefined) {
		const budget = Math.max(1, model.contextWindow - 8192) * CHARS_PER_TOKEN;
		const count = Math.min(settings.maxChunks, Math.max(1, Math.ceil(promptChars / budget)));
		const chunks = chunksOf(slice, count);
		chunkCount = chunks.length;
		let current = afterLedger;
		for (const [index, chunk] of chunks.entries()) {
			const first = index === 0;
			const ctx: AcceptContext = {
				state: current,
				span: slice.span,
				toLabel: first ? [...offer.before, ...chunk.users] : chunk.users,
				branch: slice.branchUsers,
				turnText: slice.turnText,
				ledger: ledgerIds(state, ledger),
				...(first ? offer.labels : {}),
			};
			const prompt =
				chunks.length === 1
					? whole
					: diffPrompt({
							...base,
							...(first ? offered : {}),
							stateText: renderSummary(current, settings.summaryChars).text,
							toLabel: first ? [...shownWhole, ...chunk.users] : chunk.users,
							messages: chunk.messages,
							messageRefs: chunk.users.map((u) => u.ref),
							chunk: { index: index + 1, of: chunks.length },
						});
			const diff = await step(`diff ${index + 1}/${chunks.length}`, () =>
				diffChunk(model, prompt, ctx, { retryNoteChars: settings.retryNoteChars, signal, now: caps.now }),
			);
			calls.push(...diff.calls);
			rejectedQuotes.push(...diff.rejectedQuotes);
			if (diff.accepted === undefined) {
				failed++;
				reason = reason ?? diff.reason;
				if (first) {
					picked = standingEvents(current, offer.picks);
					current = evolve(
						current,
						picked.map((event) => ({ seq: null, event })),
					);
				}
				continue;
			}
			accepted.push(...diff.accepted.events);
			for (const ref of diff.accepted.labeled) labeled.add(ref);
			labels.push(...diff.accepted.labels);
			for (const d of diff.accepted.dropped) dropped[d.reason] = (dropped[d.reason] ?? 0) + 1;
			current = evolve(
				current,
				diff.accepted.events.map((event) => ({ seq: null, event })),
			);
		}
	}
	const kind: CloseKind = empty
		? "whole"
		: model === undefined || failed === chunkCount
			? "narrative-less"
			: failed > 0
				? "partial"
				: "whole";
	if (empty) accepted.push({ type: "narrative-line", data: { span: slice.span, text: EMPTY_SPAN_LINE } });
	const unlabeled = toLabel.map((u) => u.ref).filter((ref) => kind !== "whole" || !labeled.has(ref));
	const closed = await step("close", () =>
		closeSpan({
			state,
			span: slice.span,
			ledger,
			world,
			accepted: kind === "narrative-less" ? picked : oneNarrative([...picked, ...accepted], slice.span),
			kind,
			unlabeled,
			reason: kind === "whole" ? null : reason,
			summaryChars: settings.summaryChars,
		}),
	);
	caps.status(undefined);
	const commands = ledger.flatMap((e) =>
		e.type === "command-recorded" ? [{ id: e.data.id, command: e.data.command, exitCode: e.data.exitCode }] : [],
	);
	const errors = ledger.flatMap((e) =>
		e.type === "error-recorded" ? [{ id: e.data.id, tool: e.data.tool, head: e.data.head }] : [],
	);
	const values = closed.events.flatMap((e) => (e.type === "value-recorded" ? [{ ...e.data }] : []));
	return {
		span: slice.span,
		mode,
		spanFrom: prepared === undefined ? "derived" : "preparation",
		before: state,
		summary: closed.rendered.text,
		details: closed.details,
		spanRecord: {
			v: 1,
			span: slice.span,
			labels,
			commands,
			errors,
			values,
			...spanBounds(slice.ids),
			chunks: chunkCount,
			calls: calls.length,
			...(excused.length === 0 ? {} : { excused }),
		},
		kind,
		reason: kind === "whole" ? null : reason,
		calls,
		chunks: chunkCount,
		accepted: accepted.length,
		dropped,
		capFit: closed.rendered.capFit,
		world,
		carried: slice.carried.length,
		promptChars,
		timings,
		rejectedQuotes,
	};
}

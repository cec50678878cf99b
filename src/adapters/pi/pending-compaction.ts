import { type CompactionLine, type SpanRecord, STATE_FORMAT } from "../../events/index.js";
import type { PassOutcome } from "../pass/run-pass.js";

// pi reports a compaction in hooks that come separately: it begins (`session_before_compact`), Longhaul's pass answers
// it, and pi says what became of it in a later hook (`session_compact`, `session_compact_failed` on pi >= 0.84.3) or,
// on pi 0.73, not at all. What the later hooks log and append depends on what the earlier ones saw, so the compaction
// in between is held in memory across hooks. The state of the session never is: it is folded from the branch on
// every read.

/** What the machine keeps of a pass that returned a compaction: its span, its span record and its calls' tokens. */
export type ReturnedPass = Pick<PassOutcome, "span" | "spanRecord"> & {
	readonly calls: readonly { readonly inputTokens: number; readonly outputTokens: number }[];
};

/** The compaction Longhaul saw begin and has not yet seen end. */
export type PendingCompaction =
	/** Nothing pending: no compaction began, or the last one was stored, failed or was aborted. */
	| { readonly kind: "idle" }
	/** A compaction began that Longhaul left to pi (`PI_COMPACTOR` selects pi's compactor, or is unknown). */
	| { readonly kind: "pi-compacting" }
	/** Longhaul's pass runs; a failure pi reports now is another's (pi fails one only after its handlers answer). */
	| { readonly kind: "passing" }
	/** The pass, begun at `started`, returned its compaction; pi is to store it. */
	| { readonly kind: "passed"; readonly started: number; readonly pass: ReturnedPass }
	/** The pass threw (`errorClass`); pi's own compaction runs in its place. */
	| { readonly kind: "fell-back"; readonly errorClass: string };

/** What pi's hooks and the pass tell the machine. */
export type CompactionEvent =
	/** `session_before_compact` began a compaction: with Longhaul's pass, or left to pi. */
	| { readonly type: "began"; readonly pass: boolean }
	/** The pass, begun at `started`, returned a compaction for pi to store. */
	| { readonly type: "pass-returned"; readonly started: number; readonly pass: ReturnedPass }
	/** The pass threw, not aborted: pi's own compaction takes over. */
	| { readonly type: "pass-threw"; readonly errorClass: string }
	/** The pass stopped on the compaction's aborted signal and cancelled it: pi stores nothing, and reports nothing. */
	| { readonly type: "pass-aborted" }
	/** pi reported a failed or aborted compaction (`session_compact_failed`, pi >= 0.84.3). */
	| { readonly type: "pi-failed"; readonly reason: "compaction-aborted" | "compaction-error" }
	/** The session went on (`input`, `agent_start`): a compaction still pending stored no entry (all pi 0.73 tells). */
	| { readonly type: "went-on" }
	/** `session_compact`: pi stored a compaction entry; `fromExtension` when an extension gave its summary. */
	| {
			readonly type: "stored";
			readonly fromExtension: boolean;
			readonly compactionId: string;
			readonly summaryChars: number;
			readonly tokensBefore: number;
			readonly now: number;
	  };

/** What the adapter performs for a transition, in order. */
export type CompactionEffect =
	/** Log a `compact-failed` record. */
	| { readonly kind: "compact-failed"; readonly reason: string; readonly span: number | null }
	/** Log a `compacted` record. */
	| {
			readonly kind: "compacted";
			readonly fromExtension: boolean;
			readonly reason: "longhaul" | "fallback" | "pi";
			readonly span: number | null;
			readonly summaryChars: number;
			readonly tokensBefore: number;
	  }
	/** Append the span record after the compaction entry. */
	| { readonly kind: "span-record"; readonly record: SpanRecord }
	/** Append the Compaction line one event-loop turn later, under the compaction block pi draws when it ends. */
	| { readonly kind: "line"; readonly line: CompactionLine };

/** A transition: the state after an event, and what to perform. */
export interface CompactionStep {
	readonly state: PendingCompaction;
	readonly effects: readonly CompactionEffect[];
}

/** The state before any compaction. */
export const idle: PendingCompaction = { kind: "idle" };

/** A pending compaction settled as one that never stored an entry: reported once, then nothing is pending. */
function settleFailed(state: PendingCompaction, reason: string): CompactionStep {
	if (state.kind === "idle") return { state, effects: [] };
	const span = state.kind === "passed" ? state.pass.span : null;
	return { state: idle, effects: [{ kind: "compact-failed", reason, span }] };
}

/** pi stored a compaction: the `compacted` record, and the span record and line of Longhaul's pass or fallback. */
function stored(state: PendingCompaction, event: Extract<CompactionEvent, { type: "stored" }>): CompactionStep {
	const { fromExtension, summaryChars } = event;
	const tokensBefore = Math.max(0, Math.round(event.tokensBefore));
	const compacted = (reason: "longhaul" | "fallback" | "pi", span: number | null): CompactionEffect => ({
		kind: "compacted",
		fromExtension,
		reason,
		span,
		summaryChars,
		tokensBefore,
	});
	if (state.kind === "passed" && fromExtension) {
		const { pass } = state;
		const ms = Math.max(0, event.now - state.started);
		const tokens = pass.calls.reduce((sum, c) => sum + Math.round(c.inputTokens + c.outputTokens), 0);
		const line: CompactionLine = { stateFormat: STATE_FORMAT, ms, span: pass.span, calls: pass.calls.length, tokens };
		return {
			state: idle,
			effects: [
				compacted("longhaul", pass.span),
				{ kind: "span-record", record: { ...pass.spanRecord, compactionId: event.compactionId } },
				{ kind: "line", line },
			],
		};
	}
	if (state.kind === "fell-back") {
		const line: CompactionLine = { stateFormat: STATE_FORMAT, fallback: state.errorClass };
		return { state: idle, effects: [compacted("fallback", null), { kind: "line", line }] };
	}
	return { state: idle, effects: [compacted("pi", null)] };
}

/**
 * The pending compaction's transition on an event. A compaction that begins settles the one still pending as
 * failed (pi 0.73 reports no failure); the pass's end is recorded whatever was reported meanwhile.
 */
export function nextPending(state: PendingCompaction, event: CompactionEvent): CompactionStep {
	switch (event.type) {
		case "began": {
			const settled = settleFailed(state, "no-compaction-entry");
			return { state: event.pass ? { kind: "passing" } : { kind: "pi-compacting" }, effects: settled.effects };
		}
		case "pass-returned":
			return { state: { kind: "passed", started: event.started, pass: event.pass }, effects: [] };
		case "pass-threw":
			return { state: { kind: "fell-back", errorClass: event.errorClass }, effects: [] };
		case "pass-aborted":
			return { state: idle, effects: [] };
		case "pi-failed":
			return state.kind === "passing" ? { state, effects: [] } : settleFailed(state, event.reason);
		case "went-on":
			// An input while the pass runs (pi 0.73's prompt() sends one during a compaction) is no sign of failure:
			// the compaction has not ended yet.
			return state.kind === "passing" ? { state, effects: [] } : settleFailed(state, "no-compaction-entry");
		case "stored":
			return stored(state, event);
	}
}

import type { CompactionDetails, StoredEvent, World } from "../../events/index.js";
import { type CloseKind, type Event, encodeEvent } from "../../events/index.js";
import { type Rendered, renderSummary } from "../../projections/index.js";
import type { State } from "../../reducers/index.js";
import { evolve } from "../../reducers/index.js";

/** What step 4 of the pass closes the span with. */
export interface CloseInput {
	readonly state: State;
	readonly span: number;
	/** Step 1's events: commands, errors, fixes, values, files. */
	readonly ledger: readonly Event[];
	readonly world: World;
	/** The diff's accepted events, in order. */
	readonly accepted: readonly Event[];
	readonly kind: CloseKind;
	/** The user messages the pass leaves unlabeled, so the next pass offers them again. */
	readonly unlabeled: readonly string[];
	readonly reason: string | null;
	readonly summaryChars: number;
}

/** The closed span: its events with sequence numbers, the compaction details, the new state and its summary. */
export interface Closed {
	readonly events: readonly Event[];
	readonly details: CompactionDetails;
	readonly state: State;
	readonly rendered: Rendered;
}

function workLogLine(input: CloseInput): Event[] {
	if (input.accepted.some((e) => e.type === "narrative-line")) return [];
	const text =
		input.kind === "whole" ? "(no narrative given)" : `(narrative-less: ${input.reason ?? "no verified answer"})`;
	return [{ type: "narrative-line", data: { span: input.span, text } }];
}

/**
 * Step 4: the accepted events get their sequence numbers, the span closes with one work-log line and the World,
 * and the rendered state becomes the summary. Pure: the same input gives the same bytes.
 */
export function closeSpan(input: CloseInput): Closed {
	const events: Event[] = [
		...input.ledger,
		{ type: "world-taken", data: { span: input.span, world: input.world } },
		...input.accepted,
		...workLogLine(input),
		{
			type: "span-closed",
			data: { span: input.span, kind: input.kind, unlabeled: [...input.unlabeled], reason: input.reason },
		},
	];
	const first = input.state.lastSeq + 1;
	const sequenced = events.map((event, i) => ({ seq: first + i, event }));
	const stored: StoredEvent[] = sequenced.map(({ seq, event }) => ({ seq, event: encodeEvent(event) }));
	const state = evolve(input.state, sequenced);
	return {
		events,
		details: { stateFormat: 1, longhaul: true, span: input.span, events: stored },
		state,
		rendered: renderSummary(state, input.summaryChars),
	};
}

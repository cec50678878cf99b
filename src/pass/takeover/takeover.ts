import * as E from "fp-ts/lib/Either.js";
import type { Entry, Event, UserMessage } from "../../events/index.js";
import { CompactionDetailsCodec } from "../../events/index.js";
import { evolveUnstored, type Folded, initialState, type State } from "../../reducers/index.js";
import type { LabelContext } from "../accept/index.js";
import { pickRecords, readerSentences } from "../accept/index.js";
import { EARLIER_MESSAGE_CHARS, isCut, type PromptInput } from "../prompt/index.js";
import { standingRules } from "../reader/index.js";
import { judgedUntil, newestCompaction, type SpanSlice } from "../span/index.js";

/**
 * A pass that takes over from another compactor (docs/how-it-works.md, Taking over from another compactor): the newest
 * compaction on the branch was not Longhaul's, so its summary is shown and the user's earlier messages are offered
 * again.
 */
export interface Takeover {
	/** The newest foreign compaction's summary, shown head and tail. */
	readonly summary: string;
	/** The earlier messages offered, oldest first: those since Longhaul's last whole span, carried ones among them. */
	readonly offered: readonly UserMessage[];
	/** Those of `offered` the standing-rule reader reads as standing rules: recorded unless labeled `one-off` or a lift. */
	readonly standing: readonly UserMessage[];
	/** The rest of `offered` but the carried ones (shown whole with the span's): each shown cut to its start. */
	readonly earlier: readonly UserMessage[];
	/** The refs of `earlier` the prompt shows cut: a rule there is recorded only from the exact words given. */
	readonly excerpted: ReadonlySet<string>;
}

/** A compaction is Longhaul's when its details decode as Longhaul's (`stateFormat: 1`, `longhaul: true`). */
function isLonghauls(entry: Entry): boolean {
	return E.isRight(CompactionDetailsCodec.decode(entry.raw.details));
}

/**
 * The takeover of a pass, or undefined when the newest compaction on the branch is Longhaul's or there is none.
 * It does not matter where pi's new cut falls: a cut before the foreign compaction still leaves the messages
 * before the span to the foreign summary alone. Messages of Longhaul spans that closed narrative-less or partial
 * (`slice.carried`) are offered once, whole.
 */
export function takeoverOf(folded: Folded, slice: SpanSlice): Takeover | undefined {
	const at = newestCompaction(folded.branch, folded.branch.length);
	const compaction = folded.branch[at];
	if (compaction === undefined || isLonghauls(compaction)) return undefined;
	const summary = compaction.raw.summary;
	const since = Math.min(judgedUntil(folded), slice.start);
	const before = new Set(folded.branch.slice(since, slice.start).map((entry) => entry.id));
	const carried = new Set(slice.carried.map((u) => u.ref));
	const offered = slice.branchUsers.filter((u) => before.has(u.entryId) || carried.has(u.ref));
	const standing = standingRules(offered);
	const picked = new Set(standing.map((u) => u.ref));
	const earlier = offered.filter((u) => !picked.has(u.ref) && !carried.has(u.ref));
	return {
		summary: typeof summary === "string" ? summary : "",
		offered,
		standing,
		earlier,
		excerpted: new Set(earlier.filter((u) => isCut(u.text, EARLIER_MESSAGE_CHARS)).map((u) => u.ref)),
	};
}

/**
 * The rules the standing picks record by themselves, for a pass whose answer for them never verified: each pick
 * whole, in message order, unless a rule from its message is already in force or was lifted; a pick over 600
 * characters, the sentences the reader read as rules (`pickRecords`), each offered for a label again (`rereadRefs`).
 */
export function standingEvents(state: State, standing: readonly UserMessage[]): Event[] {
	const judged = new Set([...state.rules, ...state.lifted].map((rule) => rule.source));
	const picked = standing.flatMap((msg): Event[] =>
		judged.has(msg.ref)
			? []
			: pickRecords(msg).map((words) => ({ type: "rule-added", data: { words: words.text, source: msg.ref } })),
	);
	// Each rule stored with the id the reducer gives it, read from the state it folds them into.
	const before: State = { ...initialState, rules: state.rules, lifted: state.lifted, next: state.next };
	const after = evolveUnstored(before, picked);
	return after.rules
		.slice(before.rules.length)
		.map(({ id, text, source }) => ({ type: "rule-added", data: { id, words: text, source } }));
}

/**
 * The messages of `offered` whose rules `events` recorded from the reader's sentences, for want of a label's exact
 * words (`readerSentences`): the close leaves them unlabeled, so the next pass offers them for a label again, as it
 * does the messages of a narrative-less close.
 */
export function rereadRefs(events: readonly Event[], offered: readonly UserMessage[]): string[] {
	const byRef = new Map(offered.map((u) => [u.ref, u]));
	const sentencesOf = new Map<string, ReadonlySet<string>>();
	const refs = new Set<string>();
	for (const event of events) {
		if (event.type !== "rule-added") continue;
		const msg = byRef.get(event.data.source);
		if (msg === undefined) continue;
		const sentences = sentencesOf.get(msg.ref) ?? readerSentences(msg);
		sentencesOf.set(msg.ref, sentences);
		if (sentences.has(event.data.words)) refs.add(msg.ref);
	}
	return [...refs];
}

/** What a pass's first call offers besides its chunk's messages: carried messages and, taking over, earlier ones. */
export interface Offer {
	/** Every message offered before the span's, oldest first; each needs a label but the standing picks. */
	readonly before: readonly UserMessage[];
	/** The prompt's part: carried messages shown whole beside the span's, and the takeover's summary and messages. */
	readonly prompt: Pick<PromptInput, "foreignSummary" | "standing" | "earlier"> & {
		readonly whole: readonly UserMessage[];
	};
	/** The acceptance's part. */
	readonly labels: Pick<LabelContext, "standing" | "excerpted" | "reopened">;
	/** The standing picks, recorded by code when the call that offers them never verifies. */
	readonly picks: readonly UserMessage[];
}

const refSet = (messages: readonly UserMessage[]): ReadonlySet<string> => new Set(messages.map((u) => u.ref));

/** The offer of a pass: the carried messages, or taking over, every earlier message offered (carried ones once). */
export function offerOf(slice: SpanSlice, takeover: Takeover | undefined): Offer {
	if (takeover === undefined) {
		return {
			before: slice.carried,
			prompt: { whole: slice.carried },
			labels: { reopened: refSet(slice.carried) },
			picks: [],
		};
	}
	const picked = refSet(takeover.standing);
	return {
		before: takeover.offered,
		prompt: {
			whole: slice.carried.filter((u) => !picked.has(u.ref)),
			foreignSummary: takeover.summary,
			standing: takeover.standing,
			earlier: takeover.earlier,
		},
		labels: { standing: picked, excerpted: takeover.excerpted, reopened: refSet(takeover.offered) },
		picks: takeover.standing,
	};
}

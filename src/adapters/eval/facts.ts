import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { branchOf } from "../../events/branch.js";
import { branchEvents } from "../../events/branch-events.js";
import { messageOf } from "../../events/messages.js";
import { type Entry, readTranscript } from "../../events/transcript.js";
import { derivedSpan, recordedSpan, type SpanBounds, type SpanEntries } from "../../pass/span.js";
import { recall } from "../../projections/recall.js";
import { foldBranch } from "../../reducers/fold.js";
import { type Place, placeOf, placeText, samePlace } from "./places.js";
import { type Compactor, compactorOf } from "./recording.js";
import { type FoundValue, holdsValue, valuesIn } from "./values.js";

// Facts, with no model: for each compaction on a transcript's branch, the values first seen in its span's tool
// output and used again after it, and how many of those its summary kept verbatim. A value the kept window still
// shows is left out, and so is one a later tool result or user message shows again before the model uses it: in
// both cases the model had it after the compaction whatever the summary said.

/** One compaction's facts. */
export interface CompactionFacts {
	/** 1 for the branch's first compaction. */
	readonly ordinal: number;
	readonly compactor: Compactor;
	readonly summaryChars: number;
	/** Where the kept window starts, as a place both a recording and its replay name alike. */
	readonly keptPlace: Place | undefined;
	/** Values first seen in the span's tool output, absent from the kept window, used after the compaction before any
	 * later message showed them again. */
	readonly reused: readonly FoundValue[];
	/** Those the summary holds. */
	readonly kept: readonly FoundValue[];
	/** Counted widely: every value first seen in the span's tool output and used after the compaction. */
	readonly wide: readonly FoundValue[];
	/** Those of `wide` the summary holds. */
	readonly keptWide: readonly FoundValue[];
	/** Those of `wide` the summary holds or one `longhaul_recall` of an id the summary shows returns. */
	readonly reachable: readonly FoundValue[];
}

interface Scanned {
	/** Values in the entry's tool output (a tool result, or the output of a user's `!` run). */
	readonly output: readonly FoundValue[];
	/** Values the entry uses: an assistant's text and its tool calls' arguments. */
	readonly used: readonly FoundValue[];
	/** Every value anywhere in the entry's message (user text, commands, thinking left out). */
	readonly all: readonly FoundValue[];
}

const NOTHING: Scanned = { output: [], used: [], all: [] };

/** The string leaves of a tool call's arguments, in order. Iterative: arguments may nest to any depth. */
function strings(u: unknown): string[] {
	const found: string[] = [];
	const stack: unknown[] = [u];
	for (let top = stack.pop(); top !== undefined || stack.length > 0; top = stack.pop()) {
		if (typeof top === "string") found.push(top);
		else if (Array.isArray(top)) stack.push(...[...top].reverse());
		else if (t.UnknownRecord.is(top)) stack.push(...Object.values(top).reverse());
	}
	return found;
}

function scan(entry: Entry): Scanned {
	const message = messageOf(entry);
	if (message === undefined) return NOTHING;
	switch (message.role) {
		case "user":
			return { ...NOTHING, all: valuesIn(message.text) };
		case "assistant": {
			const used = [message.text, ...message.toolCalls.flatMap((c) => strings(c.arguments))].flatMap(valuesIn);
			return { output: [], used, all: used };
		}
		case "toolResult": {
			const output = valuesIn(message.text);
			return { output, used: [], all: output };
		}
		case "bashExecution": {
			const output = valuesIn(message.output);
			return { output, used: [], all: [...output, ...valuesIn(message.command)] };
		}
	}
}

const key = (v: FoundValue) => `${v.kind}:${v.text}`;

function summaryOf(entry: Entry | undefined): string {
	const summary = entry?.raw.summary;
	return typeof summary === "string" ? summary : "";
}

/** The index of the first entry each value appears in, over the branch. */
function firstSeen(scanned: readonly Scanned[]): Map<string, number> {
	const first = new Map<string, number>();
	scanned.forEach((s, i) => {
		for (const v of s.all) if (!first.has(key(v))) first.set(key(v), i);
	});
	return first;
}

/** Values whose first appearance in `after` is a use: the model brought them from memory, not from a new read. */
function usedBeforeShown(after: readonly Scanned[]): Set<string> {
	const met = new Set<string>();
	const used = new Set<string>();
	for (const s of after) {
		for (const v of s.used) if (!met.has(key(v))) used.add(key(v));
		for (const v of s.all) met.add(key(v));
	}
	return used;
}

/**
 * The span the compaction at `k` summarized: for a Longhaul compaction, the bounds its span record gives; for any
 * other (or a record without bounds), pi 0.73.1's rule over the entries before it.
 */
function spanAt(branch: readonly Entry[], k: number, bounds: ReadonlyMap<string, SpanBounds>): SpanEntries {
	const before = branch.slice(0, k);
	const entry = branch[k];
	const derived = derivedSpan(before, keptId(entry));
	const recorded = entry === undefined ? undefined : bounds.get(entry.id);
	return (recorded === undefined ? undefined : recordedSpan(before, recorded, derived.end)) ?? derived;
}

function keptId(entry: Entry | undefined): string {
	const kept = entry?.raw.firstKeptEntryId;
	return typeof kept === "string" ? kept : "";
}

/** The span bounds Longhaul's span records give, by the compaction entry they name. */
function recordedBounds(branch: readonly Entry[]): Map<string, SpanBounds> {
	const bounds = new Map<string, SpanBounds>();
	for (const { record } of branchEvents(branch).spanRecords)
		if (record.bounds !== undefined) bounds.set(record.compactionId, record.bounds);
	return bounds;
}

/** A compaction on a branch and the values it is judged on. */
interface Candidates {
	readonly at: number;
	readonly keptPlace: Place | undefined;
	readonly reused: readonly FoundValue[];
	readonly wide: readonly FoundValue[];
}

/** Every compaction of a branch with its candidate values (see CompactionFacts). */
function candidatesOf(branch: readonly Entry[]): Candidates[] {
	const scanned = branch.map(scan);
	const first = firstSeen(scanned);
	const bounds = recordedBounds(branch);
	const out: Candidates[] = [];
	branch.forEach((entry, k) => {
		if (entry.type !== "compaction") return;
		const span = spanAt(branch, k, bounds);
		const inKeptWindow = new Set(scanned.slice(span.end, k).flatMap((s) => s.all.map(key)));
		const after = scanned.slice(k + 1);
		const usedAfter = new Set(after.flatMap((s) => s.used.map(key)));
		const firstHere = new Map<string, FoundValue>();
		for (const i of span.at)
			for (const v of scanned[i]?.output ?? []) if (first.get(key(v)) === i) firstHere.set(key(v), v);
		const wide = [...firstHere.values()].filter((v) => usedAfter.has(key(v)));
		const reusedKeys = usedBeforeShown(after);
		const reused = wide.filter((v) => !inKeptWindow.has(key(v)) && reusedKeys.has(key(v)));
		out.push({ at: k, keptPlace: placeOf(branch, keptId(entry)), reused, wide });
	});
	return out;
}

const SHOWN_IDS = /(?<![\w])(?:[RCEDXN]|u)[1-9][0-9]{0,8}(?![\w])/g;

/**
 * What one `longhaul_recall` of each id the summary of the compaction at `at` shows returns, read from the branch
 * as it stood after that compaction (its span record included).
 */
function recalledAfter(branch: readonly Entry[], at: number, summary: string): string[] {
	const next = branch.findIndex((e, i) => i > at && e.type !== "custom");
	const folded = foldBranch(branch.slice(0, next < 0 ? branch.length : next));
	const sources = { state: folded.state, spanRecords: folded.spanRecords, branch: folded.branch };
	return [...new Set(summary.match(SHOWN_IDS) ?? [])].map((ref) => recall(ref, sources));
}

/** A compaction's summary judged against candidate values (from the same branch or the recording it replays). */
function judged(candidates: Candidates, ordinal: number, branch: readonly Entry[], at: number): CompactionFacts {
	const entry = branch[at];
	const summary = summaryOf(entry);
	const recalled = recalledAfter(branch, at, summary);
	const holds = (v: FoundValue) => holdsValue(summary, v);
	return {
		ordinal,
		compactor: entry === undefined ? "other" : compactorOf(entry),
		summaryChars: summary.length,
		keptPlace: candidates.keptPlace,
		reused: candidates.reused,
		kept: candidates.reused.filter(holds),
		wide: candidates.wide,
		keptWide: candidates.wide.filter(holds),
		reachable: candidates.wide.filter((v) => holds(v) || recalled.some((text) => holdsValue(text, v))),
	};
}

function branchOfText(text: string): readonly Entry[] {
	return branchOf(readTranscript(text).entries).entries;
}

/** The facts of every compaction on the branch of a transcript's text. Pure; never throws on data. */
export function transcriptFacts(text: string): CompactionFacts[] {
	const branch = branchOfText(text);
	return candidatesOf(branch).map((c, i) => judged(c, i + 1, branch, c.at));
}

/**
 * The facts of a recording's compactions and of a replay's, each judged on the recording's values: compactors
 * compared at the same cuts. A replay that keeps from another place than the recording at any compaction, or that
 * has another number of compactions, is no comparison: the reason, in one line.
 */
export function comparedFacts(
	recorded: string,
	replayed: string,
): E.Either<string, { readonly recorded: CompactionFacts[]; readonly replayed: CompactionFacts[] }> {
	const recordedBranch = branchOfText(recorded);
	const replayBranch = branchOfText(replayed);
	const ours = candidatesOf(recordedBranch);
	const theirs = candidatesOf(replayBranch);
	if (ours.length !== theirs.length)
		return E.left(`the replay has ${theirs.length} compactions where the recording has ${ours.length}`);
	const moved = ours.findIndex((c, i) => !samePlace(c.keptPlace, theirs[i]?.keptPlace));
	if (moved >= 0)
		return E.left(
			`compaction ${moved + 1}: the replay keeps from ${placeText(theirs[moved]?.keptPlace)} where the recording keeps from ${placeText(ours[moved]?.keptPlace)}; facts compares compactors only at the same cut`,
		);
	return E.right({
		recorded: ours.map((c, i) => judged(c, i + 1, recordedBranch, c.at)),
		replayed: ours.map((c, i) => judged(c, i + 1, replayBranch, theirs[i]?.at ?? -1)),
	});
}

/** Totals of a set of compactions: how many, the counts of each column, summary characters. */
export interface FactsTotals {
	readonly compactions: number;
	readonly reused: number;
	readonly kept: number;
	readonly wide: number;
	readonly keptWide: number;
	readonly reachable: number;
	readonly summaryChars: number;
}

/** Adds up compactions' facts. */
export function totals(facts: readonly CompactionFacts[]): FactsTotals {
	const sum = (f: (c: CompactionFacts) => number) => facts.reduce((n, c) => n + f(c), 0);
	return {
		compactions: facts.length,
		reused: sum((c) => c.reused.length),
		kept: sum((c) => c.kept.length),
		wide: sum((c) => c.wide.length),
		keptWide: sum((c) => c.keptWide.length),
		reachable: sum((c) => c.reachable.length),
		summaryChars: sum((c) => c.summaryChars),
	};
}

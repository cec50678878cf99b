import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { recall } from "../adapters/recall/by-ref.js";
import {
	branchEvents,
	branchOf,
	type Entry,
	leastFitting,
	messageOf,
	readTranscript,
	type Transcript,
} from "../events/index.js";
import { derivedSpan, recordedSpan, type SpanBounds, type SpanEntries } from "../pass/span/index.js";
import { evolve, initialState } from "../reducers/index.js";
import { type Place, placeFinder, placeText, samePlace } from "./places.js";
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

interface Occurrence {
	readonly at: number;
	readonly used: boolean;
}

/** Where a value appears over the branch, in order (the entry's index, and whether it uses it there), and the
 * index of its last use. */
interface Appearances {
	readonly list: Occurrence[];
	lastUse: number;
}

type Occurrences = Map<string, Appearances>;

function occurrencesOf(scanned: readonly Scanned[]): Occurrences {
	const found: Occurrences = new Map();
	scanned.forEach((s, at) => {
		const used = new Set(s.used.map(key));
		for (const k of new Set(s.all.map(key))) {
			const appearances = found.get(k) ?? { list: [], lastUse: -1 };
			if (appearances.list.length === 0) found.set(k, appearances);
			appearances.list.push({ at, used: used.has(k) });
			if (used.has(k)) appearances.lastUse = at;
		}
	});
	return found;
}

/** The first occurrence after entry `k`, by binary search. */
function nextAfter(list: readonly Occurrence[], k: number): Occurrence | undefined {
	return list[leastFitting(list.length, (i) => (list[i]?.at ?? 0) > k)];
}

/** True when an entry after `k` uses the value. */
function usedAfter(occurrences: Occurrences, value: string, k: number): boolean {
	return (occurrences.get(value)?.lastUse ?? -1) > k;
}

/** True when the value's first appearance after `k` is a use: the model brought it from memory, not a new read. */
function usedBeforeShown(occurrences: Occurrences, value: string, k: number): boolean {
	return nextAfter(occurrences.get(value)?.list ?? [], k)?.used === true;
}

/** The span bounds Longhaul's span records give, by the compaction entry they name. */
function recordedBounds(branch: readonly Entry[]): Map<string, SpanBounds> {
	const bounds = new Map<string, SpanBounds>();
	for (const { record } of branchEvents(branch).spanRecords)
		if (record.bounds !== undefined) bounds.set(record.compactionId, record.bounds);
	return bounds;
}

function keptId(entry: Entry | undefined): string {
	const kept = entry?.raw.firstKeptEntryId;
	return typeof kept === "string" ? kept : "";
}

/**
 * The spans of a branch's compactions, one after another: for a Longhaul compaction, the bounds its span record
 * gives; for any other (or a record without bounds), pi 0.73.1's rule over the entries before it. Each span is
 * read on the entries from the earliest index it can name, so the whole branch costs its length, not its square.
 */
function spanReader(branch: readonly Entry[]): (k: number) => SpanEntries {
	const bounds = recordedBounds(branch);
	const first = new Map<string, number>();
	branch.forEach((e, i) => {
		if (!first.has(e.id)) first.set(e.id, i);
	});
	const last = new Map<string, number>();
	let passed = 0;
	let previous = -1;
	return (k) => {
		for (; passed < k; passed++) {
			const entry = branch[passed];
			if (entry === undefined) continue;
			last.set(entry.id, passed);
			if (entry.type === "compaction") previous = passed;
		}
		const lastBefore = (id: string) => last.get(id) ?? -1;
		// Where pi starts the span: the previous compaction's kept entry (its first place), or the entry after it.
		const previousKept = previous < 0 ? -1 : (first.get(keptId(branch[previous])) ?? -1);
		const start = previous < 0 ? 0 : previousKept >= 0 && previousKept < k ? previousKept : previous + 1;
		const entry = branch[k];
		const recorded = entry === undefined ? undefined : bounds.get(entry.id);
		const named = [lastBefore(keptId(entry)), lastBefore(recorded?.first ?? ""), lastBefore(recorded?.last ?? "")];
		const from = Math.min(start, ...named.filter((i) => i >= 0));
		const before = branch.slice(from, k);
		const shift = (span: SpanEntries): SpanEntries => ({ at: span.at.map((i) => i + from), end: span.end + from });
		const derived = derivedSpan(before, keptId(entry));
		const span = (recorded === undefined ? undefined : recordedSpan(before, recorded, derived.end)) ?? derived;
		return shift(span);
	};
}

/** A compaction on a branch and the values it is judged on. */
interface Candidates {
	readonly at: number;
	readonly keptPlace: Place | undefined;
	readonly reused: readonly FoundValue[];
	readonly wide: readonly FoundValue[];
}

/** Every compaction of a branch with its candidate values (see CompactionFacts). Linear in the branch's length. */
function candidatesOf(branch: readonly Entry[]): Candidates[] {
	const scanned = branch.map(scan);
	const occurrences = occurrencesOf(scanned);
	const spanAt = spanReader(branch);
	const placeOf = placeFinder(branch);
	const out: Candidates[] = [];
	branch.forEach((entry, k) => {
		if (entry.type !== "compaction") return;
		const span = spanAt(k);
		const inKeptWindow = new Set(scanned.slice(span.end, k).flatMap((s) => s.all.map(key)));
		const firstHere = new Map<string, FoundValue>();
		for (const i of span.at)
			for (const v of scanned[i]?.output ?? [])
				if (occurrences.get(key(v))?.list[0]?.at === i) firstHere.set(key(v), v);
		const wide = [...firstHere.values()].filter((v) => usedAfter(occurrences, key(v), k));
		const reused = wide.filter((v) => !inKeptWindow.has(key(v)) && usedBeforeShown(occurrences, key(v), k));
		out.push({ at: k, keptPlace: placeOf(keptId(entry)), reused, wide });
	});
	return out;
}

const SHOWN_IDS = /(?<![\w])(?:[RCEDXN]|u)[1-9][0-9]{0,8}(?![\w])/g;

/**
 * What one `longhaul_recall` of each id a compaction's summary shows returns, read from the branch as it stood
 * after that compaction (its span record included). The state is folded on as the compactions come, in order.
 */
function recaller(branch: readonly Entry[]): (at: number, summary: string) => string[] {
	const perEntry = branch.map((entry) => branchEvents([entry]));
	let folded = 0;
	let state = initialState;
	return (at, summary) => {
		const refs = [...new Set(summary.match(SHOWN_IDS) ?? [])];
		if (refs.length === 0) return [];
		let next = at + 1;
		while (next < branch.length && branch[next]?.type === "custom") next++;
		if (next < folded) {
			folded = 0;
			state = initialState;
		}
		state = evolve(
			state,
			perEntry.slice(folded, next).flatMap((found) => found.events),
		);
		folded = next;
		const spanRecords = perEntry.slice(0, next).flatMap((found) => found.spanRecords);
		const sources = { state, spanRecords, branch: branch.slice(0, next) };
		return refs.map((ref) => recall(ref, sources));
	};
}

/** A compaction's summary judged against candidate values (from the same branch or the recording it replays). */
function judged(
	candidates: Candidates,
	ordinal: number,
	branch: readonly Entry[],
	at: number,
	recalledAfter: (at: number, summary: string) => string[],
): CompactionFacts {
	const entry = branch[at];
	const summary = summaryOf(entry);
	const recalled = recalledAfter(at, summary);
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

/** The branch of a transcript: its text, or read already (a file streamed line by line). */
function branchOfSource(source: string | Transcript): readonly Entry[] {
	return branchOf((typeof source === "string" ? readTranscript(source) : source).entries).entries;
}

/** The facts of every compaction on the branch of a transcript. Pure; never throws on data. */
export function transcriptFacts(source: string | Transcript): CompactionFacts[] {
	const branch = branchOfSource(source);
	const recalled = recaller(branch);
	return candidatesOf(branch).map((c, i) => judged(c, i + 1, branch, c.at, recalled));
}

/**
 * The facts of a recording's compactions and of a replay's, each judged on the recording's values: compactors
 * compared at the same cuts. A replay that keeps from another place than the recording at any compaction, or that
 * has another number of compactions, is no comparison: the reason, in one line.
 */
export function comparedFacts(
	recorded: string | Transcript,
	replayed: string | Transcript,
): E.Either<string, { readonly recorded: CompactionFacts[]; readonly replayed: CompactionFacts[] }> {
	const recordedBranch = branchOfSource(recorded);
	const replayBranch = branchOfSource(replayed);
	const ours = candidatesOf(recordedBranch);
	const theirs = candidatesOf(replayBranch);
	if (ours.length !== theirs.length)
		return E.left(`the replay has ${theirs.length} compactions where the recording has ${ours.length}`);
	const moved = ours.findIndex((c, i) => !samePlace(c.keptPlace, theirs[i]?.keptPlace));
	if (moved >= 0)
		return E.left(
			`compaction ${moved + 1}: the replay keeps from ${placeText(theirs[moved]?.keptPlace)} where the recording keeps from ${placeText(ours[moved]?.keptPlace)}; facts compares compactors only at the same cut`,
		);
	const recalledRecorded = recaller(recordedBranch);
	const recalledReplay = recaller(replayBranch);
	return E.right({
		recorded: ours.map((c, i) => judged(c, i + 1, recordedBranch, c.at, recalledRecorded)),
		replayed: ours.map((c, i) => judged(c, i + 1, replayBranch, theirs[i]?.at ?? -1, recalledReplay)),
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

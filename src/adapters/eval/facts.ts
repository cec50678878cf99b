import * as t from "io-ts";
import { branchOf } from "../../events/branch.js";
import { branchEvents } from "../../events/branch-events.js";
import { messageOf } from "../../events/messages.js";
import { type Entry, readTranscript } from "../../events/transcript.js";
import { derivedSpan, recordedSpan, type SpanBounds, type SpanEntries } from "../../pass/span.js";
import { type Compactor, compactorOf } from "./recording.js";
import { type FoundValue, holdsValue, type ValueKind, valuesIn } from "./values.js";

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
	/** Values first seen in the span's tool output, absent from the kept window, used after the compaction before any
	 * later message showed them again. */
	readonly reused: readonly FoundValue[];
	/** Those the summary holds verbatim. */
	readonly kept: readonly FoundValue[];
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

/** The string leaves of a tool call's arguments. */
function strings(u: unknown): string[] {
	if (typeof u === "string") return [u];
	if (Array.isArray(u)) return u.flatMap(strings);
	if (t.UnknownRecord.is(u)) return Object.values(u).flatMap(strings);
	return [];
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

function summaryOf(entry: Entry): string {
	const summary = entry.raw.summary;
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
	const firstKept = entry?.raw.firstKeptEntryId;
	const derived = derivedSpan(before, typeof firstKept === "string" ? firstKept : "");
	const recorded = entry === undefined ? undefined : bounds.get(entry.id);
	return (recorded === undefined ? undefined : recordedSpan(before, recorded, derived.end)) ?? derived;
}

/** The span bounds Longhaul's span records give, by the compaction entry they name. */
function recordedBounds(branch: readonly Entry[]): Map<string, SpanBounds> {
	const bounds = new Map<string, SpanBounds>();
	for (const { record } of branchEvents(branch).spanRecords)
		if (record.bounds !== undefined) bounds.set(record.compactionId, record.bounds);
	return bounds;
}

/** The facts of every compaction on the branch of a transcript's text. Pure; never throws on data. */
export function transcriptFacts(text: string): CompactionFacts[] {
	const branch = branchOf(readTranscript(text).entries).entries;
	const scanned = branch.map(scan);
	const first = firstSeen(scanned);
	const bounds = recordedBounds(branch);
	const facts: CompactionFacts[] = [];
	branch.forEach((entry, k) => {
		if (entry.type !== "compaction") return;
		const span = spanAt(branch, k, bounds);
		const inKeptWindow = new Set(scanned.slice(span.end, k).flatMap((s) => s.all.map(key)));
		const usedAfter = usedBeforeShown(scanned.slice(k + 1));
		const candidates = new Map<string, FoundValue>();
		for (const i of span.at)
			for (const v of scanned[i]?.output ?? []) if (first.get(key(v)) === i) candidates.set(key(v), v);
		const reused = [...candidates.values()].filter((v) => !inKeptWindow.has(key(v)) && usedAfter.has(key(v)));
		const summary = summaryOf(entry);
		const kept = reused.filter((v) => holdsValue(summary, v));
		facts.push({
			ordinal: facts.length + 1,
			compactor: compactorOf(entry),
			summaryChars: summary.length,
			reused,
			kept,
		});
	});
	return facts;
}

/** Totals of a set of compactions: how many, values reused and kept (also by kind), summary characters. */
export interface FactsTotals {
	readonly compactions: number;
	readonly reused: number;
	readonly kept: number;
	readonly summaryChars: number;
	readonly byKind: Readonly<Record<ValueKind, { readonly reused: number; readonly kept: number }>>;
}

/** Adds up compactions' facts. */
export function totals(facts: readonly CompactionFacts[]): FactsTotals {
	const byKind: Record<ValueKind, { reused: number; kept: number }> = {
		quantity: { reused: 0, kept: 0 },
		port: { reused: 0, kept: 0 },
		hash: { reused: 0, kept: 0 },
		version: { reused: 0, kept: 0 },
		path: { reused: 0, kept: 0 },
	};
	for (const f of facts) {
		for (const v of f.reused) byKind[v.kind].reused++;
		for (const v of f.kept) byKind[v.kind].kept++;
	}
	return {
		compactions: facts.length,
		reused: facts.reduce((n, f) => n + f.reused.length, 0),
		kept: facts.reduce((n, f) => n + f.kept.length, 0),
		summaryChars: facts.reduce((n, f) => n + f.summaryChars, 0),
		byKind,
	};
}

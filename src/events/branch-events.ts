import * as E from "fp-ts/lib/Either.js";
import {
	CompactionDetailsCodec,
	decodeWith,
	EVENT_ENTRY_TYPE,
	EventEntryCodec,
	LINE_ENTRY_TYPE,
	LineCodec,
	newerFormat,
	SPAN_ENTRY_TYPE,
	SPAN_RECORD_VERSION,
	type SpanRecord,
	SpanRecordCodec,
	type StoredEvent,
} from "./entries.js";
import { decodeEvent, type Event } from "./event.js";
import { isRecord } from "./is-record.js";
import type { Entry } from "./transcript.js";

/** An event with the entry that carried it and its sequence number (none for events the fold makes itself). */
export interface Located {
	readonly entry: string;
	readonly seq: number | null;
	readonly event: Event;
}

/** A span record with the entry that holds it. */
export interface LocatedSpanRecord {
	readonly entry: string;
	readonly record: SpanRecord;
}

/** What the branch's entries say, in branch order. */
export interface BranchEvents {
	readonly events: readonly Located[];
	readonly spanRecords: readonly LocatedSpanRecord[];
}

function anomaly(entry: string, reason: string): Located {
	return { entry, seq: null, event: { type: "anomaly", data: { entry, reason } } };
}

function stored(entry: string, s: StoredEvent): Located {
	const event = decodeEvent(s.event);
	return E.isRight(event) ? { entry, seq: s.seq, event: event.right } : anomaly(entry, `seq ${s.seq}: ${event.left}`);
}

function compactionEvents(entry: Entry): Located[] {
	const details = entry.raw.details;
	const refused = newerFormat(details);
	if (refused !== undefined) return [anomaly(entry.id, `compaction details: ${refused}`)];
	if (isRecord(details) && details.longhaul === true) {
		const decoded = decodeWith(CompactionDetailsCodec, "Longhaul compaction details", details);
		if (E.isLeft(decoded)) return [anomaly(entry.id, decoded.left)];
		return decoded.right.events.map((s) => stored(entry.id, s));
	}
	const summary = entry.raw.summary;
	const summaryChars = typeof summary === "string" ? summary.length : 0;
	const fromHook = entry.raw.fromHook === true;
	return [
		{
			entry: entry.id,
			seq: null,
			event: { type: "foreign-compaction-seen", data: { entry: entry.id, summaryChars, fromHook } },
		},
	];
}

function customEvents(entry: Entry, spanRecords: LocatedSpanRecord[]): Located[] {
	const data = entry.raw.data;
	switch (entry.raw.customType) {
		case EVENT_ENTRY_TYPE: {
			const refused = newerFormat(data);
			if (refused !== undefined) return [anomaly(entry.id, `${EVENT_ENTRY_TYPE}: ${refused}`)];
			const decoded = decodeWith(EventEntryCodec, EVENT_ENTRY_TYPE, data);
			return E.isLeft(decoded) ? [anomaly(entry.id, decoded.left)] : [stored(entry.id, decoded.right)];
		}
		case SPAN_ENTRY_TYPE: {
			if (!isRecord(data) || data.v !== SPAN_RECORD_VERSION) return [];
			const decoded = decodeWith(SpanRecordCodec, SPAN_ENTRY_TYPE, data);
			if (E.isLeft(decoded)) return [anomaly(entry.id, decoded.left)];
			spanRecords.push({ entry: entry.id, record: decoded.right });
			return [];
		}
		case LINE_ENTRY_TYPE: {
			const refused = newerFormat(data);
			if (refused !== undefined) return [anomaly(entry.id, `${LINE_ENTRY_TYPE}: ${refused}`)];
			const decoded = decodeWith(LineCodec, LINE_ENTRY_TYPE, data);
			return E.isLeft(decoded) ? [anomaly(entry.id, decoded.left)] : [];
		}
		default:
			return [];
	}
}

/** Reads the state events a branch holds: Longhaul's compactions and custom entries; foreign compactions are listed. */
export function branchEvents(entries: readonly Entry[]): BranchEvents {
	const events: Located[] = [];
	const spanRecords: LocatedSpanRecord[] = [];
	for (const entry of entries) {
		const found =
			entry.type === "compaction"
				? compactionEvents(entry)
				: entry.type === "custom"
					? customEvents(entry, spanRecords)
					: [];
		for (const located of found) events.push(located);
	}
	return { events, spanRecords };
}

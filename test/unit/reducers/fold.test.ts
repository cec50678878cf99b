import { describe, expect, it } from "vitest";
import { type Event, encodeEvent } from "../../../src/events/index.js";
import { foldEntries, foldTranscript, stateAtSpan } from "../../../src/reducers/index.js";
import * as ev from "../../support/events.js";
import { compactionOf, type EntrySpec, place, transcriptText } from "../../support/transcript.js";

// Given a branch of entries, when it is folded, then this state: what each kind of entry contributes.

const eventEntry = (event: Event): EntrySpec => ({ kind: "event-entry", event });
const raw = (value: Record<string, unknown>): EntrySpec => ({ kind: "raw", value });
/** A Longhaul compaction of span 1, written raw, whose details carry these stored events as they are. */
const storedEvents = (events: readonly { seq: number; event: unknown }[]): EntrySpec =>
	raw({
		type: "compaction",
		summary: "s",
		firstKeptEntryId: "e1",
		tokensBefore: 1,
		details: { stateFormat: 1, longhaul: true, span: 1, events },
	});
const fold = (...specs: EntrySpec[]) => foldTranscript(transcriptText(place(specs)));

const line = (value: Record<string, unknown>): string => JSON.stringify(value);
const header = line({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/w" });
const message = (id: string, parentId: string | null, text: string) =>
	line({ type: "message", id, parentId, message: { role: "user", content: text } });

describe("Longhaul compactions and event entries", () => {
	it("a compaction's events and the event entries after it fold in branch order, with their seqs", () => {
		const folded = fold(
			{ kind: "user", text: "never push" },
			compactionOf(1, [ev.ruleAdded("never push", "u1"), ev.spanClosed(1)]),
			eventEntry(ev.note("port 5433")),
			{ kind: "user", text: "always lint; never push no longer applies", id: "m2" },
			compactionOf(2, [ev.ruleAdded("always lint", "u2"), ev.ruleLifted("R1", "u2"), ev.spanClosed(2)]),
		);
		expect(folded.state.rules).toEqual([{ id: "R2", text: "always lint", source: "u2" }]);
		expect(folded.state.lifted.map((r) => r.id)).toEqual(["R1"]);
		expect(folded.state.notes).toEqual([{ id: "N1", text: "port 5433" }]);
		expect(folded.state.spans).toBe(2);
		expect(folded.state.lastSeq).toBe(6);
		expect(folded.events.map((l) => [l.entry, l.seq, l.event.type])).toEqual([
			["e2", 1, "rule-added"],
			["e2", 2, "span-closed"],
			["e3", 3, "note-remembered"],
			["e4", 4, "rule-added"],
			["e4", 5, "rule-lifted"],
			["e4", 6, "span-closed"],
		]);
		expect(folded.state.anomalies).toEqual([]);
	});

	it("ids R, D, X, N follow fold order over the whole branch, never the seq written", () => {
		const folded = fold(
			storedEvents([
				{ seq: 9, event: encodeEvent(ev.note("second written, first folded")) },
				{ seq: 3, event: encodeEvent(ev.note("first written")) },
			]),
		);
		expect(folded.state.notes.map((n) => [n.id, n.text])).toEqual([
			["N1", "second written, first folded"],
			["N2", "first written"],
		]);
		expect(folded.state.lastSeq).toBe(9);
	});

	it("a stored event that fails its codec is an anomaly naming its seq; the others still fold", () => {
		const folded = fold(
			storedEvents([
				// A rule whose words are no string: the codec must refuse it, so no builder writes it.
				{ seq: 1, event: { type: "rule-added", data: { words: 5, source: "u1" } } },
				{ seq: 2, event: { type: "no-such-kind", data: {} } },
				{ seq: 3, event: encodeEvent(ev.note("kept")) },
				{ seq: 4, event: "not an object" },
			]),
		);
		expect(folded.state.anomalies).toEqual([
			{ entry: "e1", reason: "seq 1: event rule-added failed its codec" },
			{ entry: "e1", reason: "seq 2: unknown event type no-such-kind" },
			{ entry: "e1", reason: "seq 4: event is not an object" },
		]);
		expect(folded.state.notes.map((n) => n.text)).toEqual(["kept"]);
	});

	it("an unknown event type is named by at most 80 characters, a non-string type by its JS type", () => {
		const long = "x".repeat(200);
		const folded = fold(
			raw({
				type: "custom",
				customType: "compaction-state.event",
				data: { stateFormat: 1, seq: 1, event: { type: long } },
			}),
			raw({
				type: "custom",
				customType: "compaction-state.event",
				data: { stateFormat: 1, seq: 2, event: { type: 7 } },
			}),
			raw({ type: "custom", customType: "compaction-state.event", data: { stateFormat: 1, seq: 3, event: {} } }),
		);
		expect(folded.state.anomalies).toEqual([
			{ entry: "e1", reason: `seq 1: unknown event type ${"x".repeat(80)}` },
			{ entry: "e2", reason: "seq 2: unknown event type number" },
			{ entry: "e3", reason: "seq 3: unknown event type undefined" },
		]);
	});

	it("Longhaul compaction details that fail their codec are one anomaly and no events", () => {
		const folded = fold(
			raw({
				type: "compaction",
				summary: "s",
				firstKeptEntryId: "e1",
				tokensBefore: 1,
				details: { stateFormat: 1, longhaul: true, span: 0, events: [] },
			}),
		);
		expect(folded.events.map((l) => l.event)).toEqual([
			ev.anomaly("e1", "Longhaul compaction details failed its codec"),
		]);
		expect(folded.state.foreign).toEqual([]);
	});

	it("an event entry that fails its codec, or is of a newer format, is an anomaly and nothing else", () => {
		const folded = fold(
			raw({ type: "custom", customType: "compaction-state.event", data: { stateFormat: 1, seq: 0, event: {} } }),
			raw({
				type: "custom",
				customType: "compaction-state.event",
				data: { stateFormat: 2, seq: 1, event: encodeEvent(ev.note("n")) },
			}),
		);
		expect(folded.state.anomalies).toEqual([
			{ entry: "e1", reason: "compaction-state.event failed its codec" },
			{ entry: "e2", reason: "compaction-state.event: stateFormat 2 is newer than 1; refused" },
		]);
		expect(folded.state.notes).toEqual([]);
	});

	it("a compaction of a newer state format is refused with an anomaly, not read as foreign", () => {
		const folded = fold(
			raw({ type: "compaction", summary: "s", firstKeptEntryId: "e1", tokensBefore: 1, details: { stateFormat: 5 } }),
		);
		expect(folded.state.anomalies).toEqual([
			{ entry: "e1", reason: "compaction details: stateFormat 5 is newer than 1; refused" },
		]);
		expect(folded.state.foreign).toEqual([]);
	});

	it("a stateFormat that is not a number, or not newer, is not refused", () => {
		const folded = fold(
			raw({
				type: "custom",
				customType: "compaction-state.line",
				data: { stateFormat: "9", fallback: "x" },
			}),
			raw({ type: "custom", customType: "compaction-state.line", data: { stateFormat: 1, fallback: "x" } }),
		);
		expect(folded.state.anomalies).toEqual([{ entry: "e1", reason: "compaction-state.line failed its codec" }]);
	});
});

describe("foreign compactions", () => {
	it("a compaction not Longhaul's is listed with its summary's length and whether an extension wrote it", () => {
		const folded = fold(
			{ kind: "foreign-compaction", summary: "pi's own summary" },
			raw({ type: "compaction", summary: "by an extension", firstKeptEntryId: "e1", tokensBefore: 1, fromHook: true }),
			raw({ type: "compaction", summary: 42, firstKeptEntryId: "e1", tokensBefore: 1, fromHook: "yes" }),
			raw({ type: "compaction", summary: "s", details: { longhaul: "true" }, firstKeptEntryId: "e1", tokensBefore: 1 }),
		);
		expect(folded.state.foreign).toEqual([
			{ entry: "e1", summaryChars: 16, fromHook: false },
			{ entry: "e2", summaryChars: 15, fromHook: true },
			{ entry: "e3", summaryChars: 0, fromHook: false },
			{ entry: "e4", summaryChars: 1, fromHook: false },
		]);
		expect(folded.state.anomalies).toEqual([]);
		expect(folded.events.every((l) => l.seq === null)).toBe(true);
	});

	it("a foreign compaction between two of Longhaul's leaves the state the passes built", () => {
		const folded = fold(
			{ kind: "user", text: "never push", id: "m1" },
			compactionOf(1, [ev.ruleAdded("never push", "u1"), ev.spanClosed(1)]),
			{ kind: "foreign-compaction", summary: "x" },
			compactionOf(2, [ev.note("n"), ev.spanClosed(2)]),
		);
		expect(folded.state.rules.map((r) => r.text)).toEqual(["never push"]);
		expect(folded.state.notes.map((n) => n.id)).toEqual(["N1"]);
		expect(folded.state.foreign.map((f) => f.entry)).toEqual(["e2"]);
		expect(folded.state.spans).toBe(2);
	});
});

describe("custom entries", () => {
	it("span records of version 1 are collected with their entry; a bad one is an anomaly", () => {
		const folded = fold(
			{ kind: "span-record", span: 1, v: 1 },
			raw({ type: "custom", customType: "compaction-state.span", data: { v: 1, span: 0, compactionId: "c" } }),
			raw({ type: "custom", customType: "compaction-state.span", data: "nope" }),
			raw({
				type: "custom",
				customType: "compaction-state.span",
				data: { v: 1, span: 2, compactionId: "c2", chunks: 3, labels: [{ msg: "u1", label: "rule" }] },
			}),
		);
		expect(folded.spanRecords).toEqual([
			{ entry: "e1", record: { v: 1, span: 1, compactionId: "x" } },
			{ entry: "e4", record: { v: 1, span: 2, compactionId: "c2", chunks: 3, labels: [{ msg: "u1", label: "rule" }] } },
		]);
		expect(folded.state.anomalies).toEqual([{ entry: "e2", reason: "compaction-state.span failed its codec" }]);
	});

	it("a valid compaction line folds to nothing; other custom types and message entries fold to nothing", () => {
		const folded = fold(
			raw({
				type: "custom",
				customType: "compaction-state.line",
				data: { stateFormat: 1, ms: 5, span: 1, calls: 2, tokens: 3 },
			}),
			raw({ type: "custom", customType: "someone-else", data: { type: "rule-added" } }),
			raw({ type: "custom_message", customType: "compaction-state.event", data: {} }),
			{ kind: "user", text: "never push" },
		);
		expect(folded.events).toEqual([]);
		expect(folded.state.rules).toEqual([]);
	});

	it("a compaction line of a newer format is refused with an anomaly", () => {
		const folded = fold(
			raw({ type: "custom", customType: "compaction-state.line", data: { stateFormat: 2, fallback: "x" } }),
		);
		expect(folded.state.anomalies).toEqual([
			{ entry: "e1", reason: "compaction-state.line: stateFormat 2 is newer than 1; refused" },
		]);
	});
});

describe("the branch", () => {
	it("only the entries on the branch of the last entry fold: a sibling branch's events are not seen", () => {
		const text = [
			header,
			message("a", null, "never push"),
			line({
				type: "custom",
				customType: "compaction-state.event",
				id: "b",
				parentId: "a",
				data: { stateFormat: 1, seq: 1, event: encodeEvent(ev.note("on the old branch")) },
			}),
			line({
				type: "custom",
				customType: "compaction-state.event",
				id: "c",
				parentId: "a",
				data: { stateFormat: 1, seq: 1, event: encodeEvent(ev.note("on the new branch")) },
			}),
		].join("\n");
		const folded = foldTranscript(`${text}\n`);
		expect(folded.branch.map((e) => e.id)).toEqual(["a", "c"]);
		expect(folded.state.notes).toEqual([{ id: "N1", text: "on the new branch" }]);
	});

	it("anomalies met while reading come before the branch's own events", () => {
		const text = [
			header,
			"{not json",
			"[1]",
			message("a", null, "x"),
			line({ type: "message", parentId: "a" }),
			line({ type: "message", id: "z", parentId: 5 }),
			line({
				type: "custom",
				customType: "compaction-state.event",
				id: "b",
				parentId: "a",
				data: { stateFormat: 1, seq: 1, event: ev.anomaly("x", "stored") },
			}),
		].join("\n");
		const folded = foldTranscript(`${text}\n`);
		expect(folded.state.anomalies).toEqual([
			{ entry: "line 2", reason: "malformed JSON" },
			{ entry: "line 3", reason: "line is not a JSON object" },
			{ entry: "line 5", reason: "entry has no id" },
			{ entry: "z", reason: "entry has no valid parentId" },
			{ entry: "x", reason: "stored" },
		]);
	});

	it("a missing parent ends the branch with an anomaly; a duplicate id uses the later entry", () => {
		const text = [
			header,
			message("a", null, "first"),
			message("a", null, "again"),
			message("c", "gone", "orphan"),
		].join("\n");
		const folded = foldTranscript(`${text}\n`);
		expect(folded.branch.map((e) => e.id)).toEqual(["c"]);
		expect(folded.state.anomalies).toEqual([
			{ entry: "a", reason: "duplicate id; the later entry is used" },
			{ entry: "gone", reason: "parent entry is missing; the branch stops here" },
		]);
	});

	it("a torn last line (no newline, not JSON) is dropped without an anomaly; a whole one without newline is read", () => {
		const torn = foldTranscript(`${header}\n${message("a", null, "x")}\n{"type":"mess`);
		expect(torn.branch.map((e) => e.id)).toEqual(["a"]);
		expect(torn.state.anomalies).toEqual([]);
		const whole = foldTranscript(`${header}\n${message("a", null, "x")}\n${message("b", "a", "y")}`);
		expect(whole.branch.map((e) => e.id)).toEqual(["a", "b"]);
	});

	it("blank lines are skipped; an empty file folds to the initial state", () => {
		const folded = foldTranscript(`${header}\n\n   \n${message("a", null, "x")}\n\n`);
		expect(folded.branch.map((e) => e.id)).toEqual(["a"]);
		expect(folded.state.anomalies).toEqual([]);
		expect(foldTranscript("").state.spans).toBe(0);
		expect(foldTranscript("").branch).toEqual([]);
	});

	it("a v2 file's hookMessage role is read as v3's custom; a v3 file's is left as written", () => {
		const hook = (version: number) =>
			foldTranscript(
				`${line({ type: "session", version, id: "s" })}\n${line({ type: "message", id: "a", parentId: null, message: { role: "hookMessage", content: "x" } })}\n`,
			).branch[0]?.raw.message;
		expect(hook(2)).toEqual({ role: "custom", content: "x" });
		expect(hook(3)).toEqual({ role: "hookMessage", content: "x" });
	});

	it("a v1 compaction keeps its first kept entry by line when that line is an entry", () => {
		const lines = [
			line({ type: "session", id: "s" }),
			line({ type: "message", message: { role: "user", content: "a" } }),
			line({ type: "message", message: { role: "user", content: "b" } }),
			line({ type: "compaction", summary: "s", firstKeptEntryIndex: 2, tokensBefore: 5 }),
			line({ type: "compaction", summary: "s", firstKeptEntryIndex: 0, tokensBefore: 5 }),
			line({ type: "compaction", summary: "s", firstKeptEntryIndex: 1.5, tokensBefore: 5 }),
		];
		const folded = foldTranscript(`${lines.join("\n")}\n`);
		expect(folded.branch.map((e) => [e.id, e.raw.firstKeptEntryId])).toEqual([
			["L2", undefined],
			["L3", undefined],
			["L4", "L3"],
			["L5", undefined],
			["L6", undefined],
		]);
	});
});

describe("folding pi's entries in memory", () => {
	it("entries pi holds fold as the same bytes would, and what is not an object is an anomaly", () => {
		const entries = [
			{ type: "message", id: "a", parentId: null, message: { role: "user", content: "x" } },
			"junk",
			{
				type: "custom",
				customType: "compaction-state.event",
				id: "b",
				parentId: "a",
				data: { stateFormat: 1, seq: 1, event: encodeEvent(ev.note("n")) },
			},
			{ type: "message", id: "", parentId: "b" },
		];
		const folded = foldEntries(entries);
		expect(folded.state.notes).toEqual([{ id: "N1", text: "n" }]);
		expect(folded.state.anomalies).toEqual([
			{ entry: "entry 2", reason: "entry is not an object" },
			{ entry: "line 4", reason: "entry has no id" },
		]);
	});
});

describe("the state at a span", () => {
	it("is the fold up to that span's close, including the rest of the closing entry, and nothing after", () => {
		const folded = fold(
			{ kind: "user", text: "a", id: "m1" },
			compactionOf(1, [ev.ruleAdded("a", "u1"), ev.spanClosed(1), ev.note("after the close, same entry")]),
			eventEntry(ev.note("later")),
			compactionOf(2, [
				ev.command("C1", "ls"),
				ev.errorRecorded("E1", "x"),
				ev.errorFixed("E1", "C1"),
				ev.spanClosed(2),
			]),
		);
		const first = stateAtSpan(folded, 1);
		expect(first?.notes.map((n) => n.text)).toEqual(["after the close, same entry"]);
		expect(first?.rules.map((r) => r.id)).toEqual(["R1"]);
		expect(first?.commands).toEqual([]);
		expect(first?.spans).toBe(1);
		expect(stateAtSpan(folded, 2)).toEqual(folded.state);
		expect(stateAtSpan(folded, 3)).toBeUndefined();
	});

	it("ends at the span's close, not at an earlier event that names the same span", () => {
		const folded = fold(
			eventEntry(ev.narrative(1, "before the pass")),
			{ kind: "user", text: "a", id: "m1" },
			compactionOf(1, [ev.ruleAdded("a", "u1"), ev.spanClosed(1)]),
		);
		expect(stateAtSpan(folded, 1)?.rules.map((r) => r.text)).toEqual(["a"]);
	});
});

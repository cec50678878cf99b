import { describe, expect, it } from "vitest";
import {
	type CompactionEffect,
	type CompactionEvent,
	idle,
	nextPending,
	type PendingCompaction,
	type ReturnedPass,
} from "../../../../src/adapters/pi/pending-compaction.js";

const pass: ReturnedPass = {
	span: 3,
	spanRecord: { v: 1, span: 3 },
	calls: [
		{ inputTokens: 10.4, outputTokens: 5.2 },
		{ inputTokens: 1, outputTokens: 2 },
	],
};
const laterPass: ReturnedPass = { span: 4, spanRecord: { v: 1, span: 4 }, calls: [] };

const states = {
	idle,
	"pi-compacting": { kind: "pi-compacting" },
	passing: { kind: "passing" },
	passed: { kind: "passed", started: 1000, pass },
	"fell-back": { kind: "fell-back", errorClass: "TypeError" },
} satisfies Record<PendingCompaction["kind"], PendingCompaction>;

const stored = (fromExtension: boolean): Extract<CompactionEvent, { type: "stored" }> => ({
	type: "stored",
	fromExtension,
	compactionId: "c9",
	summaryChars: 120,
	tokensBefore: 5000.6,
	now: 1250,
});
const events = {
	"began with a pass": { type: "began", pass: true },
	"began left to pi": { type: "began", pass: false },
	"pass-returned": { type: "pass-returned", started: 2000, pass: laterPass },
	"pass-threw": { type: "pass-threw", errorClass: "RangeError" },
	"pass-aborted": { type: "pass-aborted" },
	"pi-failed": { type: "pi-failed", reason: "compaction-error" },
	"went-on": { type: "went-on" },
	"stored from an extension": stored(true),
	"stored by pi": stored(false),
} satisfies Record<string, CompactionEvent>;

const failed = (reason: string, span: number | null): CompactionEffect => ({ kind: "compact-failed", reason, span });
const compacted = (
	fromExtension: boolean,
	reason: "longhaul" | "fallback" | "pi",
	span: number | null,
): Extract<CompactionEffect, { kind: "compacted" }> => ({
	kind: "compacted",
	fromExtension,
	reason,
	span,
	summaryChars: 120,
	tokensBefore: 5001,
});
const spanRecord: CompactionEffect = { kind: "span-record", record: { v: 1, span: 3, compactionId: "c9" } };
const passLine: CompactionEffect = { kind: "line", line: { stateFormat: 1, ms: 250, span: 3, calls: 2, tokens: 19 } };
const fallbackLine: CompactionEffect = { kind: "line", line: { stateFormat: 1, fallback: "TypeError" } };

const returned: PendingCompaction = { kind: "passed", started: 2000, pass: laterPass };
const threw: PendingCompaction = { kind: "fell-back", errorClass: "RangeError" };
const noEntry = "no-compaction-entry";

type Row = [keyof typeof states, keyof typeof events, PendingCompaction, CompactionEffect[]];
/** Every event from every state: the state after it, and the effects to perform. */
const table: Row[] = [
	["idle", "began with a pass", states.passing, []],
	["idle", "began left to pi", states["pi-compacting"], []],
	["idle", "pass-returned", returned, []],
	["idle", "pass-threw", threw, []],
	["idle", "pass-aborted", idle, []],
	["idle", "pi-failed", idle, []],
	["idle", "went-on", idle, []],
	["idle", "stored from an extension", idle, [compacted(true, "pi", null)]],
	["idle", "stored by pi", idle, [compacted(false, "pi", null)]],

	["pi-compacting", "began with a pass", states.passing, [failed(noEntry, null)]],
	["pi-compacting", "began left to pi", states["pi-compacting"], [failed(noEntry, null)]],
	["pi-compacting", "pass-returned", returned, []],
	["pi-compacting", "pass-threw", threw, []],
	["pi-compacting", "pass-aborted", idle, []],
	["pi-compacting", "pi-failed", idle, [failed("compaction-error", null)]],
	["pi-compacting", "went-on", idle, [failed(noEntry, null)]],
	["pi-compacting", "stored from an extension", idle, [compacted(true, "pi", null)]],
	["pi-compacting", "stored by pi", idle, [compacted(false, "pi", null)]],

	["passing", "began with a pass", states.passing, [failed(noEntry, null)]],
	["passing", "began left to pi", states["pi-compacting"], [failed(noEntry, null)]],
	["passing", "pass-returned", returned, []],
	["passing", "pass-threw", threw, []],
	["passing", "pass-aborted", idle, []],
	// pi fails a compaction only after its handlers answered: a failure reported while the pass runs is another's.
	["passing", "pi-failed", states.passing, []],
	// An input while the pass runs (pi 0.73's prompt() sends one during a compaction): the compaction has not ended.
	["passing", "went-on", states.passing, []],
	["passing", "stored from an extension", idle, [compacted(true, "pi", null)]],
	["passing", "stored by pi", idle, [compacted(false, "pi", null)]],

	["passed", "began with a pass", states.passing, [failed(noEntry, 3)]],
	["passed", "began left to pi", states["pi-compacting"], [failed(noEntry, 3)]],
	["passed", "pass-returned", returned, []],
	["passed", "pass-threw", threw, []],
	["passed", "pass-aborted", idle, []],
	["passed", "pi-failed", idle, [failed("compaction-error", 3)]],
	["passed", "went-on", idle, [failed(noEntry, 3)]],
	["passed", "stored from an extension", idle, [compacted(true, "longhaul", 3), spanRecord, passLine]],
	["passed", "stored by pi", idle, [compacted(false, "pi", null)]],

	["fell-back", "began with a pass", states.passing, [failed(noEntry, null)]],
	["fell-back", "began left to pi", states["pi-compacting"], [failed(noEntry, null)]],
	["fell-back", "pass-returned", returned, []],
	["fell-back", "pass-threw", threw, []],
	["fell-back", "pass-aborted", idle, []],
	["fell-back", "pi-failed", idle, [failed("compaction-error", null)]],
	["fell-back", "went-on", idle, [failed(noEntry, null)]],
	["fell-back", "stored from an extension", idle, [compacted(true, "fallback", null), fallbackLine]],
	["fell-back", "stored by pi", idle, [compacted(false, "fallback", null), fallbackLine]],
];

describe("the pending compaction's transitions", () => {
	it("the table holds every event from every state once", () => {
		const pairs = new Set(table.map(([state, event]) => `${state} / ${event}`));
		expect(pairs.size).toBe(table.length);
		expect(table).toHaveLength(Object.keys(states).length * Object.keys(events).length);
	});

	it.each(table)("from %s, %s", (state, event, after, effects) => {
		expect(nextPending(states[state], events[event])).toEqual({ state: after, effects });
	});
});

/** The effects of `sequence` from idle, in order, and the state it ends in. */
function run(sequence: readonly CompactionEvent[]) {
	let state: PendingCompaction = idle;
	const effects: CompactionEffect[] = [];
	for (const event of sequence) {
		const step = nextPending(state, event);
		state = step.state;
		effects.push(...step.effects);
	}
	return { state, effects };
}

describe("compactions as pi's hooks report them", () => {
	const returnedPass: CompactionEvent = { type: "pass-returned", started: 1000, pass };

	it("a failure pi reports while the pass runs is ignored: the pass's compaction is stored as Longhaul's", () => {
		const another: CompactionEvent = { type: "pi-failed", reason: "compaction-aborted" };
		const { state, effects } = run([events["began with a pass"], another, returnedPass, stored(true)]);
		expect(state).toEqual(idle);
		expect(effects).toEqual([compacted(true, "longhaul", 3), spanRecord, passLine]);
	});

	it("a second compaction starting while a pass's compaction is pending settles the first as compact-failed", () => {
		const { state, effects } = run([events["began with a pass"], returnedPass, events["began with a pass"]]);
		expect(state).toEqual(states.passing);
		expect(effects).toEqual([failed(noEntry, 3)]);
	});

	it("an aborted pass leaves nothing pending: pi's report of the abort and the next input log nothing", () => {
		const abort: CompactionEvent = { type: "pi-failed", reason: "compaction-aborted" };
		const { state, effects } = run([events["began with a pass"], events["pass-aborted"], abort, events["went-on"]]);
		expect(state).toEqual(idle);
		expect(effects).toEqual([]);
	});

	it("a fallback that pi then compacts gives the compacted record and the fallback line, no span record", () => {
		const threwType: CompactionEvent = { type: "pass-threw", errorClass: "TypeError" };
		const { effects } = run([events["began with a pass"], threwType, stored(true)]);
		expect(effects).toEqual([compacted(true, "fallback", null), fallbackLine]);
	});

	it("a fallback whose own compaction fails is reported once, with no span", () => {
		const { effects } = run([
			events["began with a pass"],
			events["pass-threw"],
			events["pi-failed"],
			events["went-on"],
			events["began left to pi"],
		]);
		expect(effects).toEqual([failed("compaction-error", null)]);
	});

	it("an input while the pass runs logs no compact-failed: the pass's compaction lands as Longhaul's", () => {
		const { effects } = run([events["began with a pass"], events["went-on"], returnedPass, stored(true)]);
		expect(effects).toEqual([compacted(true, "longhaul", 3), spanRecord, passLine]);
	});

	it("a compaction pi stores with nothing pending is logged as pi's, with no span record or line", () => {
		expect(run([stored(false)]).effects).toEqual([compacted(false, "pi", null)]);
	});

	it("a pass's compaction that pi stores with its own summary is logged as pi's: no span record, no line", () => {
		const { effects } = run([events["began with a pass"], returnedPass, stored(false)]);
		expect(effects).toEqual([compacted(false, "pi", null)]);
	});

	it("with Longhaul stood down a compaction pi could not finish is reported at the next input", () => {
		const { effects } = run([events["began left to pi"], events["went-on"], events["went-on"]]);
		expect(effects).toEqual([failed(noEntry, null)]);
	});

	it("the line's time and tokens are clamped and rounded, never negative", () => {
		const early: CompactionEvent = { ...stored(true), now: 10, tokensBefore: -3 };
		const { effects } = run([events["began with a pass"], returnedPass, early]);
		expect(effects).toEqual([
			{ ...compacted(true, "longhaul", 3), tokensBefore: 0 },
			spanRecord,
			{ kind: "line", line: { stateFormat: 1, ms: 0, span: 3, calls: 2, tokens: 19 } },
		]);
	});
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeEvent, type Event, encodeEvent, idNumber, READ_LIMITS, readTranscript } from "../../src/events/index.js";
import {
	anomaliesView,
	isTerminalSafe,
	renderSummary,
	spansView,
	stateJson,
	stateObject,
	stateView,
} from "../../src/projections/index.js";
import {
	evolveUnstored,
	evolving,
	foldRead,
	foldTranscript,
	initialState,
	ruleToLift,
	stateAtSpan,
} from "../../src/reducers/index.js";
import { applied } from "../support/applied.js";
import { narrative, nowSet, ruleAdded, value } from "../support/events.js";
import { type EntrySpec, place, transcriptText } from "../support/transcript.js";
import { anyEvent, hostileText, storedEvent, transcriptSpecs } from "./arbitraries.js";
import { law, sameJson } from "./laws.js";

function withoutAnomalies(state: ReturnType<typeof foldTranscript>["state"]): unknown {
	const { anomalies: _ignored, ...rest } = stateObject(state);
	return rest;
}

describe("core laws", () => {
	it("codecs round-trip: decode(encode(event)) is the event", () => {
		law([anyEvent], (event) => {
			const decoded = decodeEvent(JSON.parse(JSON.stringify(encodeEvent(event))));
			return decoded._tag === "Right" && sameJson(decoded.right, event);
		});
	});

	it("fold is deterministic: same bytes, same state, same rendered bytes, whatever the key order", () => {
		law([transcriptSpecs], (specs) => {
			const text = transcriptText(place(specs));
			const reordered = text
				.split("\n")
				.map((line) =>
					line === "" ? line : JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(line)).reverse())),
				)
				.join("\n");
			const a = foldTranscript(text);
			const b = foldTranscript(text);
			const c = foldTranscript(reordered);
			return (
				stateJson(a.state) === stateJson(b.state) &&
				renderSummary(a.state).text === renderSummary(b.state).text &&
				stateJson(a.state) === stateJson(c.state)
			);
		});
	});

	it("span N equals the fold of its prefix: --span N is the fold of the branch cut after span N", () => {
		law([transcriptSpecs], (specs) => {
			const placed = place(specs);
			const folded = foldTranscript(transcriptText(placed));
			return placed.every(({ spec }, index) => {
				if (spec.kind !== "longhaul-compaction") return true;
				const atSpan = stateAtSpan(folded, spec.span);
				const prefix = foldTranscript(transcriptText(placed.slice(0, index + 1)));
				return atSpan !== undefined && stateJson(atSpan) === stateJson(prefix.state);
			});
		});
	});

	it("newer formats are refused: an entry with stateFormat > 1 is one anomaly and changes nothing else", () => {
		const newer = fc.oneof(
			storedEvent.map(
				(event): EntrySpec => ({
					kind: "raw",
					value: { type: "custom", customType: "compaction-state.event", data: { stateFormat: 2, seq: 1, event } },
				}),
			),
			fc.integer({ min: 2, max: 99 }).map(
				(format): EntrySpec => ({
					kind: "raw",
					value: {
						type: "compaction",
						summary: "s",
						firstKeptEntryId: "e1",
						tokensBefore: 1,
						details: { stateFormat: format, longhaul: true, span: 1, events: [] },
					},
				}),
			),
			fc.constant<EntrySpec>({
				kind: "raw",
				value: { type: "custom", customType: "compaction-state.line", data: { stateFormat: 3, fallback: "x" } },
			}),
		);
		law([transcriptSpecs, newer, fc.nat()], (specs, extra, at) => {
			const placed = place(specs);
			const index = specs.length === 0 ? 0 : at % (specs.length + 1);
			const withNewer = [...placed.slice(0, index), { id: "newer", spec: extra }, ...placed.slice(index)];
			const before = foldTranscript(transcriptText(placed)).state;
			const after = foldTranscript(transcriptText(withNewer)).state;
			const added = after.anomalies.filter((a) => !before.anomalies.some((b) => sameJson(a, b)));
			return (
				sameJson(withoutAnomalies(before), withoutAnomalies(after)) &&
				after.anomalies.length === before.anomalies.length + 1 &&
				added.length === 1 &&
				added[0]?.entry === "newer" &&
				/stateFormat \d+ is newer/.test(added[0]?.reason ?? "")
			);
		});
	});

	it("totality: arbitrary bytes and arbitrary JSON lines never throw, and every view renders", () => {
		const line = fc.oneof(
			fc.string({ unit: "binary", maxLength: 60 }),
			fc.jsonValue().map((v) => JSON.stringify(v)),
			fc
				.record(
					{
						type: fc.constantFrom("message", "compaction", "custom", "session"),
						id: fc.string(),
						parentId: fc.jsonValue(),
					},
					{ requiredKeys: [] },
				)
				.chain((base) =>
					fc
						.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue())
						.map((rest) => JSON.stringify({ ...rest, ...base })),
				),
		);
		law([fc.array(line, { maxLength: 30 }), fc.boolean()], (lines, terminated) => {
			const text = lines.join("\n") + (terminated ? "\n" : "");
			const folded = foldTranscript(text);
			const views = [stateView(folded.state), spansView(folded), anomaliesView(folded.state), stateJson(folded.state)];
			return views.every((v) => typeof v === "string");
		});
	});

	it("truncation at any byte gives the fold of the complete records before it, and a torn tail over the line limit is one anomaly", () => {
		law([transcriptSpecs, fc.nat(), fc.integer({ min: 1, max: 400 })], (specs, cutAt, lineChars) => {
			const limits = { ...READ_LIMITS, lineChars };
			const fold = (t: string) => stateJson(foldRead(readTranscript(t, limits)).state);
			const text = transcriptText(place(specs));
			const cut = cutAt % (text.length + 1);
			const lastNewline = text.lastIndexOf("\n", cut - 1) + 1;
			const nextNewline = text.indexOf("\n", lastNewline);
			const tail = cut - lastNewline;
			const complete = readTranscript(text.slice(0, lastNewline), limits);
			const torn = {
				entry: `line ${text.slice(0, lastNewline).split("\n").length}`,
				reason: `torn tail: an unterminated last line of ${tail} characters is over the limit`,
			};
			// A short torn tail is what a crash leaves: nothing. One over the limit cannot be told from a line too long to
			// read, so it is named.
			const expected =
				tail > lineChars
					? stateJson(foldRead({ ...complete, anomalies: [...complete.anomalies, torn] }).state)
					: fold(text.slice(0, lastNewline));
			const got = fold(text.slice(0, cut));
			if (got === expected) return true;
			if (cut !== nextNewline) return false;
			// The cut fell just before a newline: the line is whole, read as with its newline, or named torn when long.
			const whole = readTranscript(text.slice(0, nextNewline + 1), limits);
			const named = whole.anomalies.map((a) => (a.entry === torn.entry ? torn : a));
			return got === stateJson(foldRead({ ...whole, anomalies: named }).state);
		});
	});

	it("rendered output never contains a control character", () => {
		law([transcriptSpecs, hostileText], (specs, junk) => {
			const text = `${transcriptText(place(specs))}${junk}\n`;
			const folded = foldTranscript(text);
			const printed = [
				stateView(folded.state),
				spansView(folded),
				anomaliesView(folded.state),
				stateJson(folded.state),
			];
			return printed.every(isTerminalSafe) && sameJson(JSON.parse(stateJson(folded.state)), stateObject(folded.state));
		});
	});

	it("ids are unique and never reused, even after lifts, with and without the ids events carry", () => {
		law([fc.array(anyEvent, { maxLength: 60 }), fc.integer({ min: 1, max: 5 })], (events, batches) => {
			let state = initialState;
			const size = Math.ceil(events.length / batches);
			for (let i = 0; i < events.length; i += size) state = applied(state, events.slice(i, i + size));
			const given = {
				R: [...state.rules, ...state.lifted].map((r) => r.id),
				D: state.decisions.map((d) => d.id),
				X: state.deadEnds.map((x) => x.id),
				N: state.notes.map((n) => n.id),
			};
			const ledger = [...state.commands.map((c) => c.id), ...state.errors.map((e) => e.id)];
			const unique = (ids: string[]) => new Set(ids).size === ids.length;
			// Every id given is below its counter, so the counter's next number is always a new id.
			const belowCounter = (["R", "D", "X", "N"] as const).every((kind) =>
				given[kind].every((id) => id.startsWith(kind) && idNumber(id) < state.next[kind]),
			);
			return Object.values(given).every(unique) && unique(ledger) && belowCounter;
		});
	});

	it("an event keeps the id it carries unless an earlier entry of its kind was given that id", () => {
		/** The k-th entry got the k-th event's id when that id was free, and a new id otherwise. */
		const keptWhenFree = (carried: readonly (string | undefined)[], got: readonly string[]): boolean => {
			const seen = new Set<string>();
			return (
				carried.length === got.length &&
				carried.every((id, k) => {
					const entry = got[k] ?? "";
					const ok = id !== undefined && !seen.has(id) ? entry === id : !seen.has(entry);
					seen.add(entry);
					return ok;
				})
			);
		};
		law([fc.array(anyEvent, { maxLength: 60 })], (events) => {
			const state = applied(initialState, events);
			// Decisions, dead ends and notes are never dropped: the k-th entry of a kind is from its k-th event.
			const carried = (type: "decision-made" | "dead-end-found" | "note-remembered") =>
				events.flatMap((e) => (e.type === type ? [e.data.id] : []));
			return (
				keptWhenFree(
					carried("decision-made"),
					state.decisions.map((d) => d.id),
				) &&
				keptWhenFree(
					carried("dead-end-found"),
					state.deadEnds.map((x) => x.id),
				) &&
				keptWhenFree(
					carried("note-remembered"),
					state.notes.map((n) => n.id),
				)
			);
		});
	});

	it("a batch applied at once equals the same events applied one by one", () => {
		law([fc.array(anyEvent, { maxLength: 40 })], (events) => {
			const once = applied(initialState, events);
			const stepwise = events.reduce((s, event) => applied(s, [event]), initialState);
			return stateJson(once) === stateJson(stepwise);
		});
	});

	it("events a pass has not stored yet fold as stored ones do, but leave the last sequence number where it was", () => {
		law([fc.array(anyEvent, { maxLength: 40 }), fc.array(anyEvent, { maxLength: 10 })], (earlier, events) => {
			const before = applied(
				initialState,
				earlier,
				earlier.map((_, i) => i + 1),
			);
			const stored = applied(
				before,
				events,
				events.map((_, i) => before.lastSeq + i + 1),
			);
			const unstored = evolveUnstored(before, events);
			return (
				unstored.lastSeq === before.lastSeq && stateJson({ ...stored, lastSeq: before.lastSeq }) === stateJson(unstored)
			);
		});
	});

	// Events that meet: rules added and lifted by the same few names, and files read and then modified.
	const fewPaths = fc.array(fc.constantFrom("a.ts", "b.ts", "c.ts"), { maxLength: 3 });
	const filesMoving = fc.record({
		type: fc.constant("files-touched" as const),
		data: fc.record({ read: fewPaths, modified: fewPaths }),
	});
	const fewSources = fc.constantFrom("u1", "u2", "u3");
	const rulesMeeting = fc.oneof(
		fc.record({
			type: fc.constant("rule-added" as const),
			data: fc.record({ words: fc.constantFrom("never push", "use tabs", "no deps"), source: fewSources }),
		}),
		fc.record({
			type: fc.constant("rule-lifted" as const),
			data: fc.record({ target: fc.oneof(fewSources, fc.constantFrom("R1", "R2", "R3")), by: fewSources }),
		}),
	);
	const meeting = fc.array(fc.oneof(anyEvent, filesMoving, { arbitrary: rulesMeeting, weight: 2 }), {
		maxLength: 40,
		size: "max",
	});

	it("a state evolving one event at a time is, after each, the batch of the events so far (and knows which messages gave a rule), and its start is untouched", () => {
		law([meeting, meeting], (earlier, events) => {
			const before = applied(
				initialState,
				earlier,
				earlier.map((_, i) => i + 1),
			);
			const kept = JSON.stringify(before);
			const stepping = evolving(before);
			return (
				events.every((event, i) => {
					stepping.apply(event);
					const batch = evolveUnstored(before, events.slice(0, i + 1));
					const ruled = (source: string) => [...batch.rules, ...batch.lifted].some((rule) => rule.source === source);
					return (
						stateJson(stepping.state) === stateJson(batch) &&
						["u1", "u2", "u3", "u4"].every((source) => stepping.ruledFrom(source) === ruled(source))
					);
				}) && JSON.stringify(before) === kept
			);
		});
	});

	// Rule events with ids of their own (from R100, so no id the earlier events were given), aimed at one another: a
	// lift names an added rule's id, one of the few sources, or an id no rule has.
	const rulesAimed = fc
		.array(
			fc.oneof(
				fc.record({
					type: fc.constant("rule-added" as const),
					data: fc.record({
						words: fc.constantFrom("never push", "use tabs", "no deps", "be brief"),
						source: fewSources,
					}),
				}),
				fc.record({
					type: fc.constant("rule-lifted" as const),
					data: fc.record({
						target: fc.oneof(
							fewSources,
							fc.integer({ min: 98, max: 130 }).map((n) => `R${n}`),
						),
						by: fewSources,
					}),
				}),
			),
			{ maxLength: 60 },
		)
		.map((events) =>
			events.map((e, i): Event => (e.type === "rule-added" ? { ...e, data: { ...e.data, id: `R${100 + i}` } } : e)),
		);

	it("a batch leaves the rules of lifts taken one by one from a list: each takes the newest rule in force whose id or source is its target", () => {
		law([meeting, rulesAimed], (earlier, events) => {
			const before = evolveUnstored(initialState, earlier);
			const rules = [...before.rules];
			const lifted = [...before.lifted];
			for (const event of events) {
				if (event.type === "rule-added") {
					const { id, words, source } = event.data;
					const known = [...rules, ...lifted].some((r) => r.source === source && r.text === words);
					if (!known && id !== undefined) rules.push({ id, text: words, source });
				} else if (event.type === "rule-lifted") {
					const { target, by } = event.data;
					const at = rules.findLastIndex((r) => r.id === target || r.source === target);
					const [taken] = at < 0 ? [] : rules.splice(at, 1);
					if (taken !== undefined) lifted.push({ ...taken, by });
				}
			}
			const after = evolveUnstored(before, events);
			return sameJson(after.rules, rules) && sameJson(after.lifted, lifted);
		});
	});

	it("the rule a lift would take is the rule the reducer lifts for it, and none when it lifts none", () => {
		law([meeting, fc.constantFrom("u1", "u2", "u3", "u4", "R1", "R2", "R3", "R4")], (earlier, name) => {
			const before = evolveUnstored(initialState, earlier);
			const after = evolveUnstored(before, [{ type: "rule-lifted", data: { target: name, by: "u99" } }]);
			const taken = after.lifted.length > before.lifted.length ? after.lifted.at(-1) : undefined;
			const rule = ruleToLift(before, name);
			return taken === undefined
				? rule === undefined
				: rule !== undefined && sameJson(rule, { id: taken.id, text: taken.text, source: taken.source });
		});
	});
});

describe("fold examples", () => {
	it("a span record whose v is not 1 is skipped without an anomaly, and one with v 1 is read", () => {
		const text = transcriptText(
			place([
				{ kind: "span-record", span: 1, v: 2 },
				{ kind: "span-record", span: 1, v: 1 },
			]),
		);
		const folded = foldTranscript(text);
		expect(folded.state.anomalies).toEqual([]);
		expect(folded.spanRecords.map((r) => r.entry)).toEqual(["e2"]);
	});

	it("a parentId cycle ends the branch with an anomaly instead of looping", () => {
		const lines = [
			JSON.stringify({ type: "session", version: 3, id: "s" }),
			JSON.stringify({ type: "message", id: "a", parentId: "b", message: { role: "user", content: "x" } }),
			JSON.stringify({ type: "message", id: "b", parentId: "a", message: { role: "user", content: "y" } }),
		];
		const folded = foldTranscript(`${lines.join("\n")}\n`);
		expect(folded.branch.map((e) => e.id)).toEqual(["a", "b"]);
		expect(folded.state.anomalies.map((a) => a.reason)).toEqual(["parentId cycle; the branch stops here"]);
	});

	it("a v1 file gets ids from its lines, so the same bytes always give the same ids", () => {
		const lines = [
			JSON.stringify({ type: "session", id: "s" }),
			JSON.stringify({ type: "message", message: { role: "user", content: "hello" } }),
			JSON.stringify({ type: "compaction", summary: "s", firstKeptEntryIndex: 1, tokensBefore: 5 }),
		];
		const folded = foldTranscript(`${lines.join("\n")}\n`);
		expect(folded.branch.map((e) => [e.id, e.parentId])).toEqual([
			["L2", null],
			["L3", "L2"],
		]);
		expect(folded.branch[1]?.raw.firstKeptEntryId).toBe("L2");
		expect(folded.state.foreign).toEqual([{ entry: "L3", summaryChars: 1, fromHook: false }]);
	});

	it("the summary cap drops the oldest work-log lines, then the oldest values, never rules or Now", () => {
		const events: Event[] = [
			ruleAdded("never add dependencies", "u1"),
			nowSet("next: run the tests"),
			...Array.from({ length: 50 }, (_, i): Event => narrative(i + 1, `worked on part ${i}`)),
			...Array.from({ length: 50 }, (_, i): Event => value(`value ${i}`, `${1000 + i}`, "u1")),
		];
		const state = applied(initialState, events);
		const full = renderSummary(state, 1_000_000);
		const cut = renderSummary(state, 500);
		expect(full.capFit).toMatchObject({ cut: { workLog: 0, values: 0 }, fits: true });
		expect(cut.capFit.cut.workLog).toBe(50);
		expect(cut.capFit.cut.values).toBeGreaterThan(0);
		expect(cut.text.length).toBeLessThanOrEqual(500);
		expect(cut.text).toContain("> never add dependencies");
		expect(cut.text).toContain("next: run the tests");
		expect(cut.text).toContain("- value 49 1049 (u1)");
		expect(cut.text).not.toContain("- value 30 1030 (u1)");
	});
});

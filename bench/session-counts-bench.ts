import { type Entry, type Event, entriesFromObjects, type Located, type UserMessage } from "../src/events/index.js";
import { acceptLabels, type LabelContext } from "../src/pass/accept/index.js";
import { preparedSpan } from "../src/pass/span/index.js";
import { rereadRefs, standingEvents } from "../src/pass/takeover/index.js";
import { renderSummary, spansView } from "../src/projections/index.js";
import { evolve, evolveUnstored, initialState, type State } from "../src/reducers/index.js";
import { reportGrowth } from "./measure.js";

// The costs a hunt found growing faster than the number of things a long session holds (2026-12-07; docs/evaluation.md,
// Costs in the number of things a session holds), each timed at a count and at four times it: a cost linear in the
// count grows about 4x, a quadratic one 16x.

interface Count {
	readonly name: string;
	/** The call to time on an input holding `n` of the things counted, the input built beforehand. */
	readonly at: (n: number) => () => unknown;
	/** The smaller count; the larger is four times it. */
	readonly n: number;
	/** What is counted, for the report. */
	readonly unit: string;
}

/** One pasted message of `n` rule sentences, and the rules a takeover's picks record from it. */
function pastedRules(n: number): { readonly msg: UserMessage; readonly events: readonly Event[] } {
	const lines = Array.from({ length: n }, (_, i) => `Always use named exports in module ${i} and never default ones.`);
	const msg: UserMessage = { ref: "u1", entryId: "e1", text: lines.join("\n") };
	return { msg, events: standingEvents(initialState, [msg]) };
}

/** What acceptance judges for `n` short standing picks, one message each, none labeled: each is recorded by itself. */
function standingPicks(n: number): LabelContext {
	const msgs = Array.from(
		{ length: n },
		(_, i): UserMessage => ({
			ref: `u${i + 1}`,
			entryId: `e${i + 1}`,
			text: `Always use named exports in module ${i}.`,
		}),
	);
	return { state: initialState, toLabel: msgs, branch: msgs, standing: new Set(msgs.map((msg) => msg.ref)) };
}

/** `n` files-touched events, each reading ten new files and modifying one read before. */
function filesMoved(n: number): Event[] {
	return Array.from({ length: n }, (_, i): Event => {
		const read = Array.from({ length: 10 }, (_, k) => `src/f${10 * i + k}.ts`);
		return { type: "files-touched", data: { read, modified: i > 0 ? [`src/f${10 * (i - 1)}.ts`] : [] } };
	});
}

/** `n` spans, each stored by its compaction with 20 commands, two errors, a narrative line and a close. */
function closedSpans(n: number): { readonly state: State; readonly events: readonly Located[] } {
	const events: Located[] = [];
	for (let span = 1; span <= n; span++) {
		const stored = (event: Event) => events.push({ entry: `cmp${span}`, seq: events.length + 1, event });
		for (let k = 1; k <= 20; k++) {
			const id = `C${20 * (span - 1) + k}`;
			stored({
				type: "command-recorded",
				data: { id, command: `npm test ${id}`, exitCode: 0, span, toolCallId: null, by: "tool" },
			});
		}
		for (let k = 1; k <= 2; k++)
			stored({
				type: "error-recorded",
				data: { id: `E${2 * (span - 1) + k}`, tool: "bash", head: "boom", span, command: null },
			});
		stored({ type: "narrative-line", data: { span, text: `did span ${span}` } });
		stored({ type: "span-closed", data: { span, kind: "whole", unlabeled: [], reason: null } });
	}
	return { state: evolve(initialState, events), events };
}

/**
 * `n` rules, each from a message of its own, then a lift of each, oldest first, and a lift of an id no rule has: a
 * lift found its rule by a scan from the newest and spliced it out (32,000 lifts of nothing took 10.9 s, 2026-12-07).
 */
function liftedRules(n: number): Event[] {
	const added = Array.from(
		{ length: n },
		(_, i): Event => ({ type: "rule-added", data: { id: `R${i + 1}`, words: `rule ${i}`, source: `u${i + 1}` } }),
	);
	const lifts = Array.from({ length: n }, (_, i): Event[] => [
		{ type: "rule-lifted", data: { target: `R${i + 1}`, by: "u0" } },
		{ type: "rule-lifted", data: { target: `R${2 * n + i + 1}`, by: "u0" } },
	]);
	return [...added, ...lifts.flat()];
}

/** A state of `n` commands, an open error for every other, and a note, a file read and a work-log line every fifth. */
function crowdedState(n: number): State {
	const events: Event[] = [];
	for (let i = 1; i <= n; i++) {
		const command = `npm test -- --grep "case ${i}"`;
		events.push({
			type: "command-recorded",
			data: { id: `C${i}`, command, exitCode: i % 2, span: 1, toolCallId: null, by: "tool" },
		});
		if (i % 2 === 1)
			events.push({
				type: "error-recorded",
				data: { id: `E${i}`, tool: "bash", head: `case ${i} failed: expected 3, got 4`, span: 1, command: `C${i}` },
			});
		if (i % 5 === 0) {
			events.push({ type: "note-remembered", data: { text: `note ${i}: the port is ${8000 + (i % 100)}` } });
			events.push({ type: "files-touched", data: { read: [`src/module-${i}/file.ts`], modified: [] } });
			events.push({ type: "narrative-line", data: { span: i / 5, text: `span ${i / 5} ran its tests` } });
		}
	}
	return evolveUnstored(initialState, events);
}

/** A branch of `n` user and assistant messages before one kept message, and the messages a compaction removes. */
function removedMessages(n: number): { readonly branch: readonly Entry[]; readonly messages: readonly unknown[] } {
	const raws: Record<string, unknown>[] = [];
	const add = (message: Record<string, unknown>) =>
		raws.push({
			type: "message",
			id: `e${raws.length + 1}`,
			parentId: raws.length === 0 ? null : `e${raws.length}`,
			timestamp: "2026-01-01T00:00:00.000Z",
			message,
		});
	for (let i = 0; i < n / 2; i++) {
		add({ role: "user", content: `please do thing ${i}`, timestamp: i });
		add({ role: "assistant", content: [{ type: "text", text: `done ${i}` }], stopReason: "stop", timestamp: i });
	}
	const messages = raws.map((raw) => raw.message);
	add({ role: "user", content: "kept", timestamp: n });
	return { branch: entriesFromObjects(raws).entries, messages };
}

/** The reducer's run over the events `events(n)` makes for a count, the events made beforehand. */
function evolvedFrom(events: (n: number) => readonly Event[]): Count["at"] {
	return (n) => {
		const made = events(n);
		return () => evolveUnstored(initialState, made);
	};
}

const COUNTS: readonly Count[] = [
	{
		name: "a pasted message's rule sentences, read again",
		at: (n) => {
			const { msg, events } = pastedRules(n);
			return () => rereadRefs(events, [msg]);
		},
		// The reader's time a sentence steps up between 100 and 400 sentences on some machines (12x for 4x, old and
		// new code alike, 2026-12-07), and is linear from there.
		n: 400,
		unit: "sentences",
	},
	{
		name: "standing picks acceptance records",
		at: (n) => {
			const ctx = standingPicks(n);
			return () => acceptLabels(ctx, [], true);
		},
		n: 2_000,
		unit: "picks",
	},
	{
		name: "files read, then modified, one event a span",
		at: evolvedFrom(filesMoved),
		n: 2_000,
		unit: "events",
	},
	{
		name: "rules lifted, and lifts of nothing",
		at: evolvedFrom(liftedRules),
		// Below 16,000 rules the reducer's time a rule steps up, old and new code alike (rules added and none lifted:
		// 1.4-1.5 ms at 4,000, 46-51 ms at 32,000, 2026-12-07; the collector); from there a doubling costs about 2x.
		n: 16_000,
		unit: "rules",
	},
	{
		name: "spans in `longhaul state --spans`",
		at: (n) => {
			const { state, events } = closedSpans(n);
			return () => spansView({ state, events, spanRecords: [], branch: [] });
		},
		n: 500,
		unit: "spans",
	},
	{
		name: "a summary cut to its cap",
		at: (n) => {
			const state = crowdedState(n);
			return () => renderSummary(state);
		},
		n: 5_000,
		unit: "commands",
	},
	{
		name: "messages a compaction removes, mapped to entries",
		at: (n) => {
			const { branch, messages } = removedMessages(n);
			return () => preparedSpan(branch, `e${branch.length}`, messages);
		},
		n: 10_000,
		unit: "messages",
	},
];

/** How each cost grows with four times the count it reads: at most 6x (linear is 4x). */
export function sessionCountsBench(): void {
	process.stdout.write("\nCosts in the number of things a session holds (time at 4x the count, against 1x):\n");
	for (const count of COUNTS)
		reportGrowth(`count cost, ${count.name}`, count.at(count.n), count.at(4 * count.n), `${4 * count.n} ${count.unit}`);
}

import { type Draft, produce } from "immer";
import type { Event, EventOf } from "../events/event.js";
import type { Counters, State } from "./state.js";

type D = Draft<State>;

/** Ids of the ledger already in the state, so a command or error carried twice is recorded once. */
interface Seen {
	readonly commands: Set<string>;
	readonly errors: Set<string>;
}

function take(draft: D, kind: keyof Counters): string {
	const n = draft.next[kind];
	draft.next[kind] = n + 1;
	return `${kind}${n}`;
}

function addRule(draft: D, { words, source }: EventOf<"rule-added">["data"]): void {
	if (draft.rules.some((r) => r.source === source && r.text === words)) return;
	draft.rules.push({ id: take(draft, "R"), text: words, source });
}

function liftRule(draft: D, { target, by }: EventOf<"rule-lifted">["data"]): void {
	let index = -1;
	for (let i = draft.rules.length - 1; i >= 0 && index < 0; i--) {
		const rule = draft.rules[i];
		if (rule !== undefined && (rule.id === target || rule.source === target)) index = i;
	}
	const rule = draft.rules[index];
	if (rule === undefined) {
		draft.anomalies.push({ entry: by, reason: `lift of ${target}, which is not a rule in force` });
		return;
	}
	draft.rules.splice(index, 1);
	draft.lifted.push({ ...rule, by });
}

function addFiles(draft: D, { read, modified }: EventOf<"files-touched">["data"]): void {
	const mod = new Set(draft.files.modified);
	for (const path of modified) {
		if (!mod.has(path)) draft.files.modified.push(path);
		mod.add(path);
	}
	const readNow = new Set(draft.files.read);
	const keep = draft.files.read.filter((path) => !mod.has(path));
	if (keep.length !== draft.files.read.length) draft.files.read = keep;
	for (const path of read) {
		if (mod.has(path) || readNow.has(path)) continue;
		readNow.add(path);
		draft.files.read.push(path);
	}
}

function fixError(draft: D, { error, by }: EventOf<"error-fixed">["data"]): void {
	const found = draft.errors.find((e) => e.id === error);
	if (found !== undefined && found.fixedBy === null) found.fixedBy = by;
}

function addValue(draft: D, value: EventOf<"value-recorded">["data"]): void {
	const same = (v: { name: string; value: string; source: string }) =>
		v.name === value.name && v.value === value.value && v.source === value.source;
	if (!draft.values.some(same)) draft.values.push({ ...value });
}

/** Applies one event to the draft: one exhaustive switch over the event kinds. */
function apply(draft: D, event: Event, seen: Seen): void {
	switch (event.type) {
		case "rule-added":
			addRule(draft, event.data);
			return;
		case "rule-lifted":
			liftRule(draft, event.data);
			return;
		case "decision-made":
			draft.decisions.push({ id: take(draft, "D"), text: event.data.text, evidence: [...event.data.evidence] });
			return;
		case "dead-end-found":
			draft.deadEnds.push({ id: take(draft, "X"), text: event.data.text, evidence: [...event.data.evidence] });
			return;
		case "note-remembered":
			draft.notes.push({ id: take(draft, "N"), text: event.data.text });
			return;
		case "value-recorded":
			addValue(draft, event.data);
			return;
		case "objective-set":
			draft.objective = event.data.text;
			return;
		case "narrative-line":
			draft.workLog.push({ span: event.data.span, text: event.data.text });
			return;
		case "now-set":
			draft.now = event.data.text;
			return;
		case "command-recorded":
			if (seen.commands.has(event.data.id)) return;
			seen.commands.add(event.data.id);
			draft.commands.push({ ...event.data });
			return;
		case "error-recorded":
			if (seen.errors.has(event.data.id)) return;
			seen.errors.add(event.data.id);
			draft.errors.push({ ...event.data, fixedBy: null });
			return;
		case "error-fixed":
			fixError(draft, event.data);
			return;
		case "files-touched":
			addFiles(draft, event.data);
			return;
		case "world-taken":
			draft.world = { ...event.data.world };
			return;
		case "span-closed":
			draft.spans = Math.max(draft.spans, event.data.span);
			draft.closes.push({ ...event.data, unlabeled: [...event.data.unlabeled] });
			return;
		case "foreign-compaction-seen":
			draft.foreign.push({ ...event.data });
			return;
		case "anomaly":
			draft.anomalies.push({ ...event.data });
			return;
		default: {
			const unknownKind: never = event;
			throw new Error(`unhandled event kind ${JSON.stringify(unknownKind)}`);
		}
	}
}

/** An event and, when it was stored, its sequence number. */
export interface Sequenced {
	readonly seq: number | null;
	readonly event: Event;
}

/** The state after `events`: pure, one `produce` for the whole batch. */
export function evolve(state: State, events: readonly Sequenced[]): State {
	return produce(state, (draft) => {
		const seen: Seen = {
			commands: new Set(state.commands.map((c) => c.id)),
			errors: new Set(state.errors.map((e) => e.id)),
		};
		for (const { seq, event } of events) {
			apply(draft, event, seen);
			if (seq !== null && seq > draft.lastSeq) draft.lastSeq = seq;
		}
	});
}

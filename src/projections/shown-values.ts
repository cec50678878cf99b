import type { State, Value } from "../reducers/index.js";
import { commandsById, cutCommand } from "./command-text.js";

/** The most values the state shows (docs/contracts.md, Values in the summary). Exported for tests. */
export const SHOWN_VALUES = 20;

/** A value as the state shows it: what kind it is, and the command (or the turn) it came from. */
export interface ShownValue {
	/** The kind code gave it (`commit`, `port`, `version`, …) or the name the model gave it. */
	readonly kind: string;
	readonly value: string;
	/** `C<n>` for a value code read from a command's output, `u<n>` for one the model named in a turn. */
	readonly source: string;
	/** The source command's text, cut; null for a value the model named. */
	readonly command: string | null;
}

/** Kinds code reads from one run's output that describe only that run (a timing, a test count). */
const SINGLE_RUN: ReadonlySet<string> = new Set(["duration", "count"]);
/** A command line that runs git: the hashes it prints are commits. */
const RUNS_GIT = /(?:^|[\s;&|(])git\s/;

const fromCommand = (v: { readonly source: string }): boolean => v.source.startsWith("C");
/** What makes two values the same one: `v0.14.2` and `0.14.2` are one version. */
const identity = (value: string): string => value.replace(/^v(?=\d+\.\d)/, "");

/** The value with its kind and command text; undefined for a single run's timing or count that code read. */
function shown(v: Value, commands: ReturnType<typeof commandsById>): (ShownValue & { full: string }) | undefined {
	if (!fromCommand(v)) return { kind: v.name, value: v.value, source: v.source, command: null, full: "" };
	if (SINGLE_RUN.has(v.name)) return undefined;
	const text = commands.get(v.source)?.command;
	const kind = v.name === "hash" && text !== undefined && RUNS_GIT.test(text) ? "commit" : v.name;
	// A value whose command the state does not hold stands for itself: nothing later replaces it.
	const full = text ?? `\u0001${v.source}`;
	return { kind, value: v.value, source: v.source, command: text === undefined ? null : cutCommand(text), full };
}

/**
 * The values worth their lines, newest first (docs/contracts.md, Values in the summary): no value twice (its newest
 * showing is kept, and a version with a leading `v` is the same as one without); a later value of the same kind from
 * the same command text (or the same name from the model) replaces the earlier; timings and counts code read from a
 * single run are left out (the model may still name one); at most `SHOWN_VALUES`. A projection: the stored events keep
 * every value.
 */
export function shownValues(state: State): ShownValue[] {
	const commands = commandsById(state);
	const out: ShownValue[] = [];
	const seen = new Set<string>();
	/** Kind and command text → the source whose values stand for it. */
	const newest = new Map<string, string>();
	for (let i = state.values.length - 1; i >= 0 && out.length < SHOWN_VALUES; i--) {
		const v = state.values[i];
		const s = v === undefined ? undefined : shown(v, commands);
		if (s === undefined || seen.has(identity(s.value))) continue;
		const group = `${fromCommand(s) ? "C" : "u"}\u0000${s.kind}\u0000${s.full}`;
		const holder = newest.get(group);
		if (holder !== undefined && holder !== s.source) continue;
		newest.set(group, s.source);
		seen.add(identity(s.value));
		out.push({ kind: s.kind, value: s.value, source: s.source, command: s.command });
	}
	return out;
}

import type { World } from "../events/world.js";
import type { Command, Finding, LedgerError, State } from "../reducers/state.js";
import { commandsById, errorOrigin } from "./command-text.js";
import { type ShownValue, shownValues } from "./shown-values.js";

/** The rendered summary's default cap, in characters (SPEC 3.6 `summaryChars`). */
export const DEFAULT_SUMMARY_CHARS = 12_000;

/** What the cap cut: the oldest work-log lines first, then the oldest shown values; rules, Now and open errors never. */
export interface CapFit {
	readonly limit: number;
	readonly chars: number;
	readonly workLogDropped: number;
	readonly valuesDropped: number;
	readonly fits: boolean;
}

export interface Rendered {
	readonly text: string;
	readonly capFit: CapFit;
}

function section(title: string, lines: readonly string[]): string | undefined {
	return lines.length === 0 ? undefined : `## ${title}\n${lines.join("\n")}`;
}

/**
 * Text no user wrote as a rule (error heads, decisions, notes, values, World fields) on one line, behind a prefix of
 * its own: tool output or a model must not be able to draw a "Rules in force" section into the summary pi stores.
 */
function oneLine(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

/** One line that starts a line of its own (Objective, Now): a first character Markdown reads as structure is escaped. */
function ownLine(text: string): string {
	const line = oneLine(text);
	return /^[#>`~*+\-=|<\d]/.test(line) ? `\\${line}` : line;
}

/** A fence longer than any run of backticks inside, so git output cannot close it early. */
function fenced(text: string): string[] {
	const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
	const fence = "`".repeat(Math.max(3, longest + 1));
	return [fence, text, fence];
}

function quoted(text: string): string {
	return text
		.split("\n")
		.map((line) => `> ${line}`)
		.join("\n");
}

function findingLine(f: Finding): string {
	const text = oneLine(f.text);
	return f.evidence.length === 0 ? `- ${f.id}: ${text}` : `- ${f.id}: ${text} (${f.evidence.join(", ")})`;
}

function errorLine(e: LedgerError, commands: ReadonlyMap<string, Command>): string {
	return `- ${e.id} (${errorOrigin(e, commands)}, span ${e.span}): ${oneLine(e.head)}`;
}

/** `commit 1507f8b (git log --oneline -3, C3)`; a value the model named shows its turn. */
function valueLine(v: ShownValue): string {
	const from = v.command === null ? v.source : `${v.command}, ${v.source}`;
	return `- ${oneLine(v.kind)} ${oneLine(v.value)} (${from})`;
}

function worldLines(world: World | null): string[] {
	if (world === null) return [];
	if (!world.taken) return [`(not taken: ${oneLine(world.reason)})`];
	const lines = [`branch: ${oneLine(world.branch)}`, `HEAD: ${oneLine(world.head)}`];
	if (world.status !== "") lines.push("status:", ...fenced(world.status));
	if (world.log !== "") lines.push("recent log:", ...fenced(world.log));
	if (world.diffStat !== "") lines.push("diff stat:", ...fenced(world.diffStat));
	return lines;
}

function fileLines(state: State): string[] {
	const lines: string[] = [];
	if (state.files.modified.length > 0) lines.push(`Modified: ${oneLine(state.files.modified.join(", "))}`);
	if (state.files.read.length > 0) lines.push(`Read: ${oneLine(state.files.read.join(", "))}`);
	return lines;
}

/** What the render needs beyond the state, computed once per summary. */
interface Shown {
	readonly values: readonly ShownValue[];
	readonly commands: ReadonlyMap<string, Command>;
}

function render(state: State, shown: Shown, workLogDropped: number, valuesDropped: number): string {
	const open = state.errors.filter((e) => e.fixedBy === null);
	const sections = [
		"# Session state (Longhaul)\nRules are the user's own words, quoted verbatim. Ids (C, E) point into the ledger.",
		section("Objective", state.objective === null ? [] : [ownLine(state.objective)]),
		section(
			"Rules in force",
			state.rules.map((r) => `${r.id}\n${quoted(r.text)}\n(${r.source})`),
		),
		section("Decisions", state.decisions.map(findingLine)),
		section("Dead ends", state.deadEnds.map(findingLine)),
		section(
			"Open errors",
			open.map((e) => errorLine(e, shown.commands)),
		),
		section("Values", shown.values.slice(0, shown.values.length - valuesDropped).map(valueLine)),
		section(
			"Notes",
			state.notes.map((n) => `- ${n.id}: ${oneLine(n.text)}`),
		),
		section("Files", fileLines(state)),
		section("World", worldLines(state.world)),
		section(
			"Work log",
			state.workLog.slice(workLogDropped).map((l) => `- span ${l.span}: ${oneLine(l.text)}`),
		),
		section("Now", state.now === null ? [] : [ownLine(state.now)]),
	];
	return `${sections.filter((s) => s !== undefined).join("\n\n")}\n`;
}

/** The smallest count in [0, max] for which `fits(count)` holds, or max when none does (`fits` is monotone). */
function leastFitting(max: number, fits: (count: number) => boolean): number {
	let low = 0;
	let high = max;
	while (low < high) {
		const mid = Math.floor((low + high) / 2);
		if (fits(mid)) high = mid;
		else low = mid + 1;
	}
	return low;
}

/** The state as the Markdown summary pi stores, cut to `limit` characters where it can be; same state, same bytes. */
export function renderSummary(state: State, limit: number = DEFAULT_SUMMARY_CHARS): Rendered {
	const within = (text: string) => text.length <= limit;
	const shown: Shown = { values: shownValues(state), commands: commandsById(state) };
	const work = leastFitting(state.workLog.length, (n) => within(render(state, shown, n, 0)));
	const values =
		work < state.workLog.length || within(render(state, shown, work, 0))
			? 0
			: leastFitting(shown.values.length, (n) => within(render(state, shown, work, n)));
	const text = render(state, shown, work, values);
	return {
		text,
		capFit: { limit, chars: text.length, workLogDropped: work, valuesDropped: values, fits: within(text) },
	};
}

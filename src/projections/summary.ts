import type { World } from "../events/world.js";
import type { Finding, LedgerError, State } from "../reducers/state.js";

/** The rendered summary's default cap, in characters (SPEC 3.6 `summaryChars`). */
export const DEFAULT_SUMMARY_CHARS = 12_000;

/** What the cap cut: the oldest work-log lines first, then the oldest values; rules, Now and open errors never. */
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

function quoted(text: string): string {
	return text
		.split("\n")
		.map((line) => `> ${line}`)
		.join("\n");
}

function findingLine(f: Finding): string {
	return f.evidence.length === 0 ? `- ${f.id}: ${f.text}` : `- ${f.id}: ${f.text} (${f.evidence.join(", ")})`;
}

function errorLine(e: LedgerError): string {
	const from = e.command === null ? e.tool : `${e.tool} ${e.command}`;
	return `- ${e.id} (${from}, span ${e.span}): ${e.head}`;
}

function worldLines(world: World | null): string[] {
	if (world === null) return [];
	if (!world.taken) return [`(not taken: ${world.reason})`];
	const lines = [`branch: ${world.branch}`, `HEAD: ${world.head}`];
	if (world.status !== "") lines.push("status:", "```", world.status, "```");
	if (world.log !== "") lines.push("recent log:", "```", world.log, "```");
	if (world.diffStat !== "") lines.push("diff stat:", "```", world.diffStat, "```");
	return lines;
}

function fileLines(state: State): string[] {
	const lines: string[] = [];
	if (state.files.modified.length > 0) lines.push(`Modified: ${state.files.modified.join(", ")}`);
	if (state.files.read.length > 0) lines.push(`Read: ${state.files.read.join(", ")}`);
	return lines;
}

function render(state: State, workLogDropped: number, valuesDropped: number): string {
	const open = state.errors.filter((e) => e.fixedBy === null);
	const sections = [
		"# Session state (Longhaul)\nRules are the user's own words, quoted verbatim. Ids (C, E) point into the ledger.",
		section("Objective", state.objective === null ? [] : [state.objective]),
		section(
			"Rules in force",
			state.rules.map((r) => `${r.id}\n${quoted(r.text)}\n(${r.source})`),
		),
		section("Decisions", state.decisions.map(findingLine)),
		section("Dead ends", state.deadEnds.map(findingLine)),
		section("Open errors", open.map(errorLine)),
		section(
			"Values",
			state.values.slice(valuesDropped).map((v) => `- ${v.name}: ${v.value} (${v.source})`),
		),
		section(
			"Notes",
			state.notes.map((n) => `- ${n.id}: ${n.text}`),
		),
		section("Files", fileLines(state)),
		section("World", worldLines(state.world)),
		section(
			"Work log",
			state.workLog.slice(workLogDropped).map((l) => `- span ${l.span}: ${l.text}`),
		),
		section("Now", state.now === null ? [] : [state.now]),
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
	const work = leastFitting(state.workLog.length, (n) => within(render(state, n, 0)));
	const values =
		work < state.workLog.length || within(render(state, work, 0))
			? 0
			: leastFitting(state.values.length, (n) => within(render(state, work, n)));
	const text = render(state, work, values);
	return {
		text,
		capFit: { limit, chars: text.length, workLogDropped: work, valuesDropped: values, fits: within(text) },
	};
}

import { leastFitting, type World } from "../events/index.js";
import { type Command, type Finding, type LedgerError, openErrors, type State } from "../reducers/index.js";
import { commandsById } from "./command-text.js";
import { errorLine } from "./error-line.js";
import { sanitize } from "./sanitize.js";
import { type ShownValue, shownValues } from "./shown-values.js";

/** The rendered summary's default cap, in characters (`summaryChars`, docs/contracts.md, Inside pi). */
export const DEFAULT_SUMMARY_CHARS = 12_000;

/**
 * The sections the cap may cut, in the order it cuts them; the rules in force and Now are never cut.
 * Exported for tests.
 */
export const CUT_ORDER = [
	"workLog",
	"values",
	"files",
	"world",
	"notes",
	"deadEnds",
	"decisions",
	"openErrors",
	"objective",
] as const;

export type CutSection = (typeof CUT_ORDER)[number];

/** What the cap cut, section by section, and whether the summary fits. */
export interface CapFit {
	readonly limit: number;
	readonly chars: number;
	/** How many items of each section were left out (the oldest first; the World's parts, its diff stat first). */
	readonly cut: Readonly<Record<CutSection, number>>;
	/** The length of the heading, the rules in force and Now alone: what no cut can go under. */
	readonly rulesAndNowChars: number;
	/** False only when the rules in force and Now alone pass the limit (then nothing else is shown). */
	readonly fits: boolean;
}

export interface Rendered {
	readonly text: string;
	readonly capFit: CapFit;
}

const HEADING =
	"# Session state (Longhaul)\nRules are the user's own words, quoted verbatim. Ids (C, E) point into the ledger.";

function section(title: string, lines: readonly string[]): string | undefined {
	return lines.length === 0 ? undefined : `## ${title}\n${lines.join("\n")}`;
}

/**
 * Text no user wrote as a rule (error heads, decisions, notes, values, World fields) on one line, behind a prefix of
 * its own: tool output or a model must not be able to draw a "Rules in force" section into the summary pi stores.
 */
function oneLine(text: string): string {
	return leftTrimmed(text).replace(/ $/, "");
}

/**
 * `oneLine` but for the space a trailing run of white space leaves: what a name adds to a list of names on one line,
 * since there the run that starts a name joins the space after the comma before it.
 */
function leftTrimmed(text: string): string {
	// A lone carriage return is kept, for the sanitizer to show: it is what hides the start of a line. So are the
	// invisible characters JavaScript counts as white space (U+2028, U+2029, U+FEFF): each shows as its escape.
	return text
		.replace(/\r\n/g, "\n")
		.replace(/[^\S\r\u2028\u2029\ufeff]+/g, " ")
		.replace(/^ /, "");
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

/** The user's words in a quote block, each of their lines (a CRLF is a line break) behind `> `. */
function quoted(text: string): string {
	return text
		.split(/\r?\n/)
		.map((line) => `> ${line}`)
		.join("\n");
}

function findingLine(f: Finding): string {
	const text = oneLine(f.text);
	return f.evidence.length === 0 ? `- ${f.id}: ${text}` : `- ${f.id}: ${text} (${f.evidence.join(", ")})`;
}

function openErrorLine(e: LedgerError, commands: ReadonlyMap<string, Command>): string {
	return `- ${errorLine(e, { commands, span: true }, oneLine(e.head))}`;
}

/** `commit 1507f8b (git log --oneline -3, C3)`; a value the model named shows its turn. */
function valueLine(v: ShownValue): string {
	const from = v.command === null ? v.source : `${v.command}, ${v.source}`;
	return `- ${oneLine(v.kind)} ${oneLine(v.value)} (${from})`;
}

/**
 * A section the cap can cut: how many items it has, its lines with `dropped` of them left out, and the length those
 * lines take in the summary (`linesChars`), found without drawing them where there can be many.
 */
interface Cuttable {
	readonly count: number;
	readonly lines: (dropped: number) => string[];
	readonly chars: (dropped: number) => number;
}

/**
 * The length a line takes in the summary: sanitized, with the line break after it. The summary's length is the sum of
 * its lines' so measured, since `sanitize` of two texts joined is each sanitized alone wherever the join has an ASCII
 * character on one side: the sanitizer shows each character by itself (an ASCII one is no half of a surrogate pair; a
 * carriage return before the line break shows as `\x0d`, as anywhere), and keeps a joiner raw by what stands beside it
 * only up to the first character that is no part of an emoji, as no ASCII character is. The cap's search measures a
 * cut by these sums, not by drawing the summary at each cut.
 */
function lineChars(line: string): number {
	return sanitize(`${line}\n`).length;
}

function linesChars(lines: readonly string[]): number {
	return lines.reduce((sum, line) => sum + lineChars(line), 0);
}

/** `sums[k]`: the sum of the first k numbers. */
function runningSums(numbers: readonly number[]): number[] {
	const sums = [0];
	for (const n of numbers) sums.push((sums.at(-1) ?? 0) + n);
	return sums;
}

/** An item of a listed section: its line and the id `longhaul_recall` reads it back by. */
interface Item {
	readonly id: string;
	readonly line: string;
}

/** The items left out of a section: how many, and the ids of the oldest and the newest of them. */
interface LeftOut {
	readonly count: number;
	readonly first: string;
	readonly last: string;
}

/**
 * The line that counts the items left out: `and 130 more open errors, E1 to E130: longhaul_recall gives each`, or
 * `150 open errors, E1 to E150: …` when none of the section is shown.
 */
function omitted(left: LeftOut, noun: readonly [string, string], more: boolean): string {
	const first = oneLine(left.first);
	const last = oneLine(left.last);
	const ids = left.count === 1 ? first : `${first} to ${last}`;
	const counted = `${left.count} ${more ? "more " : ""}${left.count === 1 ? noun[0] : noun[1]}`;
	return `- ${more ? "and " : ""}${counted}, ${ids}: longhaul_recall gives each`;
}

/** Items oldest first: the cap leaves out the oldest and counts them on the section's last line. */
function oldestFirst(items: readonly Item[], noun: readonly [string, string]): Cuttable {
	const countLine = (dropped: number) =>
		omitted(
			{ count: dropped, first: items[0]?.id ?? "", last: items[dropped - 1]?.id ?? "" },
			noun,
			dropped < items.length,
		);
	const before = runningSums(items.map((i) => lineChars(i.line)));
	const all = before.at(-1) ?? 0;
	return {
		count: items.length,
		lines: (dropped) => {
			const kept = items.slice(dropped).map((i) => i.line);
			return dropped === 0 ? kept : [...kept, countLine(dropped)];
		},
		chars: (dropped) => all - (before[dropped] ?? 0) + (dropped === 0 ? 0 : lineChars(countLine(dropped))),
	};
}

/** Items newest first (the shown values): the cap leaves out the oldest, at the end. */
function newestFirst(items: readonly Item[], noun: readonly [string, string]): Cuttable {
	const countLine = (keep: number) =>
		omitted({ count: items.length - keep, first: items.at(-1)?.id ?? "", last: items[keep]?.id ?? "" }, noun, keep > 0);
	const before = runningSums(items.map((i) => lineChars(i.line)));
	return {
		count: items.length,
		lines: (dropped) => {
			const keep = items.length - dropped;
			const kept = items.slice(0, keep).map((i) => i.line);
			return dropped === 0 ? kept : [...kept, countLine(keep)];
		},
		chars: (dropped) => {
			const keep = items.length - dropped;
			return (before[keep] ?? 0) + (dropped === 0 ? 0 : lineChars(countLine(keep)));
		},
	};
}

/** A section of a few parts (one line, or the World's blocks): each length measured once, when first asked. */
function fewParts(count: number, lines: (dropped: number) => string[]): Cuttable {
	const known = new Map<number, number>();
	return {
		count,
		lines,
		chars: (dropped) => {
			const chars = known.get(dropped) ?? linesChars(lines(dropped));
			known.set(dropped, chars);
			return chars;
		},
	};
}

/** A section of one line, left out whole. */
function single(line: string | null): Cuttable {
	return fewParts(line === null ? 0 : 1, (dropped) =>
		line === null ? [] : [dropped === 0 ? line : "(left out to fit summaryChars)"],
	);
}

function namesLine(label: string, names: readonly string[], dropped: number): string {
	return keptNamesLine(label, oneLine(names.slice(dropped).join(", ")), dropped);
}

/** `Read: a.ts, b.ts, and 2 files more`: the names kept, on one line, and a count of the `dropped` before them. */
function keptNamesLine(label: string, kept: string, dropped: number): string {
	if (dropped === 0) return `${label}: ${kept}`;
	const files = `${dropped} ${dropped === 1 ? "file" : "files"}`;
	return kept === "" ? `${label}: ${files} left out` : `${label}: ${kept}, and ${files} more`;
}

/**
 * `lineChars(namesLine(label, names, dropped))` from sums over the names. `oneLine` of the names joined by ", " is the
 * names each `leftTrimmed`, so joined, less a trailing space: a run of white space that starts a name merges with the
 * space before it, and none reaches past a comma. With two names or more kept, the line is `keptNamesLine` of the
 * last name behind its comma (where a trailing space can come from) with the names before it, each with its ", ",
 * put in after `label: `: each split so made has a comma or a space on one side, so `lineChars` adds up over them.
 */
function namesChars(label: string, names: readonly string[]): (dropped: number) => number {
	const pieces = names.map(leftTrimmed);
	const withComma = runningSums(pieces.map((p) => sanitize(p).length + 2));
	const lastAt = names.length - 1;
	const last = `, ${pieces[lastAt] ?? ""}`.replace(/ $/, "");
	return (dropped) => {
		if (dropped >= lastAt) return lineChars(namesLine(label, names, dropped));
		// The names from `dropped` to the one before the last, each with its ", " but the one `last` starts with.
		const between = (withComma[lastAt] ?? 0) - (withComma[dropped] ?? 0) - 2;
		return lineChars(keptNamesLine(label, last, dropped)) + between;
	};
}

/** Files read go before files modified, the earliest named first of each. */
function fileLines(state: State): Cuttable {
	const { read, modified } = state.files;
	const readChars = namesChars("Read", read);
	const modifiedChars = namesChars("Modified", modified);
	return {
		count: read.length + modified.length,
		lines: (dropped) => {
			const readDropped = Math.min(dropped, read.length);
			const lines: string[] = [];
			if (modified.length > 0) lines.push(namesLine("Modified", modified, dropped - readDropped));
			if (read.length > 0) lines.push(namesLine("Read", read, readDropped));
			return lines;
		},
		chars: (dropped) => {
			const readDropped = Math.min(dropped, read.length);
			const modifiedLine = modified.length > 0 ? modifiedChars(dropped - readDropped) : 0;
			return modifiedLine + (read.length > 0 ? readChars(readDropped) : 0);
		},
	};
}

/** The World's parts: its branch and HEAD, then its git blocks, the diff stat cut first, then the log, the status. */
function worldLines(world: World | null): Cuttable {
	if (world === null) return fewParts(0, () => []);
	if (!world.taken) return single(`(not taken: ${oneLine(world.reason)})`);
	const blocks = (
		[
			["status:", world.status],
			["recent log:", world.log],
			["diff stat:", world.diffStat],
		] as const
	).filter(([, text]) => text !== "");
	return fewParts(blocks.length + 1, (dropped) => {
		if (dropped > blocks.length) return ["(left out to fit summaryChars; git gives it)"];
		const kept = blocks.slice(0, blocks.length - dropped);
		const left = blocks.slice(blocks.length - dropped).map(([title]) => title.slice(0, -1));
		return [
			`branch: ${oneLine(world.branch)}`,
			`HEAD: ${oneLine(world.head)}`,
			...kept.flatMap(([title, text]) => [title, ...fenced(text)]),
			...(left.length === 0 ? [] : [`(left out to fit summaryChars: ${left.join(", ")})`]),
		];
	});
}

/** Every section the cap may cut, from the state, computed once per summary. */
function cuttables(state: State): Readonly<Record<CutSection, Cuttable>> {
	const commands = commandsById(state);
	const open = openErrors(state);
	const findings = (list: readonly Finding[]) => list.map((f) => ({ id: f.id, line: findingLine(f) }));
	return {
		objective: single(state.objective === null ? null : ownLine(state.objective)),
		decisions: oldestFirst(findings(state.decisions), ["decision", "decisions"]),
		deadEnds: oldestFirst(findings(state.deadEnds), ["dead end", "dead ends"]),
		openErrors: oldestFirst(
			open.map((e) => ({ id: e.id, line: openErrorLine(e, commands) })),
			["open error", "open errors"],
		),
		values: newestFirst(
			shownValues(state).map((v) => ({ id: v.source, line: valueLine(v) })),
			["value", "values"],
		),
		notes: oldestFirst(
			state.notes.map((n) => ({ id: n.id, line: `- ${n.id}: ${oneLine(n.text)}` })),
			["note", "notes"],
		),
		files: fileLines(state),
		world: worldLines(state.world),
		workLog: oldestFirst(
			state.workLog.map((l) => ({ id: `span ${l.span}`, line: `- span ${l.span}: ${oneLine(l.text)}` })),
			["work-log line", "work-log lines"],
		),
	};
}

/** The sections the cap never cuts. */
interface Kept {
	readonly rules: string | undefined;
	readonly now: string | undefined;
}

function kept(state: State): Kept {
	return {
		rules: section(
			"Rules in force",
			state.rules.map((r) => `${r.id}\n${quoted(r.text)}\n(${r.source})`),
		),
		now: section("Now", state.now === null ? [] : [ownLine(state.now)]),
	};
}

/** Every text of the summary passes the one sanitizer: no control, bidi or escape character reaches pi's view raw. */
function joined(sections: readonly (string | undefined)[]): string {
	return sanitize(`${sections.filter((s) => s !== undefined).join("\n\n")}\n`);
}

type Cut = Record<CutSection, number>;

/** Each section's title, as its `## ` line shows it. */
const TITLES: Readonly<Record<CutSection, string>> = {
	objective: "Objective",
	decisions: "Decisions",
	deadEnds: "Dead ends",
	openErrors: "Open errors",
	values: "Values",
	notes: "Notes",
	files: "Files",
	world: "World",
	workLog: "Work log",
};

function render(fixed: Kept, parts: Readonly<Record<CutSection, Cuttable>>, cut: Readonly<Cut>): string {
	const cutSection = (key: CutSection) => section(TITLES[key], parts[key].lines(cut[key]));
	return joined([
		HEADING,
		cutSection("objective"),
		fixed.rules,
		cutSection("decisions"),
		cutSection("deadEnds"),
		cutSection("openErrors"),
		cutSection("values"),
		cutSection("notes"),
		cutSection("files"),
		cutSection("world"),
		cutSection("workLog"),
		fixed.now,
	]);
}

/**
 * `render(fixed, parts, cut).length` without drawing it: `alwaysChars` (`fixedChars(fixed)`) and, for each cut section
 * shown, its blank line, its title's line and its lines, each line measured by `lineChars`. A section is left out
 * exactly when it has no lines, and a line measures at least its line break: so exactly when its lines measure 0.
 */
function renderedChars(alwaysChars: number, parts: Readonly<Record<CutSection, Cuttable>>, cut: Readonly<Cut>): number {
	let chars = alwaysChars;
	for (const key of CUT_ORDER) {
		const lines = parts[key].chars(cut[key]);
		if (lines > 0) chars += 1 + lineChars(`## ${TITLES[key]}`) + lines;
	}
	return chars;
}

/** The length of the heading's line and of the rules in force and Now, each after its blank line. */
function fixedChars(fixed: Kept): number {
	const shown = (text: string | undefined) => (text === undefined ? 0 : 1 + lineChars(text));
	return lineChars(HEADING) + shown(fixed.rules) + shown(fixed.now);
}

function cutOf(count: (key: CutSection) => number): Cut {
	return {
		workLog: count("workLog"),
		values: count("values"),
		files: count("files"),
		world: count("world"),
		notes: count("notes"),
		deadEnds: count("deadEnds"),
		decisions: count("decisions"),
		openErrors: count("openErrors"),
		objective: count("objective"),
	};
}

/**
 * The state as the Markdown summary pi stores, within `limit` characters unless the rules in force and Now alone
 * pass it: each section in `CUT_ORDER` loses its oldest items, counted on a line of their own, until the text fits;
 * when even every cut leaves it over, the heading, rules and Now stand alone. Same state, same bytes.
 */
export function renderSummary(state: State, limit: number = DEFAULT_SUMMARY_CHARS): Rendered {
	const fixed = kept(state);
	const parts = cuttables(state);
	const cut = cutOf(() => 0);
	const alwaysChars = fixedChars(fixed);
	for (const key of CUT_ORDER) {
		if (renderedChars(alwaysChars, parts, cut) <= limit) break;
		const fits = (n: number) => renderedChars(alwaysChars, parts, { ...cut, [key]: n }) <= limit;
		// A count line can be longer than the item it stands for, so `fits` need not hold above its least count.
		const least = leastFitting(parts[key].count, fits);
		cut[key] = fits(least) ? least : parts[key].count;
	}
	const text = render(fixed, parts, cut);
	const alone = joined([HEADING, fixed.rules, fixed.now]);
	const over = text.length > limit;
	const final = over ? alone : text;
	return {
		text: final,
		capFit: {
			limit,
			chars: final.length,
			cut: over ? cutOf((key) => parts[key].count) : cut,
			rulesAndNowChars: alone.length,
			fits: final.length <= limit,
		},
	};
}

/** A summary drawn at a cut, and its length as the cap's search measures it. */
export interface MeasuredCut {
	readonly text: string;
	readonly chars: number;
}

/**
 * The summary with `cut[key]` items of each section left out (as many as it has, at most), drawn, and its length as
 * the cap's search measures it without drawing it: the two agree at every cut, or the search picks other cuts than
 * drawing each would. Exported for tests.
 */
export function cutSummary(state: State, cut: Readonly<Record<CutSection, number>>): MeasuredCut {
	const fixed = kept(state);
	const parts = cuttables(state);
	const held = cutOf((key) => Math.min(Math.max(0, cut[key]), parts[key].count));
	return { text: render(fixed, parts, held), chars: renderedChars(fixedChars(fixed), parts, held) };
}

/**
 * The state as a pass's prompt shows it, under a title of its own: the summary without its heading (the two lines
 * that tell the agent how to read it) and without its World, since the prompt shows the span's own snapshot. Each
 * call would otherwise send both again.
 */
export function summaryBody(state: State, limit: number = DEFAULT_SUMMARY_CHARS): string {
	// `joined` puts the heading first and a blank line after it.
	return renderSummary({ ...state, world: null }, limit).text.slice(HEADING.length + 2);
}

import type { UserMessage, World } from "../../events/index.js";
import { type Event, fixerOf, isRecord, userText } from "../../events/index.js";
import { errorLine, headAndTail, sliceWhole } from "../../projections/index.js";
import { openErrors, type State } from "../../reducers/index.js";

/** The text on one line: every run of whitespace one space, none at either end. */
export function oneLine(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

/** `units` of a text taken from one of its ends. */
type Taken = (text: string, units: number) => string;

const fromStart: Taken = (text, units) => text.slice(0, units);
const fromEnd: Taken = (text, units) => text.slice(text.length - units);

/**
 * `oneLine(text)`, or, where that is at least `count` long, a start (or end) of it at least `count` long, made of the
 * text's start (end) alone: the first 2 × `count` units, twice that, …, as long as it takes. A stretch of text on
 * one line, trimmed, is a start (an end) of the whole on one line, since a run of blanks cut at its end is one blank
 * either way. A tool's output of megabytes costs what its ends do, not a flattening of it all.
 */
function oneLineEnd(text: string, count: number, take: Taken): string {
	for (let units = Math.max(256, 2 * count); units < text.length; units *= 2) {
		const line = oneLine(take(text, units));
		if (line.length >= count) return line;
	}
	return oneLine(text);
}

/** The text on one line, cut to `max` characters with "…" where it is cut, never inside a surrogate pair. */
export function cut(text: string, max: number): string {
	const line = oneLineEnd(text, max + 1, fromStart);
	return line.length <= max ? line : `${sliceWhole(line, 0, max)}…`;
}

/** An excerpt for a prompt: the text's head and tail with " … " between, on one line unless `lines`. */
export function headTail(text: string, head: number, tail: number, lines = false): string {
	const mark = () => " … ";
	if (lines) {
		const flat = text.trim();
		return flat.length <= head + tail + 3 ? flat : headAndTail(flat, head, tail, mark);
	}
	const start = oneLineEnd(text, head + tail + 4, fromStart);
	if (start.length <= head + tail + 3) return start;
	// The line's first head + 1 and last tail + 1 units are all that `headAndTail` reads of it (a pair split at either
	// cut, a joiner at either end), and the mark here counts nothing.
	const end = oneLineEnd(text, tail + 1, fromEnd);
	return headAndTail(start.slice(0, head + 1) + end.slice(end.length - tail - 1), head, tail, mark);
}

/** What a tool call is about, in a word: a bash command, a path, or its arguments as JSON. */
export function argsText(args: unknown): string {
	if (isRecord(args) && typeof args.command === "string") return args.command;
	if (isRecord(args) && typeof args.path === "string") return args.path;
	return JSON.stringify(args) ?? "";
}

/** The ids a model may cite: earlier spans' open errors, then the span's commands, errors and fixes, one a line. */
export function ledgerLines(ledger: readonly Event[], state: State, width: number): string[] {
	const lines: string[] = [];
	for (const e of openErrors(state)) lines.push(errorLine(e, { span: true, status: true }, cut(e.head, width)));
	for (const event of ledger) {
		if (event.type === "command-recorded")
			lines.push(`${event.data.id} [exit ${event.data.exitCode ?? "?"}] ${cut(event.data.command, width)}`);
		else if (event.type === "error-recorded")
			lines.push(errorLine({ ...event.data, fixedBy: null }, {}, cut(event.data.head, width)));
		else if (event.type === "error-fixed") lines.push(`${event.data.error} fixed by ${fixerOf(event.data)}`);
	}
	return lines;
}

/** The files the span modified and read. */
export function fileLines(ledger: readonly Event[]): string[] {
	const lines: string[] = [];
	for (const event of ledger) {
		if (event.type !== "files-touched") continue;
		if (event.data.modified.length > 0) lines.push(`modified: ${event.data.modified.join(", ")}`);
		if (event.data.read.length > 0) lines.push(`read: ${event.data.read.join(", ")}`);
	}
	return lines;
}

/** The World in three lines, or why there is none. */
export function worldLines(world: World): string[] {
	if (!world.taken) return [`(no snapshot: ${world.reason})`];
	return [`branch ${world.branch}, HEAD ${world.head}`, cut(world.status, 400), cut(world.diffStat, 300)];
}

/** Material in a user message is shown cut like a tool's output: this many characters of its head and tail. */
const MATERIAL_HEAD = 80;
const MATERIAL_TAIL = 50;

/**
 * A user message's text as the prompt shows it: the user's own text, each region pi put into it (`userText`) replaced
 * by `[material <n>: <kind> <name>]`. A message without material is its text unchanged.
 */
export function shownText(text: string): string {
	const { material } = userText(text);
	let out = "";
	let from = 0;
	material.forEach((m, i) => {
		const name = m.name === "" ? "" : ` ${m.name}`;
		out += `${text.slice(from, m.start)}[material ${i + 1}: ${m.kind}${name}]`;
		from = m.end;
	});
	return out + text.slice(from);
}

/**
 * One user message as a prompt line's object (docs/how-it-works.md, One pass): `{ msg, text }`, the text cut to `max`
 * (whole without one), and where pi put text the user never typed into it (a skill's file, files named on pi's command
 * line, its notes on an image), that text apart under `material`, cut to head and tail as tool output is, so the model
 * reads it as material and never as the user's words.
 */
export function messageLine(u: UserMessage, max?: number): Record<string, unknown> {
	const { material } = userText(u.text);
	const shown = shownText(u.text);
	const text = max === undefined ? shown : cut(shown, max);
	if (material.length === 0) return { msg: u.ref, text };
	const quoted = material.map((m, i) => ({
		material: i + 1,
		kind: m.kind,
		...(m.name === "" ? {} : { name: m.name }),
		text: headTail(u.text.slice(m.start, m.end), MATERIAL_HEAD, MATERIAL_TAIL),
	}));
	return { msg: u.ref, text, material: quoted };
}

import type { Event } from "../../events/index.js";

/** What one command printed, under its ledger id. */
export interface CommandOutput {
	readonly id: string;
	readonly output: string;
}

/** The most values one command's output may give, so a huge log does not flood the state. Exported for tests. */
export const VALUES_PER_COMMAND = 5;
/** The most values one span may give. Exported for tests. */
export const VALUES_PER_SPAN = 40;
/** The most distinct values of one kind taken from one output. */
const PER_KIND = 2;
/** How much of an output is scanned: its head for what tools print first, its tail for the summaries they print last. */
const SCAN_CHARS = 16_384;

/** A kind of value and where a tool prints it. */
interface Kind {
	readonly name: string;
	/** Global, with the value in the named group `v`. */
	readonly pattern: RegExp;
	/** Summaries (counts, total time) come last, so those are taken from the end. */
	readonly fromEnd: boolean;
	readonly accept: (value: string) => boolean;
}

const always = (): boolean => true;

const KINDS: readonly Kind[] = [
	{
		name: "port",
		pattern: /(?:(?:\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0)|\[::1?\]):|\bport(?:\s*[:=]\s*|\s*))(?<v>\d{2,5})(?!\d)/gi,
		fromEnd: false,
		accept: (value) => Number(value) <= 65_535,
	},
	{
		name: "hash",
		// Lowercase hex with a letter and a digit, not inside a word, a path segment name or a UUID.
		pattern: /(?<![\w-])(?=[0-9a-f]{0,39}[a-f])(?=[0-9a-f]{0,39}\d)(?<v>[0-9a-f]{7,40})(?![\w-])/g,
		fromEnd: false,
		accept: always,
	},
	{
		name: "version",
		// Not part of a longer dotted number, so an IP address is not a version.
		pattern: /(?<![\w.-])(?<v>v?\d{1,4}\.\d{1,4}\.\d{1,4}(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)(?![\w-]|\.\d)/g,
		fromEnd: false,
		accept: always,
	},
	{
		name: "count",
		pattern: /\b(?<v>\d{1,7} (?:passed|failed|skipped|pending|todo|errors?|warnings?))\b/g,
		fromEnd: true,
		accept: always,
	},
	{
		name: "duration",
		pattern: /(?<![\w.])(?<v>\d{1,6}(?:\.\d{1,3})?m?s)(?!\w)/g,
		fromEnd: true,
		accept: always,
	},
];

/** The part of an output a kind scans, cut at a line break so no token is cut in half. */
function scanned(output: string, fromEnd: boolean): string {
	if (output.length <= SCAN_CHARS) return output;
	if (fromEnd) {
		const tail = output.slice(-SCAN_CHARS);
		return tail.slice(tail.indexOf("\n") + 1);
	}
	const head = output.slice(0, SCAN_CHARS);
	const cut = head.lastIndexOf("\n");
	return cut < 0 ? head : head.slice(0, cut);
}

/** Up to `PER_KIND` distinct values of one kind: the first ones printed, or the last for kinds read from the end. */
function valuesOfKind(kind: Kind, output: string): string[] {
	const all: string[] = [];
	for (const match of scanned(output, kind.fromEnd).matchAll(kind.pattern)) {
		const value = match.groups?.v;
		if (value !== undefined && kind.accept(value)) all.push(value);
	}
	const ordered = kind.fromEnd ? all.reverse() : all;
	return [...new Set(ordered)].slice(0, PER_KIND);
}

/** The values of one output, taking kinds in turn so one chatty kind does not crowd out the others. */
function outputValues(output: string): { name: string; value: string }[] {
	const byKind = KINDS.map((kind) => ({ name: kind.name, values: valuesOfKind(kind, output) }));
	const out: { name: string; value: string }[] = [];
	for (let round = 0; round < PER_KIND; round++) {
		for (const { name, values } of byKind) {
			const value = values[round];
			// A value is kept only where it stands verbatim in what the command printed.
			if (value !== undefined && output.includes(value)) out.push({ name, value });
		}
	}
	return out.slice(0, VALUES_PER_COMMAND);
}

/**
 * Values code learns from commands' output without a model (ports, hashes, versions, counts, durations), each
 * sourced to its command, in command order. Over the span's bound the newest are kept, since the work goes on
 * from there; a value several commands printed is sourced to the newest of them.
 */
export function valueEvents(outputs: readonly CommandOutput[]): Event[] {
	const events: Event[] = [];
	const seen = new Set<string>();
	for (const { id, output } of [...outputs].reverse()) {
		if (events.length >= VALUES_PER_SPAN) break;
		const fresh = outputValues(output).filter(({ name, value }) => !seen.has(`${name}\u0000${value}`));
		for (const { name, value } of fresh.slice(0, VALUES_PER_SPAN - events.length).reverse()) {
			seen.add(`${name}\u0000${value}`);
			events.push({ type: "value-recorded", data: { name, value, source: id } });
		}
	}
	return events.reverse();
}

import type { Event, EventOf, Located } from "../events/index.js";
import type { Command, Folded, LedgerError, SpanClose, State, WorkLogLine } from "../reducers/index.js";
import { commandsById } from "./command-text.js";
import { errorLine } from "./error-line.js";
import { sanitize } from "./sanitize.js";
import { renderSummary } from "./summary.js";

function foreignLines(state: State): string[] {
	if (state.foreign.length === 0) return [];
	return [
		"",
		`Foreign compactions (not Longhaul's): ${state.foreign.length}`,
		...state.foreign.map(
			(f) => `- entry ${f.entry}: ${f.summaryChars} characters of summary${f.fromHook ? ", by an extension" : ""}`,
		),
	];
}

/** The default view: the rendered summary, the foreign compactions, and a count of anomalies. */
export function stateView(state: State, summaryChars?: number): string {
	const empty = state.spans === 0 && state.rules.length === 0 && state.notes.length === 0;
	const head = empty ? ["(no Longhaul state on this branch yet)"] : [renderSummary(state, summaryChars).text.trimEnd()];
	const anomalies = state.anomalies.length === 0 ? [] : ["", `Anomalies: ${state.anomalies.length} (see --anomalies)`];
	return `${sanitize([...head, ...foreignLines(state), ...anomalies].join("\n"))}\n`;
}

/** `--anomalies`: what the fold could not use, and why. */
export function anomaliesView(state: State): string {
	if (state.anomalies.length === 0) return "No anomalies.\n";
	const lines = state.anomalies.map((a) => `- ${a.entry}: ${a.reason}`);
	return `${sanitize([`Anomalies: ${state.anomalies.length}`, ...lines].join("\n"))}\n`;
}

/** An event that changes the rules: what `--spans` lists as a span's changes. */
type RuleChange = EventOf<"rule-added"> | EventOf<"rule-lifted">;

const isRuleChange = (event: Event): event is RuleChange => event.type === "rule-added" || event.type === "rule-lifted";

function changeLine(event: RuleChange): string {
	return event.type === "rule-added"
		? `rule from ${event.data.source}`
		: `lift of ${event.data.target} by ${event.data.by}`;
}

/** `items` in groups by `key`, each group in the items' order. */
function groupedBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
	const groups = new Map<K, T[]>();
	for (const item of items) {
		const k = key(item);
		const group = groups.get(k);
		if (group === undefined) groups.set(k, [item]);
		else group.push(item);
	}
	return groups;
}

/** What `--spans` shows of each span, grouped in one reading of the branch rather than searched for each span. */
interface SpanParts {
	/** The entry of each span's first `span-closed` event. */
	readonly closing: ReadonlyMap<number, string>;
	/** The events each entry stored (those with a seq), in branch order. */
	readonly stored: ReadonlyMap<string, readonly Located[]>;
	readonly commands: ReadonlyMap<number, readonly Command[]>;
	readonly errors: ReadonlyMap<number, readonly LedgerError[]>;
	readonly workLog: ReadonlyMap<number, readonly WorkLogLine[]>;
}

function spanParts({ state, events }: Folded): SpanParts {
	const closing = new Map<number, string>();
	for (const l of events)
		if (l.event.type === "span-closed" && !closing.has(l.event.data.span)) closing.set(l.event.data.span, l.entry);
	return {
		closing,
		stored: groupedBy(
			events.filter((l) => l.seq !== null),
			(l) => l.entry,
		),
		commands: groupedBy(state.commands, (c) => c.span),
		errors: groupedBy(state.errors, (e) => e.span),
		workLog: groupedBy(state.workLog, (l) => l.span),
	};
}

/** One span's lines in `--spans`. */
function spanLines(close: SpanClose, parts: SpanParts, commands: ReadonlyMap<string, Command>): string[] {
	const entry = parts.closing.get(close.span) ?? "?";
	const mine = (parts.stored.get(entry) ?? []).map((l) => l.event);
	const counts = new Map<string, number>();
	for (const e of mine) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
	const narrative = parts.workLog.get(close.span)?.[0]?.text ?? "(none)";
	return [
		`Span ${close.span} (entry ${entry}, ${close.kind}${close.reason === null ? "" : `: ${close.reason}`})`,
		`  events: ${[...counts].map(([type, n]) => `${type} ${n}`).join(", ") || "none"}`,
		`  changes: ${mine.filter(isRuleChange).map(changeLine).join("; ") || "none"}`,
		...(parts.commands.get(close.span) ?? []).map((c) => `  ${c.id} [exit ${c.exitCode ?? "?"}] ${c.command}`),
		...(parts.errors.get(close.span) ?? []).map((e) => `  ${errorLine(e, { commands, status: true })}`),
		...(close.unlabeled.length > 0 ? [`  unlabeled: ${close.unlabeled.join(", ")}`] : []),
		`  narrative: ${narrative}`,
	];
}

/** `--spans`: every span with its entry, events, commands, errors and narrative. */
export function spansView(folded: Folded): string {
	const { state } = folded;
	const commands = commandsById(state);
	const parts = spanParts(folded);
	const out = state.closes.flatMap((close) => spanLines(close, parts, commands));
	if (out.length === 0) out.push("No Longhaul spans on this branch.");
	return `${sanitize([...out, ...foreignLines(state)].join("\n"))}\n`;
}

import type { Event, EventOf } from "../events/index.js";
import type { Folded, State } from "../reducers/index.js";
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

/** `--spans`: every span with its entry, events, commands, errors and narrative. */
export function spansView(folded: Folded): string {
	const { state, events } = folded;
	const commands = commandsById(state);
	const out: string[] = [];
	for (const close of state.closes) {
		const closing = events.find((l) => l.event.type === "span-closed" && l.event.data.span === close.span);
		const entry = closing?.entry ?? "?";
		const mine = events.filter((l) => l.entry === entry && l.seq !== null).map((l) => l.event);
		const counts = new Map<string, number>();
		for (const e of mine) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
		const narrative = state.workLog.find((l) => l.span === close.span)?.text ?? "(none)";
		out.push(`Span ${close.span} (entry ${entry}, ${close.kind}${close.reason === null ? "" : `: ${close.reason}`})`);
		out.push(`  events: ${[...counts].map(([type, n]) => `${type} ${n}`).join(", ") || "none"}`);
		out.push(`  changes: ${mine.filter(isRuleChange).map(changeLine).join("; ") || "none"}`);
		for (const c of state.commands.filter((c) => c.span === close.span))
			out.push(`  ${c.id} [exit ${c.exitCode ?? "?"}] ${c.command}`);
		for (const e of state.errors.filter((e) => e.span === close.span))
			out.push(`  ${errorLine(e, { commands, status: true })}`);
		if (close.unlabeled.length > 0) out.push(`  unlabeled: ${close.unlabeled.join(", ")}`);
		out.push(`  narrative: ${narrative}`);
	}
	if (out.length === 0) out.push("No Longhaul spans on this branch.");
	return `${sanitize([...out, ...foreignLines(state)].join("\n"))}\n`;
}

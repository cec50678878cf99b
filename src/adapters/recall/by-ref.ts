import type { Entry, LocatedSpanRecord, SpanRecord } from "../../events/index.js";
import { eachUserMessage, messageOf, writtenAs } from "../../events/index.js";
import { commandsById, errorLabel, errorLine, headAndTail, sanitize, sliceWhole } from "../../projections/index.js";
import type { Command, State } from "../../reducers/index.js";

/** What `longhaul_recall` can look up: the state, the span records and the branch they were folded from. */
export interface RecallSources {
	readonly state: State;
	readonly spanRecords: readonly LocatedSpanRecord[];
	readonly branch: readonly Entry[];
}

/** The most characters any recall answer has, whatever was asked: a ref of any kind, a query's results, an echo. */
export const RECALL_CHARS = 6000;
/**
 * How much of its end a longer answer keeps; the rest of the cap is its head, and the middle is counted.
 * Exported for tests.
 */
export const RECALL_TAIL_CHARS = 1000;

/** Room the mark `headAndTail` puts between head and tail takes, for a text of `length` characters. */
const markChars = (length: number): number => "\n…  characters left out …\n".length + String(length).length;

/**
 * A recall answer as it leaves: terminal-safe, and at most `RECALL_CHARS` long (its head and its last
 * `RECALL_TAIL_CHARS` when longer). Give it text already redacted whole, so no cut shows a piece of a secret.
 */
export function recallAnswer(text: string): string {
	const safe = sanitize(text);
	if (safe.length <= RECALL_CHARS) return safe;
	return headAndTail(safe, RECALL_CHARS - RECALL_TAIL_CHARS - markChars(safe.length), RECALL_TAIL_CHARS);
}

/** The text of the branch's first tool result, in the shape pi writes, of the call `toolCallId`. */
function resultOf(toolCallId: string, branch: readonly Entry[]): string | undefined {
	for (const entry of branch) {
		if (writtenAs(entry, "toolResult")?.toolCallId !== toolCallId) continue;
		const message = messageOf(entry);
		if (message?.role === "toolResult") return message.text;
	}
	return undefined;
}

/** Where a user's run stands among the ledger's user runs of the same text, from 0; -1 when it is not among them. */
function placeAmongRuns(command: Command, commands: readonly Command[]): number {
	let place = 0;
	for (const c of commands) {
		if (c.toolCallId !== null || c.command !== command.command) continue;
		if (c.id === command.id) return place;
		place++;
	}
	return -1;
}

/** The output of the user's run of `text` at `place` (from 0) among the branch's runs of it in the shape pi writes. */
function runOf(text: string, place: number, branch: readonly Entry[]): string | undefined {
	if (place < 0) return undefined;
	let seen = 0;
	for (const entry of branch) {
		if (writtenAs(entry, "bashExecution")?.command !== text) continue;
		const message = messageOf(entry);
		if (message?.role === "bashExecution" && seen++ === place) return message.output;
	}
	return undefined;
}

/**
 * What a command printed, from the transcript's own entries: the result of its tool call, or for a user's `!` run
 * the run with the same text at the same place among the branch's runs of that text (as the ledger numbered them).
 * The branch is read up to the entry wanted, and only entries that can be it are decoded.
 */
export function printedBy(command: Command, sources: RecallSources): string | undefined {
	if (command.toolCallId !== null) return resultOf(command.toolCallId, sources.branch);
	return runOf(command.command, placeAmongRuns(command, sources.state.commands), sources.branch);
}

function printedLines(command: Command, sources: RecallSources): string {
	const output = printedBy(command, sources);
	if (output === undefined) return "printed: (its output is not on this branch)";
	if (output.trim() === "") return "printed: (nothing)";
	return `printed (${output.length} characters):\n${output}`;
}

function spanDetail(record: SpanRecord, state: State): string {
	const close = state.closes.find((c) => c.span === record.span);
	const lines = [
		`Span ${record.span} (compaction entry ${record.compactionId}, ${close?.kind ?? "unknown close"})`,
		`narrative: ${state.workLog.find((l) => l.span === record.span)?.text ?? "(none)"}`,
		`chunks ${record.chunks ?? 0}, model calls ${record.calls ?? 0}`,
		...(record.labels ?? []).map((l) => `label ${l.msg}: ${l.label}`),
		...(record.commands ?? []).map((c) => `${c.id} [exit ${c.exitCode ?? "?"}] ${c.command}`),
		...(record.errors ?? []).map((e) => errorLine(e, {})),
		...(record.values ?? []).map((v) => `value ${v.name}: ${v.value} (${v.source})`),
		...(record.excused ?? []).map((x) => `excused ${x.check}: ${x.reason}`),
	];
	return lines.join("\n");
}

function labelsOf(ref: string, records: readonly LocatedSpanRecord[]): string[] {
	return records.flatMap((r) =>
		(r.record.labels ?? []).filter((l) => l.msg === ref).map((l) => `labeled "${l.label}" in span ${r.record.span}`),
	);
}

function ruleDetail(ref: string, sources: RecallSources): string | undefined {
	const inForce = sources.state.rules.find((r) => r.id === ref);
	const lifted = sources.state.lifted.find((r) => r.id === ref);
	const rule = inForce ?? lifted;
	if (rule === undefined) return undefined;
	const status = lifted === undefined ? "in force" : `lifted by ${lifted.by}`;
	return `${rule.id} (${status}), from ${rule.source}:\n${rule.text}`;
}

function ledgerDetail(ref: string, sources: RecallSources): string | undefined {
	const command = sources.state.commands.find((c) => c.id === ref);
	if (command !== undefined) {
		const by = command.by === "user" ? "the user's own run" : "bash tool";
		const head = `${command.id} (span ${command.span}, ${by}) exit ${command.exitCode ?? "unknown"}:`;
		return [head, command.command, printedLines(command, sources)].join("\n");
	}
	const error = sources.state.errors.find((e) => e.id === ref);
	if (error === undefined) return undefined;
	return `${errorLabel(error, { commands: commandsById(sources.state), span: true, status: true })}:\n${error.head}`;
}

function findingDetail(ref: string, state: State): string | undefined {
	const found = [...state.decisions, ...state.deadEnds].find((f) => f.id === ref);
	if (found !== undefined)
		return `${found.id}: ${found.text}${found.evidence.length > 0 ? `\nevidence: ${found.evidence.join(", ")}` : ""}`;
	const note = state.notes.find((n) => n.id === ref);
	return note === undefined ? undefined : `${note.id}: ${note.text}`;
}

/** `recallDetail` as it leaves, unredacted: for callers with no redactor (the eval's facts). */
export function recall(ref: string, sources: RecallSources): string {
	return recallAnswer(recallDetail(ref, sources));
}

/**
 * The whole detail behind a ref (a span number, `R`, `u`, `C`, `E`, `D`, `X` or `N` id), or why there is none; for
 * a command, all it printed. Read-only and uncut: redact it, then give it to `recallAnswer`.
 */
export function recallDetail(ref: string, sources: RecallSources): string {
	const wanted = ref.trim();
	if (/^[1-9][0-9]{0,8}$/.test(wanted)) {
		const record = sources.spanRecords.find((r) => r.record.span === Number(wanted));
		return record === undefined
			? `No detail is recorded for span ${wanted}.`
			: spanDetail(record.record, sources.state);
	}
	const kind = wanted.charAt(0);
	const found =
		kind === "R"
			? ruleDetail(wanted, sources)
			: kind === "C" || kind === "E"
				? ledgerDetail(wanted, sources)
				: kind === "D" || kind === "X" || kind === "N"
					? findingDetail(wanted, sources.state)
					: kind === "u"
						? userDetail(wanted, sources)
						: undefined;
	return (
		found ?? `Nothing is known as "${sliceWhole(wanted, 0, 40)}". Refs are a span number or R, u, C, E, D, X, N ids.`
	);
}

/** The text of the user message `ref` names, read up to it (`eachUserMessage`). */
function userText(ref: string, branch: readonly Entry[]): string | undefined {
	for (const message of eachUserMessage(branch)) if (message.ref === ref) return message.text;
	return undefined;
}

function userDetail(ref: string, sources: RecallSources): string | undefined {
	const text = userText(ref, sources.branch);
	if (text === undefined) return undefined;
	const labels = labelsOf(ref, sources.spanRecords);
	return [`${ref}${labels.length > 0 ? ` (${labels.join("; ")})` : ""}:`, text].join("\n");
}

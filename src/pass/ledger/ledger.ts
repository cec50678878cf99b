import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { Event, EventData, Message, ToolCall } from "../../events/index.js";
import { idNumber } from "../../events/index.js";
import { isOpen, type State } from "../../reducers/index.js";
import { exitIsAnswer } from "./exits.js";
import { callsThatRan, fileEvents, modifiedPath } from "./files.js";
import { type CommandOutput, valueEvents } from "./values.js";

type ToolResult = Extract<Message, { role: "toolResult" }>;
type Assistant = Extract<Message, { role: "assistant" }>;
type UserRun = Extract<Message, { role: "bashExecution" }>;

/** The longest error head kept: enough to recognise the error, short enough for the state. Exported for tests. */
export const HEAD_CHARS = 200;

const BashArguments = t.type({ command: t.string });
/**
 * pi's own bash tool puts no exit code in `details` (only `truncation` and `fullOutputPath`), but an extension that
 * replaces the tool, or an `afterToolCall` hook, may; when it does, it is the best source.
 */
const ExitDetails = t.type({ exitCode: t.union([t.Int, t.null]) });
/** The line pi's bash tool ends a failed run's text with; "Command aborted" and "Command timed out …" carry no code. */
const EXITED = /Command exited with code (-?\d{1,10})\s*$/;
/** The line pi's bash tool ends a run with when its signal fired: the user's interrupt. */
const ABORTED = /(?:^|\n)Command aborted\s*$/;
const MARKER_TAIL = 128;

/** True when pi's bash tool stopped the run because the user interrupted it (no error of the work). */
export function wasAborted(result: ToolResult | undefined): boolean {
	return result?.isError === true && ABORTED.test(result.text.slice(-MARKER_TAIL));
}

/**
 * The exit code of a bash tool call from its result: `details`, then pi's text convention; null when unknown.
 * Exported for tests.
 */
export function toolExitCode(result: ToolResult | undefined): number | null {
	if (result === undefined) return null;
	const details = ExitDetails.decode(result.details);
	if (E.isRight(details)) return details.right.exitCode;
	// pi's bash tool throws, making the result an error, for every non-zero exit, abort and timeout; it returns
	// normally only for exit 0 (or a kill by a signal it does not tell apart from it), whatever the output says.
	if (!result.isError) return 0;
	const marker = EXITED.exec(result.text.slice(-MARKER_TAIL));
	return marker?.[1] === undefined ? null : Number.parseInt(marker[1], 10);
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

/**
 * The head of an error's text: its first `HEAD_CHARS` characters, never half a surrogate pair. Exported for tests.
 */
export function errorHead(text: string, empty: string): string {
	const trimmed = text.trim();
	if (trimmed === "") return empty;
	if (trimmed.length <= HEAD_CHARS) return trimmed;
	const end = isHighSurrogate(trimmed.charCodeAt(HEAD_CHARS - 1)) ? HEAD_CHARS - 1 : HEAD_CHARS;
	return trimmed.slice(0, end);
}

// ---------------------------------------------------------------------------------------------------------------
// The reading of a span: what the ledger knows while it reads one span, seeded from the prior state.

/** An open error that a run of a command raised, with that command's number (a fix must come later). */
interface OpenError {
	readonly id: string;
	readonly raisedBy: number;
}

/** What the ledger knows while it reads one span: the ids so far, what it recorded, what is open. */
interface SpanReading {
	readonly span: number;
	readonly next: { C: number; E: number };
	readonly events: Event[];
	readonly outputs: CommandOutput[];
	/** Tool-call id → command id: a tool call is the same command however often its span is read. */
	readonly byCall: Map<string, string>;
	/** Command id → the error its run raised. */
	readonly errorOf: Map<string, string>;
	/** Command text → the open errors its runs raised, oldest first. */
	readonly open: Map<string, OpenError[]>;
	/** This span's user runs already in the state, by command text, in order (see `userRunId`). */
	readonly userRuns: Map<string, string[]>;
	/** This span's errors without a command already in the state, by tool and head, in order. */
	readonly looseErrors: Map<string, string[]>;
	/** Of those, the ones still open: each joins `openEdits` when the reading meets it again. */
	readonly openLoose: Set<string>;
	/** File path → the open errors of edits and writes of it that failed, oldest first. */
	readonly openEdits: Map<string, string[]>;
	/** This span's model failures already in the state, by head: how many the reading has still to meet. */
	readonly modelFailures: Map<string, number>;
}

function push<V>(map: Map<string, V[]>, key: string, value: V): void {
	const list = map.get(key);
	if (list === undefined) map.set(key, [value]);
	else list.push(value);
}

function nextNumber(ids: readonly (string | null)[]): number {
	let max = 0;
	for (const id of ids) {
		const n = id === null ? 0 : idNumber(id);
		if (Number.isSafeInteger(n)) max = Math.max(max, n);
	}
	return max + 1;
}

const looseKey = (tool: string, head: string): string => `${tool}\u0000${head}`;

function startReading(prior: State, span: number): SpanReading {
	const reading: SpanReading = {
		span,
		next: {
			C: nextNumber([...prior.commands.map((c) => c.id), ...prior.errors.flatMap((e) => [e.command, e.fixedBy])]),
			E: nextNumber(prior.errors.map((e) => e.id)),
		},
		events: [],
		outputs: [],
		byCall: new Map(),
		errorOf: new Map(),
		open: new Map(),
		userRuns: new Map(),
		looseErrors: new Map(),
		openLoose: new Set(),
		openEdits: new Map(),
		modelFailures: new Map(),
	};
	for (const f of prior.modelFailures ?? [])
		if (f.span === span) reading.modelFailures.set(f.head, (reading.modelFailures.get(f.head) ?? 0) + 1);
	const textOf = new Map<string, string>();
	for (const c of prior.commands) {
		textOf.set(c.id, c.command);
		if (c.toolCallId !== null) reading.byCall.set(c.toolCallId, c.id);
		else if (c.span === span) push(reading.userRuns, c.command, c.id);
	}
	for (const e of prior.errors) {
		if (e.command === null) {
			// An error of this span is met again in reading order; one of an earlier span came before all of it.
			if (e.span === span) push(reading.looseErrors, looseKey(e.tool, e.head), e.id);
			if (e.span === span && isOpen(e)) reading.openLoose.add(e.id);
			else if (e.path !== undefined && isOpen(e)) push(reading.openEdits, e.path, e.id);
			continue;
		}
		reading.errorOf.set(e.command, e.id);
		const text = textOf.get(e.command);
		if (isOpen(e) && text !== undefined) push(reading.open, text, { id: e.id, raisedBy: idNumber(e.command) });
	}
	return reading;
}

function take(reading: SpanReading, kind: "C" | "E"): string {
	const n = reading.next[kind];
	reading.next[kind] = n + 1;
	return `${kind}${n}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Recording runs and errors.

/** One run of a command, from a bash tool call or the user's own `!`. */
type Run = Readonly<Pick<EventData<"command-recorded">, "command" | "exitCode" | "toolCallId" | "by">> & {
	/** pi marked it failed (tool result `isError`) even where no exit code says so (timeout, blocked), not aborted. */
	readonly failed: boolean;
	readonly output: string;
};

/** An error no command raised; one of an edit or write names its `path`, which a later success of it fixes. */
function recordLooseError(reading: SpanReading, tool: string, head: string, path: string | undefined): void {
	const known = reading.looseErrors.get(looseKey(tool, head))?.shift();
	if (known !== undefined) {
		if (path !== undefined && reading.openLoose.has(known)) push(reading.openEdits, path, known);
		return;
	}
	const id = take(reading, "E");
	const data = { id, tool, head, span: reading.span, command: null };
	if (path === undefined) {
		reading.events.push({ type: "error-recorded", data });
		return;
	}
	push(reading.openEdits, path, id);
	reading.events.push({ type: "error-recorded", data: { ...data, path } });
}

/** An edit or write that succeeded fixes every open error of an earlier one of the same file. */
function fixEdits(reading: SpanReading, tool: string, path: string): void {
	for (const error of reading.openEdits.get(path) ?? [])
		reading.events.push({ type: "error-fixed", data: { error, byTool: tool, path } });
	reading.openEdits.delete(path);
}

/** A turn the session's model stopped with an error: the session's failure, with no `E<n>`. */
function recordModelFailure(reading: SpanReading, head: string): void {
	const known = reading.modelFailures.get(head) ?? 0;
	if (known > 0) reading.modelFailures.set(head, known - 1);
	else reading.events.push({ type: "model-failed", data: { span: reading.span, head } });
}

function recordRunError(reading: SpanReading, command: string, run: Run): void {
	if (reading.errorOf.has(command)) return;
	const id = take(reading, "E");
	reading.errorOf.set(command, id);
	push(reading.open, run.command, { id, raisedBy: idNumber(command) });
	const head = errorHead(run.output, run.exitCode === null ? "(no output)" : `exit code ${run.exitCode}`);
	reading.events.push({ type: "error-recorded", data: { id, tool: "bash", head, span: reading.span, command } });
}

/** A run that succeeded fixes every open error an earlier run of the same command text raised. */
function fixEarlier(reading: SpanReading, command: string, text: string): void {
	const open = reading.open.get(text);
	if (open === undefined) return;
	const n = idNumber(command);
	const still: OpenError[] = [];
	for (const error of open) {
		if (error.raisedBy < n) reading.events.push({ type: "error-fixed", data: { error: error.id, by: command } });
		else still.push(error);
	}
	reading.open.set(text, still);
}

/** Records a run under `known` (its id from an earlier reading of the span) or a new id, then its error or fixes. */
function recordRun(reading: SpanReading, run: Run, known: string | undefined): string {
	const id = known ?? take(reading, "C");
	if (known === undefined) {
		const { command, exitCode, toolCallId, by } = run;
		reading.events.push({
			type: "command-recorded",
			data: { id, command, exitCode, span: reading.span, toolCallId, by },
		});
	}
	reading.outputs.push({ id, output: run.output });
	// grep finding nothing, diff finding a difference: the run answered, so it is no error and fixes like a success.
	const answered = exitIsAnswer(run.command, run.exitCode);
	if (!answered && (run.failed || (run.exitCode !== null && run.exitCode !== 0))) recordRunError(reading, id, run);
	else if (answered || run.exitCode === 0) fixEarlier(reading, id, run.command);
	return id;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading messages.

function bashCommand(call: ToolCall): string | undefined {
	if (call.name !== "bash") return undefined;
	const decoded = BashArguments.decode(call.arguments);
	return E.isRight(decoded) ? decoded.right.command : undefined;
}

function readAssistant(reading: SpanReading, message: Assistant, results: ReadonlyMap<string, ToolResult>): void {
	if (message.stopReason === "error") recordModelFailure(reading, errorHead(message.errorMessage, "(no message)"));
	for (const call of callsThatRan(message)) {
		const command = bashCommand(call);
		if (command === undefined) continue;
		const result = results.get(call.id);
		const run: Run = {
			command,
			exitCode: toolExitCode(result),
			// A run the user interrupted is recorded, with no exit code, and is no error: the user stopped it.
			failed: result?.isError === true && !wasAborted(result),
			output: result?.text ?? "",
			toolCallId: call.id,
			by: "tool",
		};
		reading.byCall.set(call.id, recordRun(reading, run, reading.byCall.get(call.id)));
	}
}

/**
 * A user run has no id of its own in a message, so it is known by its span, its command text and its place
 * among that span's runs of the same text: the k-th `!ls` of span 3 is the same run however often span 3 is
 * read. pi never puts a message in two spans (each starts where the previous one kept), so this is exact for
 * pi's spans; a span re-read under another number would record its user runs again.
 */
function userRunId(reading: SpanReading, command: string): string | undefined {
	return reading.userRuns.get(command)?.shift();
}

function readUserRun(reading: SpanReading, message: UserRun): void {
	const run: Run = {
		command: message.command,
		// A run the user cancelled has no exit code and is no error: the user stopped it on purpose.
		exitCode: message.cancelled ? null : message.exitCode,
		failed: false,
		output: message.output,
		toolCallId: null,
		by: "user",
	};
	recordRun(reading, run, userRunId(reading, message.command));
}

/** The results of the span by tool-call id (the first one, should an id repeat). */
function resultsById(messages: readonly Message[]): Map<string, ToolResult> {
	const results = new Map<string, ToolResult>();
	for (const message of messages) {
		if (message.role === "toolResult" && !results.has(message.toolCallId)) results.set(message.toolCallId, message);
	}
	return results;
}

/** The span's edit and write calls that ran, by tool-call id, with the file each names. */
function modifyingCalls(messages: readonly Message[]): Map<string, string> {
	const paths = new Map<string, string>();
	for (const message of messages) {
		for (const call of callsThatRan(message)) {
			const path = modifiedPath(call);
			if (path !== undefined && !paths.has(call.id)) paths.set(call.id, path);
		}
	}
	return paths;
}

/** A result of a tool other than bash: a failure is an error with no command; an edit's or write's success fixes. */
function readToolResult(reading: SpanReading, message: ToolResult, paths: ReadonlyMap<string, string>): void {
	const path = paths.get(message.toolCallId);
	// pi keeps a call and its result in one span, so an error here has no command of its own to point to.
	if (message.isError) recordLooseError(reading, message.toolName, errorHead(message.text, "(no output)"), path);
	else if (path !== undefined) fixEdits(reading, message.toolName, path);
}

/** The tool-call ids of the bash calls read as commands; their results are read with the call. */
function bashCallIds(messages: readonly Message[]): Set<string> {
	const ids = new Set<string>();
	for (const message of messages) {
		for (const call of callsThatRan(message)) if (bashCommand(call) !== undefined) ids.add(call.id);
	}
	return ids;
}

/** The ledger of one span: its events in message order, and what each command printed. */
export interface Ledger {
	readonly events: readonly Event[];
	readonly outputs: readonly CommandOutput[];
}

/**
 * The commands and errors of a span, merged with what `prior` carries: ids continue from the highest `C<n>` and
 * `E<n>` in it, a tool call it already holds keeps its id, a success fixes earlier open errors of the same command
 * text, and an edit or write that succeeds fixes earlier failed ones of the same file. The session's own model
 * failing is recorded as the session's (`model-failed`), and a run the user interrupted is no error. Reading the
 * same span again with the resulting state adds nothing. Deterministic.
 */
export function ledgerOf(messages: readonly Message[], span: number, prior: State): Ledger {
	const reading = startReading(prior, span);
	const results = resultsById(messages);
	const bashCalls = bashCallIds(messages);
	const paths = modifyingCalls(messages);
	for (const message of messages) {
		if (message.role === "assistant") readAssistant(reading, message, results);
		else if (message.role === "bashExecution") readUserRun(reading, message);
		else if (message.role === "toolResult" && !bashCalls.has(message.toolCallId))
			readToolResult(reading, message, paths);
	}
	return { events: reading.events, outputs: reading.outputs };
}

/** Step 1 of the pass without the World: the span's ledger, then the values its output shows, then its files. */
export function ledgerEvents(messages: readonly Message[], span: number, prior: State): Event[] {
	const ledger = ledgerOf(messages, span, prior);
	return [...ledger.events, ...valueEvents(ledger.outputs), ...fileEvents(messages)];
}

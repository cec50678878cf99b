import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { Message, UserMessage } from "../../../events/index.js";
import { type Event, type EventOf, fixerOf, userText } from "../../../events/index.js";
import { errorLine } from "../../../projections/index.js";
import type { Command, LedgerError, State } from "../../../reducers/index.js";
import { cut, headTail, messageLine } from "../../prompt/index.js";
import { SHOWS_PER_TURN } from "./sections.js";

/** What `show(ref)` reads from: the branch's user messages, the span's messages and ledger, the state so far. */
export interface ShowSources {
	readonly branch: readonly UserMessage[];
	readonly messages: readonly Message[];
	readonly ledger: readonly Event[];
	readonly state: State;
}

/** What `show` answers: the text, or a refusal when the id is unknown. */
export interface Shown {
	readonly found: boolean;
	readonly text: string;
}

/** A shown text keeps its head and tail within this many characters. */
const SHOW_HEAD = 2500;
const SHOW_TAIL = 1500;

/** The name and the description of the one tool turns mode offers. */
export const SHOW_TOOL = {
	name: "show",
	description:
		"Read-only. Shows in full a user message (u<n>), a command and its output (C<n>), an error (E<n>) or a tool call and its result (by the call id in the Digest).",
	parameter: "ref",
	parameterDescription: "u<n>, C<n>, E<n> or a tool-call id",
} as const;

const long = (text: string) => headTail(text, SHOW_HEAD, SHOW_TAIL, true);

type ToolResult = Extract<Message, { role: "toolResult" }>;

function resultOf(messages: readonly Message[], callId: string | null): ToolResult | undefined {
	for (const m of messages) if (m.role === "toolResult" && m.toolCallId === callId) return m;
	return undefined;
}

function commandOf(sources: ShowSources, id: string | null): Omit<Command, "span"> | undefined {
	for (const e of sources.ledger) if (e.type === "command-recorded" && e.data.id === id) return e.data;
	return sources.state.commands.find((c) => c.id === id);
}

/** The error `id` names: this span's (open until a fix in the ledger), else an earlier span's with what fixed it. */
function errorOf(sources: ShowSources, id: string): LedgerError | undefined {
	for (const e of sources.ledger)
		if (e.type === "error-recorded" && e.data.id === id) return { ...e.data, fixedBy: null };
	return sources.state.errors.find((e) => e.id === id);
}

/** The command `id` names with its output; none when no command has that id (or it has none). */
function showCommand(sources: ShowSources, id: string | null): Shown | undefined {
	const command = commandOf(sources, id);
	if (command === undefined) return undefined;
	const result = resultOf(sources.messages, command.toolCallId);
	const output = result === undefined ? "(output not in this span)" : long(result.text);
	return { found: true, text: `${id} [exit ${command.exitCode ?? "?"}] ${command.command}\n${output}` };
}

/** An error with where it came from, open or what fixed it (this span or an earlier one), and its command. */
function showError(sources: ShowSources, id: string): Shown | undefined {
	const error = errorOf(sources, id);
	if (error === undefined) return undefined;
	const fix = sources.ledger.find((e): e is EventOf<"error-fixed"> => e.type === "error-fixed" && e.data.error === id);
	const fixedBy = fix === undefined ? error.fixedBy : fixerOf(fix.data);
	const command = showCommand(sources, error.command);
	const line = errorLine({ ...error, fixedBy }, { status: true });
	return { found: true, text: `${line}${command === undefined ? "" : `\n${command.text}`}` };
}

function showCall(sources: ShowSources, id: string): Shown | undefined {
	for (const m of sources.messages) {
		if (m.role !== "assistant") continue;
		const call = m.toolCalls.find((c) => c.id === id);
		if (call === undefined) continue;
		const result = resultOf(sources.messages, id);
		const args = cut(JSON.stringify(call.arguments) ?? "", 600);
		const output = result === undefined ? "(no result)" : `${result.isError ? "error: " : ""}${long(result.text)}`;
		return { found: true, text: `${call.name} ${args}\n${output}` };
	}
	return undefined;
}

/** A user message whole; one pi put material into, as the prompt's line shows it, the material apart. */
function userMessageText(message: UserMessage): string {
	return userText(message.text).material.length === 0 ? message.text : JSON.stringify(messageLine(message));
}

function lookup(sources: ShowSources, id: string): Shown | undefined {
	if (/^u[1-9][0-9]{0,8}$/i.test(id)) {
		const message = sources.branch.find((u) => u.ref === id.toLowerCase());
		return message === undefined
			? undefined
			: { found: true, text: `${message.ref}: ${long(userMessageText(message))}` };
	}
	if (/^C[1-9][0-9]{0,8}$/.test(id)) return showCommand(sources, id);
	if (/^E[1-9][0-9]{0,8}$/.test(id)) return showError(sources, id);
	return id === "" ? undefined : showCall(sources, id);
}

/**
 * The text `show(ref)` answers with: the whole thing an id names, or a refusal naming what it takes. Never throws.
 * Exported for tests.
 */
export function showRef(ref: string, sources: ShowSources): Shown {
	const id = ref.trim();
	return (
		lookup(sources, id) ?? {
			found: false,
			text: `unknown id ${JSON.stringify(cut(id, 40))}: show takes u<n>, C<n>, E<n> or a tool-call id from the Digest`,
		}
	);
}

const ShowArguments = t.type({ ref: t.string });

/**
 * The answer to one tool call of a turn: `show(ref)` for the first `SHOWS_PER_TURN` calls, a refusal after them, for
 * another tool, or for arguments that are not `{ref}`. Never throws.
 */
export function answerShow(name: string, args: unknown, callsBefore: number, sources: ShowSources): Shown {
	if (callsBefore >= SHOWS_PER_TURN)
		return { found: false, text: `show is capped at ${SHOWS_PER_TURN} calls a turn: answer with what you have` };
	if (name !== SHOW_TOOL.name)
		return { found: false, text: `there is no tool ${JSON.stringify(cut(name, 40))}: the only tool is show(ref)` };
	const decoded = ShowArguments.decode(args);
	if (E.isLeft(decoded)) return { found: false, text: 'show takes {"ref": "<id>"}' };
	return showRef(decoded.right.ref, sources);
}

import fc from "fast-check";
import { describe, it } from "vitest";
import { fixerOf } from "../../src/events/event.js";
import { decodeEvent, encodeEvent, idNumber, type Message } from "../../src/events/index.js";
import { decodeMessage } from "../../src/events/messages.js";
import { ledgerEvents } from "../../src/pass/ledger/ledger.js";
import { initialState, type State } from "../../src/reducers/index.js";
import { applied } from "../support/applied.js";
import { assistant, bash, call, result, user, userRun } from "../support/messages.js";
import { hostileText } from "./arbitraries.js";
import { law, sameJson } from "./laws.js";

// ---------------------------------------------------------------------------------------------------------------
// Arbitrary spans: pi-shaped turns, each assistant's results right after it, as pi writes them.

const commandText = fc.constantFrom("npm test", "ls", "make", "git status");
const outcome = fc.oneof(
	fc.constant({ kind: "ok" as const, text: "Tests 3 passed\nDuration 1.2s" }),
	fc.record({ kind: fc.constant("exit" as const), code: fc.integer({ min: 1, max: 3 }), text: hostileText }),
	fc.record({ kind: fc.constant("details" as const), code: fc.integer({ min: 0, max: 2 }) }),
	fc.constant({ kind: "aborted" as const }),
	fc.constant({ kind: "failed" as const, text: "Working directory does not exist" }),
	fc.constant({ kind: "none" as const }),
);
const step = fc.oneof(
	fc.constant({ kind: "user" as const }),
	fc.record({
		kind: fc.constant("calls" as const),
		bash: fc.array(fc.record({ command: commandText, outcome }), { maxLength: 3 }),
		edit: fc.option(
			fc.record({
				failed: fc.boolean(),
				name: fc.constantFrom("edit", "write"),
				path: fc.constantFrom("a.ts", "b.ts"),
			}),
			{ nil: undefined },
		),
	}),
	fc.record({
		kind: fc.constant("run" as const),
		command: commandText,
		exitCode: fc.constantFrom(0, 1, 2, null),
		cancelled: fc.boolean(),
	}),
	fc.record({ kind: fc.constant("model-error" as const), message: fc.constantFrom("overloaded", "") }),
	fc.record({ kind: fc.constant("stopped" as const), command: commandText }),
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;
type Outcome = typeof outcome extends fc.Arbitrary<infer O> ? O : never;

function resultOf(toolCallId: string, o: Outcome): Message[] {
	switch (o.kind) {
		case "ok":
			return [result(toolCallId, "bash", o.text)];
		case "exit":
			return [result(toolCallId, "bash", `${o.text}\n\nCommand exited with code ${o.code}`, true)];
		case "details":
			return [result(toolCallId, "bash", "out", o.code !== 0, { exitCode: o.code })];
		case "aborted":
			return [result(toolCallId, "bash", "Command aborted", true)];
		case "failed":
			return [result(toolCallId, "bash", o.text, true)];
		case "none":
			return [];
	}
}

function messagesOf(steps: readonly Step[], prefix: string): Message[] {
	const out: Message[] = [];
	steps.forEach((s, i) => {
		const id = (j: number) => `${prefix}${i}.${j}`;
		switch (s.kind) {
			case "user":
				out.push(user("go on"));
				return;
			case "calls": {
				const calls = s.bash.map((b, j) => bash(id(j), b.command));
				const edit = s.edit === undefined ? [] : [call(id(9), s.edit.name, { path: s.edit.path })];
				out.push(assistant("", [...calls, ...edit], "toolUse"));
				s.bash.forEach((b, j) => {
					out.push(...resultOf(id(j), b.outcome));
				});
				if (s.edit !== undefined) {
					const { failed, name } = s.edit;
					const text = failed ? `Could not find the exact text in ${s.edit.path}` : "ok";
					out.push(result(id(9), name, text, failed, {}));
				}
				return;
			}
			case "run":
				out.push(userRun(s.command, s.exitCode, s.cancelled, "o"));
				return;
			case "model-error":
				out.push(assistant("", [], "error", s.message));
				return;
			case "stopped":
				out.push(assistant("", [bash(id(0), s.command)], "aborted"));
				return;
		}
	});
	return out;
}

const span = (prefix: string) => fc.array(step, { maxLength: 12 }).map((steps) => messagesOf(steps, prefix));

const fold = (state: State, messages: readonly Message[], n: number): State =>
	applied(state, ledgerEvents(messages, n, state));

const ledgerOnly = (state: State) => ({
	commands: state.commands.map(({ id, command, exitCode, toolCallId, by }) => ({
		id,
		command,
		exitCode,
		toolCallId,
		by,
	})),
	errors: state.errors.map(({ id, tool, head, command, path, fixedBy }) => ({
		id,
		tool,
		head,
		command,
		path,
		fixedBy,
	})),
	modelFailures: (state.modelFailures ?? []).map((f) => f.head),
});

const unique = (ids: readonly string[]): boolean => new Set(ids).size === ids.length;

/**
 * Every fix the state holds is a later successful run of the same command text as the error's, or, for a failed
 * edit or write, an edit or write of the same file.
 */
function fixesAreLaterSuccesses(state: State): boolean {
	const byId = new Map(state.commands.map((c) => [c.id, c]));
	return state.errors.every((e) => {
		if (e.fixedBy === null) return true;
		if (e.path !== undefined)
			return e.command === null && (e.fixedBy === `edit of ${e.path}` || e.fixedBy === `write of ${e.path}`);
		const fixer = byId.get(e.fixedBy);
		const raiser = e.command === null ? undefined : byId.get(e.command);
		return (
			fixer !== undefined &&
			raiser !== undefined &&
			fixer.exitCode === 0 &&
			fixer.command === raiser.command &&
			idNumber(fixer.id) > idNumber(raiser.id)
		);
	});
}

// ---------------------------------------------------------------------------------------------------------------

describe("ledger laws", () => {
	it("ids are unique and new: nothing the prior state holds is given out again", () => {
		law([span("a"), span("b")], (first, second) => {
			const prior = fold(initialState, first, 1);
			const events = ledgerEvents(second, 2, prior);
			const commands = events.flatMap((e) => (e.type === "command-recorded" ? [e.data.id] : []));
			const errors = events.flatMap((e) => (e.type === "error-recorded" ? [e.data.id] : []));
			const held = new Set([...prior.commands.map((c) => c.id), ...prior.errors.map((e) => e.id)]);
			return unique(commands) && unique(errors) && [...commands, ...errors].every((id) => !held.has(id));
		});
	});

	it("reading a span twice is idempotent: folded again with its own result, the state does not change", () => {
		law([span("a"), span("b")], (first, second) => {
			const prior = fold(initialState, first, 1);
			const once = fold(prior, second, 2);
			const again = ledgerEvents(second, 2, once);
			const recorded = again.filter(
				(e) => e.type === "command-recorded" || e.type === "error-recorded" || e.type === "model-failed",
			);
			return recorded.length === 0 && sameJson(applied(once, again), once);
		});
	});

	it("splitting a span at any point pi may cut gives the same commands, exit codes, errors and fixes", () => {
		const cut = span("a").chain((messages) =>
			fc.tuple(fc.constant(messages), fc.integer({ min: 0, max: messages.length })),
		);
		law([cut], ([messages, at]) => {
			// pi never cuts before a tool result: a call and its result stay in one span.
			if (messages[at]?.role === "toolResult") return true;
			const whole = fold(initialState, messages, 1);
			const split = fold(fold(initialState, messages.slice(0, at), 1), messages.slice(at), 2);
			return sameJson(ledgerOnly(whole), ledgerOnly(split));
		});
	});

	it("no error ends up both open and fixed: each fix is the one the state keeps, by a later success", () => {
		law([span("a"), span("b")], (first, second) => {
			const prior = fold(initialState, first, 1);
			const events = ledgerEvents(second, 2, prior);
			const state = applied(prior, events);
			const fixes = events.flatMap((e) => (e.type === "error-fixed" ? [e.data] : []));
			const errorIds = state.errors.map((e) => e.id);
			return (
				unique(errorIds) &&
				unique(state.commands.map((c) => c.id)) &&
				unique(fixes.map((f) => f.error)) &&
				fixes.every((f) => state.errors.find((e) => e.id === f.error)?.fixedBy === fixerOf(f)) &&
				fixesAreLaterSuccesses(state)
			);
		});
	});

	it("a run the user interrupted and the session's model failing are no errors of the work", () => {
		law([span("a")], (messages) => {
			const events = ledgerEvents(messages, 1, initialState);
			const aborted = new Set(
				messages.flatMap((m) => (m.role === "toolResult" && m.text === "Command aborted" ? [m.toolCallId] : [])),
			);
			const commandOf = new Map(
				events.flatMap((e) => (e.type === "command-recorded" ? [[e.data.id, e.data.toolCallId] as const] : [])),
			);
			const modelErrors = messages.filter((m) => m.role === "assistant" && m.stopReason === "error").length;
			return (
				events.every(
					(e) =>
						e.type !== "error-recorded" ||
						(e.data.tool !== "model" && !aborted.has(commandOf.get(e.data.command ?? "") ?? "")),
				) && events.filter((e) => e.type === "model-failed").length === modelErrors
			);
		});
	});

	it("a failed edit or write stays open exactly until a later edit or write of its file succeeds", () => {
		law([span("a")], (messages) => {
			const state = fold(initialState, messages, 1);
			const calls = new Map(
				messages.flatMap((m) => (m.role === "assistant" ? m.toolCalls.map((c) => [c.id, c] as const) : [])),
			);
			const ordered = messages.flatMap((m) => {
				if (m.role !== "toolResult" || (m.toolName !== "edit" && m.toolName !== "write")) return [];
				const args = calls.get(m.toolCallId)?.arguments;
				const path = typeof args === "object" && args !== null && "path" in args ? String(args.path) : "";
				return [{ failed: m.isError, path }];
			});
			const expected = ordered.flatMap((c, i) =>
				c.failed ? [ordered.slice(i + 1).some((later) => !later.failed && later.path === c.path)] : [],
			);
			const got = state.errors.filter((e) => e.path !== undefined).map((e) => e.fixedBy !== null);
			return sameJson(got, expected);
		});
	});

	it("is total: any decodable messages give events that pass their codecs", () => {
		const raw = fc.oneof(
			fc.record({ role: fc.constant("assistant"), content: fc.array(fc.anything()), stopReason: hostileText }),
			fc.record({
				role: fc.constant("assistant"),
				content: fc.array(
					fc.record({
						type: fc.constant("toolCall"),
						id: hostileText,
						name: fc.constantFrom("bash", "read", "edit", "write"),
						arguments: fc.oneof(fc.anything(), fc.record({ command: hostileText, path: hostileText })),
					}),
				),
			}),
			fc.record({
				role: fc.constant("toolResult"),
				toolCallId: hostileText,
				toolName: hostileText,
				content: fc.oneof(hostileText, fc.array(fc.record({ type: fc.constant("text"), text: hostileText }))),
				isError: fc.boolean(),
				details: fc.anything(),
			}),
			fc.record({
				role: fc.constant("bashExecution"),
				command: hostileText,
				output: hostileText,
				exitCode: fc.oneof(fc.integer(), fc.constant(null)),
				cancelled: fc.boolean(),
			}),
			fc.anything(),
		);
		law([fc.array(raw, { maxLength: 20 }), fc.integer({ min: 1, max: 9 })], (raws, n) => {
			const messages = raws.flatMap((u) => {
				const m = decodeMessage(u);
				return m === undefined ? [] : [m];
			});
			const events = ledgerEvents(messages, n, initialState);
			return events.every((event) => {
				const decoded = decodeEvent(JSON.parse(JSON.stringify(encodeEvent(event))));
				return decoded._tag === "Right" && sameJson(decoded.right, event);
			});
		});
	});

	it("is deterministic: the same span and prior give the same events", () => {
		law([span("a")], (messages) =>
			sameJson(ledgerEvents(messages, 1, initialState), ledgerEvents(messages, 1, initialState)),
		);
	});
});

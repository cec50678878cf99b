import type { CloseKind, Event, EventOf } from "../../src/events/index.js";
import type { World } from "../../src/events/world.js";

// One builder an event kind, for tests that hand events to the reducer, the views or a stored session. Each writes its
// data's fields in the codec's order, so a stored session built from them serialises as one written by hand did.

/**
 * A rule added; with `id`, the id its producer decided (docs/contracts.md, Stored sessions and ids), else none, as
 * events stored before ids were.
 */
export const ruleAdded = (words: string, source: string, id?: string): Event => ({
	type: "rule-added",
	data: id === undefined ? { words, source } : { words, source, id },
});
export const ruleLifted = (target: string, by: string): Event => ({ type: "rule-lifted", data: { target, by } });
/** A decision made; with `id`, the id its producer decided, else none. */
export const decision = (text: string, evidence: string[] = [], id?: string): Event => ({
	type: "decision-made",
	data: id === undefined ? { text, evidence } : { text, evidence, id },
});
/** A dead end found; with `id`, the id its producer decided, else none. */
export const deadEnd = (text: string, evidence: string[] = [], id?: string): Event => ({
	type: "dead-end-found",
	data: id === undefined ? { text, evidence } : { text, evidence, id },
});
/** A note remembered; with `id`, the id `longhaul_remember` decided, else none. */
export const note = (text: string, id?: string): Event => ({
	type: "note-remembered",
	data: id === undefined ? { text } : { text, id },
});
export const value = (name: string, v: string, source: string): Event => ({
	type: "value-recorded",
	data: { name, value: v, source },
});
export const objective = (text: string): Event => ({ type: "objective-set", data: { text } });
export const narrative = (span: number, text: string): Event => ({ type: "narrative-line", data: { span, text } });
export const nowSet = (text: string): Event => ({ type: "now-set", data: { text } });
/** A command the bash tool ran, from tool call `toolCallId`. */
export const command = (
	id: string,
	cmd: string,
	exitCode: number | null = 0,
	span = 1,
	toolCallId: string | null = `call-${id}`,
): Event => ({
	type: "command-recorded",
	data: { id, command: cmd, exitCode, span, toolCallId, by: "tool" },
});
/** A command the user ran with `!`: no tool call, and no exit code unless pi reported one. */
export const userCommand = (id: string, cmd: string, exitCode: number | null = null, span = 1): Event => ({
	type: "command-recorded",
	data: { id, command: cmd, exitCode, span, toolCallId: null, by: "user" },
});
export const errorRecorded = (id: string, head: string, cmd: string | null = null, span = 1, tool = "bash"): Event => ({
	type: "error-recorded",
	data: { id, tool, head, span, command: cmd },
});
/** An edit's or write's error: no command, the file its call named. */
export const editFailed = (id: string, head: string, path: string, tool = "edit", span = 1): Event => ({
	type: "error-recorded",
	data: { id, tool, head, span, command: null, path },
});
export const errorFixed = (error: string, by: string): Event => ({ type: "error-fixed", data: { error, by } });
/** An error fixed by a later successful edit or write of `path`, which no command backs. */
export const editFixed = (error: string, path: string, byTool = "edit"): Event => ({
	type: "error-fixed",
	data: { error, byTool, path },
});
export const modelFailed = (span: number, head: string): Event => ({ type: "model-failed", data: { span, head } });
export const files = (read: string[], modified: string[] = []): Event => ({
	type: "files-touched",
	data: { read, modified },
});
export const worldTaken = (span: number, world: World): Event => ({ type: "world-taken", data: { span, world } });
/** A git workspace as the pass saw it: a clean `main` at `abc` unless `seen` says otherwise. */
export const gitWorld = (seen: Partial<Omit<Extract<World, { taken: true }>, "taken">> = {}): World => ({
	taken: true,
	branch: "main",
	head: "abc",
	status: "",
	log: "",
	diffStat: "",
	...seen,
});
/** No snapshot taken, and why. */
export const noWorld = (reason: string): World => ({ taken: false, reason });
export const spanClosed = (
	span: number,
	kind: CloseKind = "whole",
	unlabeled: string[] = [],
	reason: string | null = null,
): Event => ({ type: "span-closed", data: { span, kind, unlabeled, reason } });
export const foreign = (entry: string, summaryChars: number, fromHook = false): Event => ({
	type: "foreign-compaction-seen",
	data: { entry, summaryChars, fromHook },
});
export const anomaly = (entry: string, reason: string): Event => ({ type: "anomaly", data: { entry, reason } });

/** The data of the events of kind `type`, in their order: what a test reads back of what was produced. */
export const dataOf = <K extends Event["type"]>(events: readonly Event[], type: K): EventOf<K>["data"][] =>
	events.filter((e): e is EventOf<K> => e.type === type).map((e) => e.data);

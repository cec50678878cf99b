import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { branchOf, type Event, type EventOf, messageOf, readTranscript } from "../../../../src/events/index.js";
import { exitIsAnswer } from "../../../../src/pass/ledger/exits.js";
import { ledgerEvents } from "../../../../src/pass/ledger/ledger.js";
import { VALUES_PER_SPAN } from "../../../../src/pass/ledger/values.js";
import { initialState } from "../../../../src/reducers/index.js";
import { describeShared, sharedTranscripts } from "../../../support/shared.js";

const fixtures = sharedTranscripts;
const names = ["before-compaction.jsonl", "large-session.jsonl"];

/** A JSON value as a record of its fields (empty when it is not an object): the test reads the raw lines itself. */
type Raw = Readonly<Record<string, unknown>>;

function record(u: unknown): Raw {
	return typeof u === "object" && u !== null && !Array.isArray(u) ? Object.fromEntries(Object.entries(u)) : {};
}

function rawMessages(text: string): Raw[] {
	return text
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => record(JSON.parse(line)))
		.filter((entry) => entry.type === "message")
		.map((entry) => record(entry.message));
}

const blocks = (raw: Raw): Raw[] => (Array.isArray(raw.content) ? raw.content.map(record) : []);
const rawText = (raw: Raw): string =>
	typeof raw.content === "string"
		? raw.content
		: blocks(raw)
				.filter((b) => b.type === "text")
				.map((b) => String(b.text))
				.join("\n");
const ran = (raw: Raw): boolean =>
	raw.role === "assistant" && raw.stopReason !== "error" && raw.stopReason !== "aborted";
const ranCalls = (raws: readonly Raw[], tools: readonly string[]): Raw[] =>
	raws.filter(ran).flatMap((r) => blocks(r).filter((b) => b.type === "toolCall" && tools.includes(String(b.name))));
const dataOf = <T extends Event["type"]>(events: readonly Event[], type: T): EventOf<T>["data"][] =>
	events.filter((e): e is EventOf<T> => e.type === type).map((e) => e.data);

const dir = mkdtempSync(path.join(tmpdir(), "longhaul-ledger-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fixture copied out, read raw by the test and through `src/events` by the code, with the ledger over it. */
function load(name: string) {
	const copy = path.join(dir, name);
	copyFileSync(path.join(fixtures, name), copy);
	const text = readFileSync(copy, "utf8");
	const messages = branchOf(readTranscript(text).entries).entries.flatMap((entry) => {
		const m = messageOf(entry);
		return m === undefined ? [] : [m];
	});
	const events = ledgerEvents(messages, 1, initialState);
	return {
		raws: rawMessages(text),
		messages,
		events,
		commands: dataOf(events, "command-recorded"),
		errors: dataOf(events, "error-recorded"),
		modelFailures: dataOf(events, "model-failed"),
	};
}

const loads = new Map<string, ReturnType<typeof load>>();
function loaded(name: string): ReturnType<typeof load> {
	const known = loads.get(name);
	if (known !== undefined) return known;
	const fresh = load(name);
	loads.set(name, fresh);
	return fresh;
}

describeShared("the ledger over real pi transcripts, as one span", () => {
	for (const name of names) {
		describe(name, () => {
			it("reads every message line of the file on the branch", () => {
				const { raws, messages } = loaded(name);
				expect(messages.length).toBe(raws.length);
			});

			it("records one command per bash call that ran and per user `!` run, numbered C1, C2, …", () => {
				const { raws, commands } = loaded(name);
				const calls = ranCalls(raws, ["bash"]).length;
				const userRuns = raws.filter((r) => r.role === "bashExecution").length;
				expect(commands.length).toBe(calls + userRuns);
				expect(commands.map((c) => c.id)).toEqual(commands.map((_, i) => `C${i + 1}`));
			});

			it("records one error per failed tool result and failed user run, but exits that answer and interrupts", () => {
				const { raws, errors, modelFailures } = loaded(name);
				const commandOf = new Map(
					ranCalls(raws, ["bash"]).map((b) => [String(b.id), String(record(b.arguments).command)]),
				);
				const answered = (r: Raw): boolean => {
					const code = /Command exited with code (\d+)\s*$/.exec(rawText(r))?.[1];
					return exitIsAnswer(commandOf.get(String(r.toolCallId)) ?? "", code === undefined ? null : Number(code));
				};
				const interrupted = (r: Raw): boolean => r.toolName === "bash" && /\n?Command aborted\s*$/.test(rawText(r));
				const failedResults = raws.filter(
					(r) => r.role === "toolResult" && r.isError === true && !answered(r) && !interrupted(r),
				).length;
				const failedRuns = raws.filter(
					(r) =>
						r.role === "bashExecution" && r.cancelled !== true && typeof r.exitCode === "number" && r.exitCode !== 0,
				).length;
				const modelErrors = raws.filter((r) => r.role === "assistant" && r.stopReason === "error").length;
				expect(errors.length).toBe(failedResults + failedRuns);
				expect(modelFailures.length).toBe(modelErrors);
				expect(modelErrors).toBeGreaterThan(0);
			});

			it("takes the exit code pi wrote: the code line of a failed run, 0 for a run pi did not mark failed", () => {
				const { raws, commands } = loaded(name);
				const byCall = new Map(commands.map((c) => [c.toolCallId, c]));
				const bashResults = raws.filter((r) => r.role === "toolResult" && r.toolName === "bash");
				let coded = 0;
				for (const r of bashResults) {
					const command = byCall.get(String(r.toolCallId));
					const code = /Command exited with code (\d+)\s*$/.exec(rawText(r));
					if (code !== null) coded++;
					if (code !== null) expect(command?.exitCode).toBe(Number(code[1]));
					else if (r.isError === true) expect(command?.exitCode).toBeNull();
					else expect(command?.exitCode).toBe(0);
				}
				expect(coded).toBeGreaterThan(0);
			});

			it("takes a user run's exit code from its message", () => {
				const { raws, commands } = loaded(name);
				const runs = raws.filter((r) => r.role === "bashExecution");
				const recorded = commands.filter((c) => c.by === "user");
				expect(recorded.map((c) => [c.command, c.exitCode])).toEqual(
					runs.map((r) => [r.command, r.cancelled === true ? null : r.exitCode]),
				);
			});

			it("fixes an error only with a later successful run of the same command text, or edit of the same file", () => {
				const { events, commands, errors } = loaded(name);
				const byId = new Map(commands.map((c) => [c.id, c]));
				const errorById = new Map(errors.map((e) => [e.id, e]));
				for (const fix of dataOf(events, "error-fixed")) {
					if (!("by" in fix)) {
						const error = errorById.get(fix.error);
						expect([error?.tool, error?.path]).toEqual([expect.stringMatching(/^(edit|write)$/), fix.path]);
						continue;
					}
					const raiser = byId.get(errorById.get(fix.error)?.command ?? "");
					const fixer = byId.get(fix.by);
					expect(fixer?.exitCode).toBe(0);
					expect(fixer?.command).toBe(raiser?.command);
					expect(Number(fix.by.slice(1))).toBeGreaterThan(Number(raiser?.id.slice(1)));
				}
			});

			it("keeps only values that stand verbatim in their command's output, within the span's bound", () => {
				const { raws, events, commands } = loaded(name);
				const outputs = new Map<string, string>();
				for (const r of raws) if (r.role === "toolResult") outputs.set(String(r.toolCallId), rawText(r));
				const userOutputs = (command: string) =>
					raws.filter((r) => r.role === "bashExecution" && r.command === command).map((r) => String(r.output));
				const byId = new Map(commands.map((c) => [c.id, c]));
				const values = dataOf(events, "value-recorded");
				expect(values.length).toBeGreaterThan(0);
				expect(values.length).toBeLessThanOrEqual(VALUES_PER_SPAN);
				for (const v of values) {
					const command = byId.get(v.source);
					const printed =
						command?.by === "user" ? userOutputs(command.command) : [outputs.get(command?.toolCallId ?? "") ?? ""];
					expect(printed.some((output) => output.includes(v.value))).toBe(true);
				}
			});

			it("lists the files of read, edit and write calls that ran and did not fail", () => {
				const { raws, events } = loaded(name);
				const failed = new Set(
					raws.filter((r) => r.role === "toolResult" && r.isError === true).map((r) => r.toolCallId),
				);
				const pathsOf = (tools: readonly string[]) => [
					...new Set(
						ranCalls(raws, tools)
							.filter((c) => !failed.has(c.id))
							.map((c) => String(record(c.arguments).path)),
					),
				];
				expect(dataOf(events, "files-touched")).toEqual([
					{ read: pathsOf(["read"]), modified: pathsOf(["edit", "write"]) },
				]);
			});
		});
	}
});

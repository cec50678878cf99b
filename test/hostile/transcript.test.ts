import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import { chunkLines } from "../../src/adapters/cli/file-lines.js";
import { runPreviewCli } from "../../src/adapters/cli/preview-cli.js";
import { readSession, startsWithSessionHeader } from "../../src/adapters/cli/session-file.js";
import { runStateCli } from "../../src/adapters/cli/state-cli.js";
import { runFactsCli } from "../../src/eval/facts-cli.js";
import {
	EVENT_ENTRY_TYPE,
	encodeEvent,
	LINE_ENTRY_TYPE,
	MAX_DEPTH,
	MAX_LINE_CHARS,
	READ_LIMITS,
	readLines,
	readTranscript,
	SPAN_ENTRY_TYPE,
} from "../../src/events/index.js";
import { lineLinks } from "../../src/events/line-links.js";
import { stateJson, stateObject } from "../../src/projections/index.js";
import { type Folded, foldEntries, foldTranscript } from "../../src/reducers/index.js";
import { anyEvent, hostileText, transcriptSpecs } from "../properties/arbitraries.js";
import { law, params } from "../properties/laws.js";
import { note, ruleAdded, spanClosed } from "../support/events.js";
import { labeler } from "../support/fake-summarizer.js";
import { longhaulSession, tick } from "../support/longhaul-session.js";
import { say } from "../support/pi-harness.js";
import { unsafeCharacters } from "../support/terminal-attacks.js";
import { place, transcriptText } from "../support/transcript.js";

const dir = mkdtempSync(join(tmpdir(), "longhaul-fuzz-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** Writes the bytes to a fresh file and returns its path. */
function fileOf(bytes: Buffer | string): string {
	const file = join(dir, `t${++files}.jsonl`);
	writeFileSync(file, bytes);
	return file;
}

/**
 * A pi session header, put before raw bytes so that `state` reads them (docs/contracts.md, Commands a user runs:
 * without one it refuses the file).
 */
const HEADER = `${JSON.stringify({ type: "session", version: 3, id: "s" })}\n`;

/**
 * Runs every view of `state` over the file: each exits 0 with terminal-safe text, `--json` is the fold of the
 * same bytes, `--span N` answers for every span the state closed, and the file's bytes are left as they were.
 * A file whose first line is no session header is one line naming it and exit 2, its bytes left as they were.
 */
async function expectCliHolds(file: string, folded: Folded): Promise<void> {
	const bytes = readFileSync(file);
	if (!startsWithSessionHeader(bytes.toString("utf8"))) {
		const refused = `${file}: not a pi session (its first line is no session header)\n`;
		expect(await runStateCli([file, "--json"], {})).toEqual({ stdout: "", stderr: refused, code: 2 });
		expect(readFileSync(file).equals(bytes)).toBe(true);
		return;
	}
	const spans = [...new Set(folded.state.closes.map((c) => c.span))];
	const runs = [[], ["--spans"], ["--anomalies"], ["--json"], ...spans.map((n) => ["--span", String(n)])];
	for (const args of runs) {
		const result = await runStateCli([file, ...args], {});
		expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: "" });
		expect(unsafeCharacters(result.stdout)).toEqual([]);
		if (args[0] === "--json") expect(result.stdout).toBe(stateJson(folded.state));
	}
	expect(readFileSync(file).equals(bytes)).toBe(true);
}

function isObject(u: unknown): boolean {
	return typeof u === "object" && u !== null && !Array.isArray(u);
}

function record(u: unknown): Record<string, unknown> {
	return typeof u === "object" && u !== null && !Array.isArray(u) ? { ...u } : {};
}

/** `line <n>` for each complete, non-blank line that is not a JSON object: each must be reported. */
function unreadableLines(text: string): string[] {
	const lines = text.split("\n");
	lines.pop();
	return lines.flatMap((line, index) => {
		if (line.trim() === "") return [];
		try {
			return isObject(JSON.parse(line)) ? [] : [`line ${index + 1}`];
		} catch {
			return [`line ${index + 1}`];
		}
	});
}

/** A transcript's entries as objects, and how to write a header and entries back as transcript text. */
function entriesOf(text: string): {
	entries: Record<string, unknown>[];
	write: (entries: readonly unknown[]) => string;
} {
	const [header = "", ...lines] = text.trimEnd().split("\n");
	return {
		entries: lines.map((line) => record(JSON.parse(line))),
		write: (entries) => `${[header, ...entries.map((e) => JSON.stringify(e))].join("\n")}\n`,
	};
}

function idOf(entry: Record<string, unknown> | undefined): string {
	return String(entry?.id);
}

const validText = transcriptSpecs.map((specs) => transcriptText(place(specs)));

/** Byte sequences that are not UTF-8 (and two that encode C1 controls). */
const badUtf8 = fc
	.constantFrom(
		[0x80],
		[0xbf],
		[0xc0, 0xaf],
		[0xc3],
		[0xe2, 0x82],
		[0xed, 0xa0, 0x80],
		[0xef, 0xbf],
		[0xf4, 0x90, 0x80, 0x80],
		[0xf8, 0x88, 0x80, 0x80, 0x80],
		[0xfe],
		[0xff],
		[0xc2, 0x9b],
		[0xc2, 0x9d],
	)
	.map((bytes) => Buffer.from(bytes));

/** A real transcript's bytes with random bytes and invalid UTF-8 spliced in anywhere. */
const corruptBytes = fc
	.tuple(
		validText,
		fc.array(
			fc.tuple(
				fc.oneof(
					badUtf8,
					fc.uint8Array({ maxLength: 24 }).map((b) => Buffer.from(b)),
				),
				fc.nat(),
			),
			{ maxLength: 8 },
		),
	)
	.map(([text, inserts]) =>
		inserts.reduce((bytes, [insert, at]) => {
			const cut = at % (bytes.length + 1);
			return Buffer.concat([bytes.subarray(0, cut), insert, bytes.subarray(cut)]);
		}, Buffer.from(text)),
	);

// ---------------------------------------------------------------------------------------------------------------
// Structurally valid entries with wrong types and missing fields
// ---------------------------------------------------------------------------------------------------------------

const anyJson = fc.jsonValue({ maxDepth: 2 });
/** Mostly the right shape, sometimes any JSON at all. */
const wrongOr = <T>(right: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
	fc.oneof({ weight: 3, arbitrary: right }, { weight: 1, arbitrary: anyJson });
/** A few ids, so cycles, duplicates and missing parents come up often. */
const entryId = fc.constantFrom("a", "b", "c", "d", "e", "f");
const format = wrongOr(fc.constantFrom(1, 1, 2, 99));
const encoded = anyEvent.map(encodeEvent);
/** An encoded event with one data field dropped or replaced by any JSON. */
const brokenEvent = fc.tuple(encoded, fc.nat(), anyJson, fc.boolean()).map(([event, at, junk, drop]) => {
	const data = { ...record(record(event).data) };
	const keys = Object.keys(data);
	const key = keys[at % Math.max(1, keys.length)] ?? "x";
	if (drop) delete data[key];
	else data[key] = junk;
	return { ...record(event), data };
});
const stored = fc.record({ seq: wrongOr(fc.integer({ min: 1, max: 40 })), event: fc.oneof(encoded, brokenEvent) });
const messageArb = fc.record(
	{
		role: wrongOr(fc.constantFrom("user", "assistant", "toolResult", "bashExecution", "custom")),
		content: wrongOr(fc.oneof(hostileText, fc.array(fc.record({ type: fc.constant("text"), text: hostileText })))),
		toolCallId: wrongOr(fc.string({ maxLength: 4 })),
		toolName: wrongOr(fc.constant("bash")),
		command: wrongOr(hostileText),
		output: wrongOr(hostileText),
	},
	{ requiredKeys: [] },
);
const entryArb = fc.record(
	{
		type: wrongOr(fc.constantFrom("message", "compaction", "custom", "session", "branch_summary", "label")),
		id: wrongOr(entryId),
		parentId: wrongOr(fc.option(entryId, { nil: null })),
		message: wrongOr(messageArb),
		customType: wrongOr(fc.constantFrom(EVENT_ENTRY_TYPE, SPAN_ENTRY_TYPE, LINE_ENTRY_TYPE, "other")),
		data: wrongOr(
			fc.record(
				{
					stateFormat: format,
					seq: wrongOr(fc.integer({ min: 1, max: 40 })),
					event: fc.oneof(encoded, brokenEvent),
					v: wrongOr(fc.constant(1)),
					span: wrongOr(fc.integer({ min: 1, max: 5 })),
					compactionId: wrongOr(fc.string({ maxLength: 4 })),
					fallback: wrongOr(fc.string({ maxLength: 4 })),
				},
				{ requiredKeys: [] },
			),
		),
		details: wrongOr(
			fc.record(
				{
					stateFormat: format,
					longhaul: wrongOr(fc.constant(true)),
					span: wrongOr(fc.integer({ min: 1, max: 5 })),
					events: wrongOr(fc.array(stored, { maxLength: 4 })),
				},
				{ requiredKeys: [] },
			),
		),
		summary: wrongOr(hostileText),
		fromHook: wrongOr(fc.boolean()),
	},
	{ requiredKeys: [] },
);
const structuralText = fc
	.tuple(fc.array(entryArb, { maxLength: 20 }), fc.boolean())
	.map(([entries, header]) =>
		[...(header ? [{ type: "session", version: 3, id: "s" }] : []), ...entries]
			.map((e) => `${JSON.stringify(e)}\n`)
			.join(""),
	);

/** Longhaul entries of a newer format on the branch: each must be refused by name. */
function newerOnBranch(folded: Folded): string[] {
	return folded.branch.flatMap((entry) => {
		const holder = entry.type === "compaction" ? entry.raw.details : entry.type === "custom" ? entry.raw.data : {};
		const format = record(holder).stateFormat;
		const longhaul =
			entry.type === "compaction" ||
			entry.raw.customType === EVENT_ENTRY_TYPE ||
			entry.raw.customType === LINE_ENTRY_TYPE;
		return longhaul && typeof format === "number" && format > 1 ? [entry.id] : [];
	});
}

describe("transcript fuzzing: neither the fold nor state ever throws", () => {
	it("raw bytes, decoded as UTF-8 with invalid sequences: every view renders safely and each unreadable line is reported", async () => {
		await fc.assert(
			fc.asyncProperty(corruptBytes, async (bytes) => {
				const text = bytes.toString("utf8");
				const folded = foldTranscript(text);
				const reported = folded.state.anomalies.map((a) => a.entry);
				expect(reported).toEqual(expect.arrayContaining(unreadableLines(text)));
				await expectCliHolds(fileOf(bytes), folded);
				const headed = Buffer.concat([Buffer.from(HEADER), bytes]);
				await expectCliHolds(fileOf(headed), foldTranscript(headed.toString("utf8")));
			}),
			params({ numRuns: 60 }),
		);
	});

	it("entries of the right structure with wrong types, missing fields, cycles, duplicates and newer formats", async () => {
		await fc.assert(
			fc.asyncProperty(structuralText, async (text) => {
				const folded = foldTranscript(text);
				const ids = folded.branch.map((e) => e.id);
				expect(new Set(ids).size).toBe(ids.length);
				folded.branch.forEach((entry, i) => {
					if (i > 0) expect(entry.parentId).toBe(folded.branch[i - 1]?.id);
				});
				const root = folded.branch[0];
				if (root !== undefined && root.parentId !== null)
					expect(folded.state.anomalies.map((a) => a.reason)).toContainEqual(
						expect.stringMatching(/parentId cycle|parent entry is missing/),
					);
				// Every Longhaul event entry on the branch is either read or refused with an anomaly, never skipped.
				for (const entry of folded.branch)
					if (entry.type === "custom" && entry.raw.customType === EVENT_ENTRY_TYPE)
						expect(folded.events.some((l) => l.entry === entry.id)).toBe(true);
				const refusedNewer = folded.state.anomalies.filter((a) => /is newer than 1; refused/.test(a.reason));
				expect(refusedNewer.map((a) => a.entry).sort()).toEqual(newerOnBranch(folded).sort());
				await expectCliHolds(fileOf(text), folded);
			}),
			params({ numRuns: 150 }),
		);
	});

	it("a parentId cycle or a missing parent ends the branch there: the state is the fold of what the walk reached", () => {
		const cut = fc.tuple(validText, fc.nat(), fc.nat(), fc.boolean());
		fc.assert(
			fc.property(cut, ([text, a, b, cycle]) => {
				const { entries, write } = entriesOf(text);
				if (entries.length === 0) return;
				const from = a % entries.length;
				const to = from + (b % (entries.length - from));
				const target = idOf(entries[to]);
				const broken = entries.map((e, i) => (i === from ? { ...e, parentId: cycle ? target : "gone" } : e));
				const reached = entries.slice(from).map((e, i) => (i === 0 ? { ...e, parentId: null } : e));
				const folded = foldTranscript(write(broken));
				const expected = foldTranscript(write(reached));
				const { anomalies: _got, ...rest } = stateObject(folded.state);
				const { anomalies: _expected, ...expectedRest } = stateObject(expected.state);
				expect(rest).toEqual(expectedRest);
				expect(folded.state.anomalies).toEqual([
					cycle
						? { entry: target, reason: "parentId cycle; the branch stops here" }
						: { entry: "gone", reason: "parent entry is missing; the branch stops here" },
					...expected.state.anomalies,
				]);
			}),
			params(),
		);
	});

	it("a duplicate id: the later entry is used, and the duplicate is reported once", () => {
		fc.assert(
			fc.property(validText, fc.nat(), hostileText, (text, at, words) => {
				const { entries, write } = entriesOf(text);
				if (entries.length < 2) return;
				const index = at % (entries.length - 1);
				const twin = {
					...entries[index],
					type: "message",
					message: { role: "user", content: `twin ${words}` },
				};
				const withTwin = [...entries.slice(0, -1), twin, ...entries.slice(-1)];
				const replaced = entries.map((e, i) => (i === index ? twin : e));
				const folded = foldTranscript(write(withTwin));
				const expected = foldTranscript(write(replaced));
				expect(folded.branch.map((e) => e.raw)).toEqual(expected.branch.map((e) => e.raw));
				expect(folded.state.anomalies).toEqual([
					{ entry: idOf(entries[index]), reason: "duplicate id; the later entry is used" },
					...expected.state.anomalies,
				]);
			}),
			params(),
		);
	});

	it("invalid UTF-8 inside a string costs only those characters: no anomaly, the entry is read", async () => {
		const placeholder = "@@BAD@@";
		const specs = transcriptSpecs.map((s) => [
			...s,
			{ kind: "user" as const, text: `please ${placeholder} never add dependencies` },
			{
				kind: "longhaul-compaction" as const,
				span: 99,
				events: [note(`note ${placeholder}`)],
			},
		]);
		await fc.assert(
			fc.asyncProperty(specs, badUtf8, async (entries, bad) => {
				const text = transcriptText(place(entries));
				const bytes = Buffer.concat(
					text.split(placeholder).flatMap((part, i) => (i === 0 ? [Buffer.from(part)] : [bad, Buffer.from(part)])),
				);
				const clean = foldTranscript(text.replaceAll(placeholder, "?"));
				const folded = foldTranscript(bytes.toString("utf8"));
				expect(folded.state.anomalies).toEqual(clean.state.anomalies);
				expect(folded.state.notes.at(-1)?.text).toBe(`note ${bad.toString("utf8")}`);
				await expectCliHolds(fileOf(bytes), folded);
			}),
			params({ numRuns: 40 }),
		);
	});

	it("the link reader for over-long lines reads the id and parentId JSON.parse reads, or nothing", () => {
		const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("id", "parentId", "i\\d", "__proto__"));
		const object = fc.dictionary(key, fc.oneof(anyJson, fc.string({ unit: "binary", maxLength: 12 })), {
			maxKeys: 8,
		});
		fc.assert(
			fc.property(object, fc.constantFrom(undefined, 2, "\t"), (value, indent) => {
				const line = JSON.stringify(value, null, indent);
				const parsed = JSON.parse(line);
				const links = lineLinks(line);
				if (typeof parsed.id === "string") expect(links).toEqual({ id: parsed.id, parentId: parsed.parentId });
				else expect(links).toBeUndefined();
			}),
			params({ numRuns: 300 }),
		);
		for (const line of [
			"",
			"{}",
			"[]",
			'{"id":"x"',
			'{"id":"x",}',
			'{"id":"x"}x',
			'{"id" "x"}',
			'"id"',
			'{"a":'.repeat(5),
		])
			expect(lineLinks(line)).toBeUndefined();
		expect(lineLinks(' {"\\u0069d" : "x" , "parentId":null}\n')).toEqual({ id: "x", parentId: null });
	});
});

describe("transcripts built to exhaust", () => {
	it("a 50 MB line is reported and skipped, and costs only itself: the entries around it stay on the branch", async () => {
		const huge = "y".repeat(50 * 1024 * 1024);
		const rule = ruleAdded("never add dependencies", "u1");
		const text = transcriptText(
			place([
				{ kind: "user", text: "never add dependencies" },
				{ kind: "longhaul-compaction", span: 1, events: [rule, spanClosed(1)] },
				{ kind: "user", text: huge },
				{ kind: "longhaul-compaction", span: 2, events: [spanClosed(2)] },
				{ kind: "user", text: "go on" },
			]),
		);
		const folded = foldTranscript(text);
		const hugeLine = text.split("\n")[3] ?? "";
		expect(hugeLine.length).toBeGreaterThan(MAX_LINE_CHARS);
		expect(folded.state.anomalies).toEqual([
			{ entry: "line 4", reason: `line of ${hugeLine.length} characters is over the limit` },
		]);
		expect(folded.branch.map((e) => e.id)).toEqual(["e1", "e2", "e3", "e4", "e5"]);
		expect(folded.state.rules).toEqual([{ id: "R1", text: "never add dependencies", source: "u1" }]);
		expect(folded.state.closes.map((c) => c.span)).toEqual([1, 2]);
		const file = fileOf(text);
		await expectCliHolds(file, folded);
		expect((await runStateCli([file, "--anomalies"], {})).stdout).toContain("line 4: line of");
	});

	it("a million tiny entries fold, and state reads them, within vitest's time limit", async () => {
		const count = 1_000_000;
		const noteEntry = (n: number) =>
			JSON.stringify({
				type: "custom",
				id: `${n}`,
				parentId: `${n - 1}`,
				customType: EVENT_ENTRY_TYPE,
				data: { stateFormat: 1, seq: n / 10_000, event: note(`n${n}`) },
			});
		const lines = [JSON.stringify({ type: "session", version: 3, id: "s" })];
		for (let n = 1; n <= count; n++)
			lines.push(
				n % 10_000 === 0
					? noteEntry(n)
					: `{"type":"message","id":"${n}","parentId":${n === 1 ? "null" : `"${n - 1}"`}}`,
			);
		const text = `${lines.join("\n")}\n`;
		const folded = foldTranscript(text);
		expect(folded.branch).toHaveLength(count);
		expect(folded.state.anomalies).toEqual([]);
		expect(folded.state.notes).toHaveLength(count / 10_000);
		expect(folded.state.lastSeq).toBe(count / 10_000);
		const result = await runStateCli([fileOf(text), "--json"], {});
		expect(result.code).toBe(0);
		expect(JSON.parse(result.stdout).notes.at(-1)).toEqual({ id: "N100", text: `n${count}` });
	}, 120_000);
});

/** What pi records of an assistant reply's usage; pi reads it to decide when to compact. */
const USAGE = JSON.stringify({
	input: 0,
	output: 0,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 0,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

/** A session whose third entry's tool call has arguments nested `depth` arrays deep (written as text: no
 * `JSON.stringify` could write it), its tool result, a compaction and more turns after. */
function deepSession(depth: number): string {
	const deep = `${"[".repeat(depth)}${"]".repeat(depth)}`;
	const ts = "2026-01-01T00:00:00.000Z";
	const line = (o: Record<string, unknown>) => JSON.stringify({ ...o, timestamp: ts });
	const call = `{"type":"message","id":"a2","parentId":"a1","timestamp":"${ts}","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"bash","arguments":{"command":"cat /srv/port.txt","x":${deep}}}],"stopReason":"toolUse","usage":${USAGE},"timestamp":0}}`;
	return `${[
		JSON.stringify({ type: "session", version: 3, id: "s", timestamp: ts, cwd: dir }),
		line({ type: "message", id: "a1", parentId: null, message: { role: "user", content: "read it", timestamp: 0 } }),
		call,
		line({
			type: "message",
			id: "a3",
			parentId: "a2",
			message: {
				role: "toolResult",
				toolCallId: "t1",
				toolName: "bash",
				content: [{ type: "text", text: "port 8787" }],
				isError: false,
				timestamp: 0,
			},
		}),
		line({ type: "compaction", id: "a4", parentId: "a3", summary: "s", firstKeptEntryId: "a3", tokensBefore: 9 }),
		line({ type: "message", id: "a5", parentId: "a4", message: { role: "user", content: "on", timestamp: 0 } }),
		line({
			type: "message",
			id: "a6",
			parentId: "a5",
			message: {
				role: "assistant",
				content: [{ type: "text", text: "port 8787" }],
				stopReason: "stop",
				usage: JSON.parse(USAGE),
				timestamp: 0,
			},
		}),
	].join("\n")}\n`;
}

const TOO_DEEP = `nested over ${MAX_DEPTH} levels deep: what lies deeper is replaced by null`;

describe("depth, length and size: no transcript makes a command throw or hold what it cannot", () => {
	it("arguments nested 100,000 levels deep: facts, preview and state exit 0 and list the anomaly, the entry kept", async () => {
		const file = fileOf(deepSession(100_000));
		const state = await runStateCli([file, "--anomalies"], {});
		expect(state).toEqual({ stdout: `Anomalies: 1\n- a2: ${TOO_DEEP}\n`, stderr: "", code: 0 });
		const facts = runFactsCli([file], { root: dir });
		expect({ code: facts.code, stderr: facts.stderr }).toEqual({ code: 0, stderr: "" });
		expect(facts.stdout).toContain(`anomaly at a2: ${TOO_DEEP}`);
		const preview = await runPreviewCli([file, "--keep-recent-tokens", "1"], {
			env: { PI_CODING_AGENT_DIR: dir },
			cwd: dir,
			takeWorld: async () => ({ taken: false, reason: "not asked" }),
			now: () => 0,
		});
		expect(preview.code).toBe(0);
		expect(preview.stderr).toContain(`anomaly at a2: ${TOO_DEEP}`);
		expect(preview.stdout).not.toContain("RangeError");
		const folded = foldTranscript(deepSession(100_000));
		expect(folded.branch.map((e) => e.id)).toEqual(["a1", "a2", "a3", "a4", "a5", "a6"]);
		// The entry stays, cut: the command beside the deep value is still read, and nothing nests past the limit.
		const kept = folded.branch[1]?.raw;
		expect(JSON.stringify(kept)).toContain('"command":"cat /srv/port.txt"');
		expect(JSON.stringify(kept).match(/\[/g)?.length).toBeLessThan(MAX_DEPTH);
	});

	it("a value just at the depth limit is read as it is, one level more is cut", () => {
		// The entry is level 1, message 2, content 3, the block 4, arguments 5: the arrays of x start at level 6.
		const at = (arrays: number) => foldTranscript(deepSession(arrays));
		expect(at(MAX_DEPTH - 5).state.anomalies).toEqual([]);
		expect(at(MAX_DEPTH - 4).state.anomalies).toEqual([{ entry: "a2", reason: TOO_DEEP }]);
	});

	it("an unterminated last line over the limit is a torn tail anomaly; a short torn tail reads as nothing", () => {
		const text = deepSession(1);
		const limits = { lineChars: 1000, depth: MAX_DEPTH };
		const tail = `{"type":"message","id":"a7","parentId":"a6","message":{"role":"user","content":"${"z".repeat(1300)}`;
		expect(readTranscript(text + tail, limits).anomalies).toEqual([
			{
				entry: "line 8",
				reason: `torn tail: an unterminated last line of ${tail.length} characters is over the limit`,
			},
		]);
		expect(readTranscript(text + tail.slice(0, 900), limits).anomalies).toEqual([]);
		expect(readTranscript(`${text}${tail}\n`, limits).anomalies).toEqual([
			{ entry: "line 8", reason: `line of ${tail.length} characters is over the limit` },
		]);
	});

	it("a final line over 16M characters without a newline: state --anomalies names it", async () => {
		const tail = `{"type":"custom","id":"big","parentId":"a6","data":"${"q".repeat(MAX_LINE_CHARS)}`;
		const file = fileOf(deepSession(1) + tail);
		const result = await runStateCli([file, "--anomalies"], {});
		expect(result).toEqual({
			stdout: `Anomalies: 1\n- line 8: torn tail: an unterminated last line of ${tail.length} characters is over the limit\n`,
			stderr: "",
			code: 0,
		});
	});

	it("a file that is no session is refused from its first bytes, one line, whatever follows", async () => {
		const noNewline = fileOf(Buffer.alloc(3 * 1024 * 1024, 0x61));
		const notHeader = fileOf(`{"type":"message","id":"a"}\n${HEADER}`);
		const empty = fileOf("");
		for (const file of [noNewline, notHeader, empty]) {
			const refused = `${file}: not a pi session (its first line is no session header)\n`;
			expect(await runStateCli([file], {})).toEqual({ stdout: "", stderr: refused, code: 2 });
			expect(readSession(file)).toEqual(E.left("not a pi session (its first line is no session header)"));
		}
	});

	it("a session holding more than the reader may hold is refused in one line, not read to the end", () => {
		const file = fileOf(`${deepSession(1)}${JSON.stringify({ type: "custom", id: "c", data: "w".repeat(5000) })}\n`);
		expect(readSession(file, READ_LIMITS, 1000)).toEqual(
			E.left("over 1000 characters of entries to read (lines over the line limit aside): more than Longhaul holds"),
		);
		expect(E.isRight(readSession(file))).toBe(true);
	});

	it("the streaming reader gives what the text reader gives, and never holds more of a line than the limit", () => {
		const piece = fc.oneof(
			fc.constantFrom("\n", '"', "\\", "{", "}", "[", "]", ",", ":", " "),
			fc.string({ maxLength: 40 }),
			fc.constantFrom('{"id":"x","parentId":null,"type":"message"}', '{"a":"', "é😀"),
		);
		law(
			[fc.array(piece, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 8 }), fc.integer({ min: 1, max: 60 })],
			(pieces, cuts, lineChars) => {
				const text = pieces.join("");
				const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
				const chunks = [0, ...at, text.length].flatMap((from, i, all) => {
					const to = all[i + 1];
					return to === undefined || to <= from ? [] : [text.slice(from, to)];
				});
				const held = { most: 0 };
				const limits = { lineChars, depth: MAX_DEPTH };
				const streamed = readLines(chunkLines(chunks, lineChars, held), limits);
				return held.most <= lineChars && JSON.stringify(streamed) === JSON.stringify(readTranscript(text, limits));
			},
		);
	});
});

describe("depth inside a real pi session", () => {
	it("a tool call with arguments nested 3,000 levels deep: the pass compacts and reports the entry, no crash", async () => {
		// pi's faux provider cannot stream such a call, so the session is resumed from a file that holds one.
		const lines = deepSession(3000)
			.split("\n")
			.filter((line) => !line.includes('"type":"compaction"'))
			.map((line) => line.replace('"parentId":"a4"', '"parentId":"a3"'));
		const file = fileOf(lines.join("\n"));
		const h = await longhaulSession({ sessionFile: file });
		try {
			h.model.scriptSide(labeler());
			h.model.scriptAgent(say("ok"));
			await h.prompt("next");
			await h.compact();
			await tick();
			const branch = h.branch();
			const compaction = branch.findLast((e) => record(e).type === "compaction");
			expect(record(record(compaction).details).longhaul).toBe(true);
			expect(branch.map((e) => record(e).id).slice(0, 5)).toEqual(["a1", "a2", "a3", "a5", "a6"]);
			expect(foldEntries(branch).state.anomalies).toContainEqual({ entry: "a2", reason: TOO_DEEP });
		} finally {
			await h.dispose();
		}
	}, 60_000);
});

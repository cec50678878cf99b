import { describe, expect, it } from "vitest";
import { MAX_DEPTH } from "../../../src/events/depth.js";
import {
	entriesFromObjects,
	MAX_LINE_CHARS,
	readTranscript,
	textLines,
	tooDeep,
} from "../../../src/events/transcript.js";
import { assistant, chain, user } from "../../support/entries.js";
import { place, transcriptText } from "../../support/transcript.js";
import * as v1 from "../../support/v1-transcript.js";

// How the reader turns a pi session file into entries: its lines, its header's version, v1's derived ids, v2's
// renamed role, and the anomalies of what it cannot use (docs in src/events/transcript.ts).

/** A v3 session of two user messages, its last line the longest. */
const SESSION = placeOf(["fix the failing test", "never add dependencies"]);

function placeOf(texts: readonly string[]): string {
	return transcriptText(place(texts.map((text) => ({ kind: "user", text }))));
}

/** A bash call whose command arrives in `levels` nested arrays: the entry, its message, content, block and arguments
 * are the 5 levels above them. */
function deepCall(levels: number): Record<string, unknown> {
	let command: unknown = "npm test";
	for (let i = 0; i < levels; i++) command = [command];
	const call = { type: "toolCall", id: "t1", name: "bash", arguments: { command } };
	return { type: "message", message: { role: "assistant", content: [call], stopReason: "toolUse", timestamp: 0 } };
}

describe("the lines of a transcript's text", () => {
	it("a text ending in a newline is its lines, each terminated, and no empty line after the last", () => {
		const lines = [...textLines(SESSION)];
		const texts = SESSION.split("\n").slice(0, -1);
		expect(lines).toEqual(texts.map((text) => ({ text, chars: text.length, links: undefined, terminated: true })));
	});

	it("a blank first line is a line of its own, terminated, and the session after it is read", () => {
		const [blank] = textLines(`\n${SESSION}`);
		expect(blank).toEqual({ text: "", chars: 0, links: undefined, terminated: true });
		expect(readTranscript(`\n${SESSION}`).entries.map((e) => e.id)).toEqual(["e1", "e2"]);
	});

	it("a line of just the limit is held and parsed; one character more is read for its links only", () => {
		const last = SESSION.trimEnd().split("\n").at(-1) ?? "";
		const at = (lineChars: number) => readTranscript(SESSION, { lineChars, depth: MAX_DEPTH });
		expect(at(last.length)).toMatchObject({ anomalies: [] });
		expect(at(last.length).entries.at(-1)?.type).toBe("message");
		const over = at(last.length - 1);
		expect(over.anomalies).toEqual([
			{ entry: "line 3", reason: `line of ${last.length} characters is over the limit` },
		]);
		expect(over.entries.at(-1)).toEqual({ id: "e2", parentId: "e1", type: "", raw: { id: "e2", parentId: "e1" } });
	});
});

describe("the header and the version it gives", () => {
	it("a header whose version is no finite number is read as v1's, as one without a version", () => {
		const lines = v1.v1Text([v1.user("never add dependencies"), v1.assistant("ok")]).split("\n");
		const withVersion = (version: string) =>
			[lines[0]?.replace(/}$/, `,"version":${version}}`), ...lines.slice(1)].join("\n");
		for (const version of ['"3"', "1e999"]) {
			const read = readTranscript(withVersion(version));
			expect([version, read.version, read.entries.map((e) => e.id)]).toEqual([version, 1, ["L2", "L3"]]);
		}
	});

	it("a file with no session line has no header and is read as v1", () => {
		const body = v1
			.v1Text([v1.user("never add dependencies"), v1.assistant("ok")])
			.split("\n")
			.slice(1)
			.join("\n");
		const read = readTranscript(body);
		expect(read.header).toBeUndefined();
		expect(read.version).toBe(1);
		expect(read.entries.map((e) => [e.id, e.parentId])).toEqual([
			["L1", null],
			["L2", "L1"],
		]);
	});

	it("an entry without a type is read with the empty type", () => {
		const text = `${SESSION}${JSON.stringify({ id: "e3", parentId: "e2", timestamp: "2026-01-01T00:00:00.000Z" })}\n`;
		expect(readTranscript(text).entries.at(-1)).toMatchObject({ id: "e3", type: "" });
	});
});

describe("v1 compactions and v2 roles, as pi migrates them", () => {
	it("a v1 compaction whose firstKeptEntryIndex is the header, or no line, names no first kept entry", () => {
		for (const index of [0, 9]) {
			const text = v1.v1Text([v1.user("never add dependencies"), v1.assistant("ok"), v1.compaction("summary", index)]);
			expect([index, readTranscript(text).entries.at(-1)?.raw.firstKeptEntryId]).toEqual([index, undefined]);
		}
	});

	it("a compaction's index counts the lines pi's reader keeps: no blank or malformed line, but any JSON line", () => {
		const deep = JSON.stringify({ type: "custom", data: deepCall(8) });
		const long = JSON.stringify(v1.user("x".repeat(300)));
		const limits = { lineChars: 250, depth: 8 };
		const fillers = [
			["   ", 2],
			['{"type": "message",', 2],
			["[1, 2]", 3],
			["7", 3],
			[deep, 3],
			[long, 3],
		] as const;
		const firstKept = fillers.map(([filler, index]) => {
			const lines = v1
				.v1Text([v1.user("a")])
				.split("\n")
				.slice(0, -1);
			const after = [v1.user("b"), v1.compaction("summary", index)].map((l) => JSON.stringify(l));
			const raw = readTranscript(`${[...lines, filler, ...after].join("\n")}\n`, limits).entries.at(-1)?.raw;
			return [filler.slice(0, 12), raw?.firstKeptEntryId, raw !== undefined && "firstKeptEntryIndex" in raw];
		});
		expect(firstKept).toEqual(fillers.map(([filler]) => [filler.slice(0, 12), "L4", false]));
	});

	it("a compaction naming a later line, or an index that is no number, names no first kept entry", () => {
		const later = readTranscript(v1.v1Text([v1.user("a"), v1.compaction("summary", 3), v1.user("b")]));
		expect(later.entries[1]?.raw).not.toHaveProperty("firstKeptEntryId");
		const text = v1.v1Text([v1.user("a"), { ...v1.compaction("summary", 1), firstKeptEntryIndex: "1" }]);
		const raw = readTranscript(text).entries.at(-1)?.raw;
		expect(raw).not.toHaveProperty("firstKeptEntryId");
		expect(raw).toMatchObject({ firstKeptEntryIndex: "1" });
	});

	it("only a compaction's firstKeptEntryIndex is read: on any other line it stays as it is", () => {
		const text = v1.v1Text([v1.user("never add dependencies"), { ...v1.assistant("ok"), firstKeptEntryIndex: 1 }]);
		const raw = readTranscript(text).entries.at(-1)?.raw;
		expect(raw).toMatchObject({ firstKeptEntryIndex: 1 });
		expect(raw).not.toHaveProperty("firstKeptEntryId");
	});

	it("in a v2 file a hookMessage is read as a custom message; other roles and entries are read as they are", () => {
		const header = { type: "session", version: 2, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" };
		const hook = {
			type: "message",
			message: { role: "hookMessage", customType: "reminder", content: "run the linter", display: true, timestamp: 0 },
		};
		const thinking = { type: "thinking_level_change", thinkingLevel: "high" };
		// Only a message entry's role is renamed: another entry that holds a message of that role is read as written.
		const custom = { type: "custom_message", message: { role: "hookMessage", content: "x", timestamp: 0 } };
		const entries = chain([user("never add dependencies"), hook, thinking, custom, assistant("ok")]);
		const text = `${[header, ...entries].map((e) => JSON.stringify(e)).join("\n")}\n`;
		const read = readTranscript(text);
		expect(read.version).toBe(2);
		expect(read.anomalies).toEqual([]);
		expect(read.entries.map((e) => e.raw)).toEqual([
			entries[0],
			{ ...entries[1], message: { ...hook.message, role: "custom" } },
			entries[2],
			entries[3],
			entries[4],
		]);
	});
});

describe("entries nested too deep", () => {
	it("a line nested past the limit is named by its id, or by its line when it has none", () => {
		const [call] = chain([deepCall(3)], "a", "e2");
		const limits = { lineChars: MAX_LINE_CHARS, depth: 6 };
		const lines = [call, { ...call, id: "" }, { ...call, id: undefined }].map((e) => JSON.stringify(e));
		const read = readTranscript(`${SESSION}${lines.join("\n")}\n`, limits);
		expect(read.anomalies).toEqual([
			{ entry: "a1", reason: tooDeep(6) },
			{ entry: "line 5", reason: tooDeep(6) },
			{ entry: "line 6", reason: tooDeep(6) },
			{ entry: "line 5", reason: "entry has no id" },
			{ entry: "line 6", reason: "entry has no id" },
		]);
	});

	it("an entry in memory nested past the limit is named by its id, or by its place when it has none", () => {
		const [call] = chain([deepCall(MAX_DEPTH)], "a", "e2");
		const read = entriesFromObjects([call, { ...call, id: "" }, { ...call, id: undefined }]);
		expect(read.anomalies.filter((a) => a.reason === tooDeep(MAX_DEPTH))).toEqual([
			{ entry: "a1", reason: tooDeep(MAX_DEPTH) },
			{ entry: "entry 2", reason: tooDeep(MAX_DEPTH) },
			{ entry: "entry 3", reason: tooDeep(MAX_DEPTH) },
		]);
	});
});

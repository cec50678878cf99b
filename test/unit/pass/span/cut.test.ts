import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_COMPACTION_SETTINGS, type SessionEntry } from "@mariozechner/pi-coding-agent";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
// pi exports findCutPoint but not prepareCompaction, which adds where a span starts and when pi will not compact.
import { prepareCompaction } from "../../../../node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/compaction.js";
import { branchOf } from "../../../../src/events/branch.js";
import { type Entry, entriesFromObjects, readTranscript } from "../../../../src/events/transcript.js";
import { PI_KEEP_RECENT_TOKENS, piCut } from "../../../../src/pass/span/cut.js";
import { params } from "../../../properties/laws.js";
import { describeShared, repoRoot, sharedTranscripts } from "../../../support/shared.js";

// pi 0.73.1's prepareCompaction is the oracle: the entry it keeps from is the one piCut names, on real sessions
// cut at many points and keep settings, and on arbitrary branches of every entry kind.

/** The branch as pi holds it in memory (v1 files get the ids the reader derives). */
function asPi(branch: readonly Entry[]): SessionEntry[] {
	return branch.map((e) => ({ ...e.raw, id: e.id, parentId: e.parentId }) as unknown as SessionEntry);
}

function piKeeps(entries: readonly SessionEntry[], keep: number): string | undefined {
	return prepareCompaction([...entries], { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: keep })?.firstKeptEntryId;
}

function branchOfFile(path: string): Entry[] {
	return [...branchOf(readTranscript(readFileSync(path, "utf8")).entries).entries];
}

/** Every `step`-th prefix of the branch, cut at each keep setting: piCut against pi. */
function mismatches(branch: readonly Entry[], keeps: readonly number[], step: number): string[] {
	const pi = asPi(branch);
	const out: string[] = [];
	for (let end = step; end <= branch.length; end += step)
		for (const keep of keeps) {
			const ours = piCut(branch.slice(0, end), keep);
			const theirs = piKeeps(pi.slice(0, end), keep);
			if (ours !== theirs) out.push(`${end} entries, keep ${keep}: ${ours} vs pi's ${theirs}`);
		}
	return out;
}

describeShared("the cut on the real transcripts, against pi's prepareCompaction", () => {
	for (const name of ["before-compaction.jsonl", "large-session.jsonl"])
		it(`${name}: every 25th prefix, keeping 500 to 40,000 tokens`, () => {
			const branch = branchOfFile(join(sharedTranscripts, name));
			expect(mismatches(branch, [500, 5_000, PI_KEEP_RECENT_TOKENS, 40_000], 25)).toEqual([]);
			expect(piCut(branch, PI_KEEP_RECENT_TOKENS)).toBe(piKeeps(asPi(branch), PI_KEEP_RECENT_TOKENS));
		});
});

describe("the cut on the demo transcript", () => {
	it("matches pi's at every prefix and several keep settings", () => {
		const branch = branchOfFile(join(repoRoot, "test/fixtures/demo/demo.jsonl"));
		expect(mismatches(branch, [1, 60, 120, 400, PI_KEEP_RECENT_TOKENS], 1)).toEqual([]);
	});
});

const text = fc.string({ maxLength: 400 });
const block = fc.oneof(
	text.map((t) => ({ type: "text", text: t })),
	text.map((t) => ({ type: "thinking", thinking: t })),
	fc.record({ type: fc.constant("toolCall"), id: fc.constant("t1"), name: text, arguments: fc.dictionary(text, text) }),
);
const message = fc.oneof(
	fc.oneof(text, fc.array(block)).map((content) => ({ role: "user", content })),
	fc.array(block).map((content) => ({ role: "assistant", content })),
	fc.array(text.map((t) => ({ type: "text", text: t }))).map((content) => ({
		role: "toolResult",
		toolCallId: "t1",
		toolName: "bash",
		content,
		isError: false,
	})),
	fc.record({ role: fc.constant("bashExecution"), command: text, output: text, exitCode: fc.constant(0) }),
	fc.record({ role: fc.constant("custom"), customType: fc.constant("x"), content: text, display: fc.boolean() }),
);
type Shape =
	| { readonly type: "message"; readonly message: unknown }
	| { readonly type: "custom_message"; readonly content: string }
	| { readonly type: "branch_summary"; readonly summary: string }
	| { readonly type: "model_change" | "custom" }
	| { readonly type: "compaction"; readonly back: number };
const shape: fc.Arbitrary<Shape> = fc.oneof(
	{ weight: 8, arbitrary: message.map((m) => ({ type: "message" as const, message: m })) },
	{ weight: 1, arbitrary: text.map((content) => ({ type: "custom_message" as const, content })) },
	{ weight: 1, arbitrary: text.map((summary) => ({ type: "branch_summary" as const, summary })) },
	{ weight: 1, arbitrary: fc.constantFrom({ type: "model_change" as const }, { type: "custom" as const }) },
	{ weight: 1, arbitrary: fc.nat(40).map((back) => ({ type: "compaction" as const, back })) },
);

/** A branch of pi entries: ids in order, a compaction keeping from an entry `back` before it (or none that exists). */
function entriesOf(shapes: readonly Shape[]): Record<string, unknown>[] {
	return shapes.map((s, i) => {
		const base = { id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: new Date(i * 1000).toISOString() };
		switch (s.type) {
			case "message":
				return { ...base, type: "message", message: s.message };
			case "custom_message":
				return { ...base, type: "custom_message", customType: "x", content: s.content, display: true };
			case "branch_summary":
				return { ...base, type: "branch_summary", fromId: "e0", summary: s.summary };
			case "model_change":
				return { ...base, type: "model_change", provider: "p", modelId: "m" };
			case "custom":
				return { ...base, type: "custom", customType: "x", data: {} };
			default:
				return { ...base, type: "compaction", summary: "s", firstKeptEntryId: `e${i - s.back}`, tokensBefore: 1 };
		}
	});
}

describe("the cut on arbitrary branches", () => {
	it("names the entry pi's prepareCompaction keeps from, or nothing where pi would not compact", () => {
		fc.assert(
			fc.property(fc.array(shape, { maxLength: 60 }), fc.integer({ min: 1, max: 2_000 }), (shapes, keep) => {
				const objects = entriesOf(shapes);
				const ours = piCut(entriesFromObjects(objects).entries, keep);
				expect(ours).toBe(piKeeps(objects as unknown as SessionEntry[], keep));
			}),
			params({ numRuns: 300 }),
		);
	});
});

import { migrateSessionEntries, parseSessionEntries } from "@mariozechner/pi-coding-agent";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readTranscript } from "../../src/events/transcript.js";
import * as v1 from "../support/v1-transcript.js";
import { params } from "./laws.js";

// pi is the oracle for v1 files (no ids; a compaction names its first kept line by index): pi's own reader and
// migration (`parseSessionEntries`, `migrateSessionEntries`) link the entries and turn each index into an id. Every
// line carries its ordinal `n`, so an entry is named across the two readings by the line it came from.

/** A line of a v1 file: an entry (with its ordinal), or a line pi's reader keeps or skips that is no entry. */
type Piece =
	| { readonly kind: "user" | "assistant" | "custom" }
	| { readonly kind: "compaction"; readonly index: number }
	| { readonly kind: "blank" | "malformed" | "array" | "session" };

const piece: fc.Arbitrary<Piece> = fc.oneof(
	fc.constantFrom<Piece>({ kind: "user" }, { kind: "assistant" }, { kind: "custom" }),
	fc.record({
		kind: fc.constant("compaction" as const),
		index: fc.oneof(fc.integer({ min: -2, max: 14 }), fc.double()),
	}),
	fc.constantFrom<Piece>({ kind: "blank" }, { kind: "malformed" }, { kind: "array" }, { kind: "session" }),
);

/** The `n`th line of the file. */
function lineOf(p: Piece, n: number): string {
	switch (p.kind) {
		case "user":
			return JSON.stringify({ ...v1.user(`message ${n}`), n });
		case "assistant":
			return JSON.stringify({ ...v1.assistant(`reply ${n}`), n });
		case "custom":
			// A stranger's v1 line may carry an id of its own; pi's migration gives it a new one.
			return JSON.stringify({ type: "custom", customType: "note", data: {}, id: "L2", n });
		case "compaction":
			return JSON.stringify({ ...v1.compaction(`summary ${n}`, p.index), n });
		case "blank":
			return "   ";
		case "malformed":
			return '{"type": "message", "n":';
		case "array":
			return JSON.stringify([n]);
		case "session":
			return JSON.stringify({ type: "session", id: `other-${n}`, n });
	}
}

/** The file's text; the header is line 0 of pi's index. */
function fileText(pieces: readonly Piece[]): string {
	const lines = pieces.map(lineOf);
	return v1.v1Text([]) + lines.map((line) => `${line}\n`).join("");
}

/** What a reading says of one entry, by ordinals: its own, its parent's, and its first kept entry's. */
interface Linked {
	readonly n: unknown;
	readonly parent: unknown;
	readonly firstKept: unknown;
	readonly hasIndex: boolean;
}

/** A field of what pi parsed, read without a cast (pi's own types say less than a stranger's file holds). */
function field(e: unknown, key: string): unknown {
	return typeof e === "object" && e !== null && !Array.isArray(e) ? Reflect.get(e, key) : undefined;
}

/**
 * pi's reading: entries that are JSON objects, each parent the nearest object entry above it (an array line is an
 * entry to pi, with no fields, and no entry to the reader).
 */
function piLinks(text: string): Linked[] {
	const parsed = parseSessionEntries(text);
	migrateSessionEntries(parsed);
	const byId = new Map<unknown, unknown>();
	for (const e of parsed) if (e.type !== "session") byId.set(Reflect.get(e, "id"), e);
	const objectParent = (e: unknown): unknown => {
		let parent = byId.get(field(e, "parentId"));
		while (Array.isArray(parent)) parent = byId.get(Reflect.get(parent, "parentId"));
		return field(parent, "n");
	};
	return parsed
		.filter((e) => e.type !== "session" && !Array.isArray(e))
		.map((e) => ({
			n: field(e, "n"),
			parent: objectParent(e),
			firstKept: field(byId.get(field(e, "firstKeptEntryId")), "n"),
			hasIndex: "firstKeptEntryIndex" in e,
		}));
}

function ourLinks(text: string): Linked[] {
	const { entries } = readTranscript(text);
	const byId = new Map(entries.map((e) => [e.id, e]));
	return entries.map((e) => ({
		n: e.raw.n,
		parent: e.parentId === null ? undefined : byId.get(e.parentId)?.raw.n,
		firstKept: byId.get(String(e.raw.firstKeptEntryId))?.raw.n,
		hasIndex: "firstKeptEntryIndex" in e.raw,
	}));
}

describe("v1 files are linked as pi's migration links them", () => {
	it("same entries, same parents, same first kept entry for any index, the index dropped (pi is the oracle)", () => {
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
				const text = fileText(pieces);
				expect(ourLinks(text)).toEqual(piLinks(text));
			}),
			params({ numRuns: 500 }),
		);
	});

	it("a compaction naming a later line keeps no entry: pi's migration has given that line no id yet", () => {
		const text = fileText([{ kind: "user" }, { kind: "compaction", index: 3 }, { kind: "user" }]);
		expect(ourLinks(text).map((e) => e.firstKept)).toEqual([undefined, undefined, undefined]);
		expect(piLinks(text).map((e) => e.firstKept)).toEqual([undefined, undefined, undefined]);
	});
});

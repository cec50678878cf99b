import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactions } from "../../../../src/adapters/recall/passages.js";
import type { Entry } from "../../../../src/events/index.js";
import { type Folded, foldBranch } from "../../../../src/reducers/index.js";
import { params } from "../../../properties/laws.js";
import { longhaulDetails, type Raw } from "../../../support/entries.js";
import { spanClosed } from "../../../support/events.js";

// The compactions' kept boundaries as they were found before they were made linear (2026-12-07), as the oracle: the
// kept entry of each compaction was looked for by a scan back from the branch's end, so the last entry with its id.

function oldIndexOfId(entries: readonly Entry[], id: string): number {
	for (let i = entries.length - 1; i >= 0; i--) if (entries[i]?.id === id) return i;
	return -1;
}

function oldKeptBoundary(entries: readonly Entry[], at: number): number {
	const kept = entries[at]?.raw.firstKeptEntryId;
	const keptAt = typeof kept === "string" ? oldIndexOfId(entries, kept) : -1;
	return keptAt >= 0 && keptAt < at ? keptAt : at + 1;
}

function oldCompactions(folded: Folded): { readonly boundary: number; readonly name: string }[] {
	const spanOf = new Map<string, number>();
	for (const l of folded.events) if (l.event.type === "span-closed") spanOf.set(l.entry, l.event.data.span);
	const out: { boundary: number; name: string }[] = [];
	folded.branch.forEach((entry, at) => {
		if (entry.type !== "compaction") return;
		const span = spanOf.get(entry.id);
		out.push({
			boundary: oldKeptBoundary(folded.branch, at),
			name: span === undefined ? `compaction ${entry.id}` : `span ${span}`,
		});
	});
	return out;
}

/** An entry as the reader gives it, with `raw` holding what the fold and the boundaries read. */
function entry(id: string, raw: Raw): Entry {
	return { id, parentId: null, type: typeof raw.type === "string" ? raw.type : "message", raw: { ...raw, id } };
}

const message = (id: string): Entry => entry(id, { type: "message", message: { role: "user", content: id } });

const compaction = (id: string, firstKeptEntryId?: string, span?: number): Entry =>
	entry(id, {
		type: "compaction",
		summary: "earlier",
		tokensBefore: 1,
		...(firstKeptEntryId === undefined ? {} : { firstKeptEntryId }),
		...(span === undefined ? {} : { details: longhaulDetails(span, [spanClosed(span)]) }),
	});

/** Branches over few ids, so that an id stands twice, a kept entry before, after or at its compaction, or nowhere. */
const ids = fc.constantFrom("a", "b", "c", "d", "e");
const branch: fc.Arbitrary<Entry[]> = fc.array(
	fc.oneof(
		ids.map(message),
		fc
			.tuple(ids, fc.option(fc.oneof(ids, fc.constant("absent")), { nil: undefined }), fc.option(fc.nat(3)))
			.map(([id, kept, span]) => compaction(id, kept, span === null ? undefined : span + 1)),
	),
	{ maxLength: 30 },
);

describe("the compactions' kept boundaries, looked up in one map of the branch", () => {
	it("are the ones a scan back from the branch's end found", () => {
		fc.assert(
			fc.property(branch, (entries) => {
				const folded = foldBranch(entries);
				expect(compactions(folded)).toEqual(oldCompactions(folded));
			}),
			params({ numRuns: 500 }),
		);
	});

	it("take the last entry with the kept id, before the compaction or not at all", () => {
		const before = foldBranch([message("x"), message("y"), message("x"), compaction("c1", "x")]);
		expect(compactions(before)).toEqual([{ boundary: 2, name: "compaction c1" }]);
		const after = foldBranch([message("x"), compaction("c1", "x"), message("x"), compaction("c2", "x", 1)]);
		expect(compactions(after)).toEqual([
			{ boundary: 2, name: "compaction c1" },
			{ boundary: 2, name: "span 1" },
		]);
	});
});

import type { Folded } from "../../reducers/fold.js";
import { type CompactedSources, compactedPassages, compactedSources, sameSources } from "./passages.js";
import { indexPassages, type PassageIndex } from "./search.js";

/** The index of the last compacted history searched, with what it was built from. */
let kept: { readonly sources: CompactedSources; readonly index: PassageIndex } | undefined;

const EMPTY = indexPassages([]);

/**
 * The search index of the branch's compacted history, kept between calls: a call on the same newest compaction
 * (the same entry as pi holds it, on the same branch path, with as much folded) reuses the last one built; anything
 * else builds it afresh and keeps that instead.
 */
export function compactedIndex(folded: Folded): PassageIndex {
	const sources = compactedSources(folded);
	if (sources === undefined) return EMPTY;
	if (kept !== undefined && sameSources(kept.sources, sources)) return kept.index;
	const index = indexPassages(compactedPassages(folded));
	kept = { sources, index };
	return index;
}

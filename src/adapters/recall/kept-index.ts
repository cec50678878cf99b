import type { Entry } from "../../events/index.js";
import type { Folded } from "../../reducers/index.js";
import { type CompactedSources, compactedPassages, compactedSources, sameSources } from "./passages.js";
import { indexPassages, type PassageIndex } from "./search.js";

/** The index of the last compacted history searched, with what it was built from. */
let kept: { readonly sources: CompactedSources; readonly index: PassageIndex } | undefined;

const EMPTY = indexPassages([]);

/**
 * The search index of the branch's compacted history, kept between calls (docs/contracts.md, Recall): a call
 * on the same newest compaction (the same entry as pi holds it, on the same branch path, no event but notes after
 * it changed) reuses the last one built without folding; anything else folds the branch, builds the index afresh
 * and keeps that instead.
 */
export function compactedIndex(branch: readonly Entry[], fold: () => Folded): PassageIndex {
	const sources = compactedSources(branch);
	if (sources === undefined) return EMPTY;
	if (kept !== undefined && sameSources(kept.sources, sources)) return kept.index;
	const index = indexPassages(compactedPassages(fold()));
	kept = { sources, index };
	return index;
}

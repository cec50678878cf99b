import { EvidenceId, UserRef } from "../../../events/index.js";

/** The evidence ids `known` holds (ledger ids, and for a decision the span's `u<n>`), in the order given and each once, and the others. */
export function knownEvidence(
	ids: readonly string[],
	ledger: ReadonlySet<string>,
): { readonly kept: readonly string[]; readonly unknown: readonly string[] } {
	const kept: string[] = [];
	const unknown: string[] = [];
	for (const id of ids) {
		if (ledger.has(id) && (EvidenceId.is(id) || UserRef.is(id))) {
			if (!kept.includes(id)) kept.push(id);
		} else unknown.push(id);
	}
	return { kept, unknown };
}

import { EvidenceId } from "../../events/ids.js";

/** The evidence ids the ledger knows, in the order given and each once, and the ones it does not. */
export function knownEvidence(
	ids: readonly string[],
	ledger: ReadonlySet<string>,
): { readonly kept: readonly string[]; readonly unknown: readonly string[] } {
	const kept: string[] = [];
	const unknown: string[] = [];
	for (const id of ids) {
		if (ledger.has(id) && EvidenceId.is(id)) {
			if (!kept.includes(id)) kept.push(id);
		} else unknown.push(id);
	}
	return { kept, unknown };
}

import type { Entry, ReadAnomaly } from "./transcript.js";

/** The entries from the root to the leaf, and what broke the walk if anything did. */
export interface Branch {
	readonly entries: readonly Entry[];
	readonly anomalies: readonly ReadAnomaly[];
}

/**
 * The branch that ends at `leafId` (by default the last entry in file order, as pi resumes a session):
 * `parentId` followed to the root. A cycle or a missing parent ends the walk with an anomaly.
 */
export function branchOf(entries: readonly Entry[], leafId?: string): Branch {
	const byId = new Map<string, Entry>();
	const anomalies: ReadAnomaly[] = [];
	for (const entry of entries) {
		if (byId.has(entry.id)) anomalies.push({ entry: entry.id, reason: "duplicate id; the later entry is used" });
		byId.set(entry.id, entry);
	}
	const leaf = leafId === undefined ? entries[entries.length - 1] : byId.get(leafId);
	const path: Entry[] = [];
	const seen = new Set<string>();
	let current = leaf;
	while (current !== undefined) {
		if (seen.has(current.id)) {
			anomalies.push({ entry: current.id, reason: "parentId cycle; the branch stops here" });
			break;
		}
		seen.add(current.id);
		path.push(current);
		const parentId = current.parentId;
		if (parentId === null) break;
		current = byId.get(parentId);
		if (current === undefined)
			anomalies.push({ entry: parentId, reason: "parent entry is missing; the branch stops here" });
	}
	return { entries: path.reverse(), anomalies };
}

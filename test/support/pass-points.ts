import { runPass } from "../../src/adapters/pass/run-pass.js";
import { SPAN_ENTRY_TYPE } from "../../src/events/entries.js";
import { type Entry, entriesFromObjects, readTranscript } from "../../src/events/transcript.js";
import { estimateTokens, PI_KEEP_RECENT_TOKENS, piCut } from "../../src/pass/span/cut.js";
import { foldEntries, type State } from "../../src/reducers/index.js";
import type { Raw } from "./entries.js";
import { compactionEntry, passCaps, passRequest } from "./passes.js";

// A real transcript compacted by Longhaul alone, with no model (every pass narrative-less: the ledger needs none), at
// `score`'s points: the recording's own compactions where it has them (each keeping from where it kept), else one
// after every `every` user turns keeping pi's default; then one last pass that keeps as little as pi allows.

/** One compaction point: after the branch's first `at` entries, keeping from the entry `kept` (undefined: pi's). */
interface Point {
	readonly at: number;
	readonly kept: string | undefined;
}

const roleOf = (entry: Entry): unknown => {
	const message = entry.raw.message;
	return typeof message === "object" && message !== null && "role" in message ? message.role : undefined;
};

/** The recording's compactions, as points on its branch with them left out. */
function recordedPoints(entries: readonly Entry[]): Point[] {
	const points: Point[] = [];
	let kept = 0;
	for (const entry of entries) {
		if (entry.type !== "compaction") kept++;
		else {
			const id = entry.raw.firstKeptEntryId;
			points.push({ at: kept, kept: typeof id === "string" ? id : undefined });
		}
	}
	return points;
}

/** One point before the user message that opens every `every`-th turn after the first (as `replay`'s steps do). */
function everyPoints(entries: readonly Entry[], every: number): Point[] {
	const points: Point[] = [];
	let turns = 0;
	entries.forEach((entry, i) => {
		if (roleOf(entry) !== "user") return;
		if (turns > 0 && turns % every === 0) points.push({ at: i, kept: undefined });
		turns++;
	});
	return points;
}

/** The branch as v3 objects, each entry's parent the one before it. */
function linked(entries: readonly Entry[]): Raw[] {
	let parentId: string | null = null;
	return entries.map((entry) => {
		const raw: Raw = { ...entry.raw, id: entry.id, parentId };
		parentId = entry.id;
		return raw;
	});
}

/** The last entry pi may keep from: the newest message that is no tool result, and the tokens from it on. */
function leastKept(branch: readonly Entry[]): number {
	const at = branch.findLastIndex((e) => e.type === "message" && roleOf(e) !== "toolResult");
	return branch.slice(at).reduce((n, e) => n + (e.type === "message" ? estimateTokens(e.raw.message) : 0), 0);
}

async function compactAt(branch: Raw[], kept: string, n: number): Promise<Raw[]> {
	const outcome = await runPass(passRequest(branch, kept), passCaps(undefined));
	const last = branch.at(-1)?.id;
	const compaction = compactionEntry(`longhaul-${n}`, String(last), kept, outcome.details);
	const record: Raw = {
		type: "custom",
		id: `longhaul-${n}-span`,
		parentId: compaction.id,
		customType: SPAN_ENTRY_TYPE,
		data: { ...outcome.spanRecord, compactionId: compaction.id },
	};
	return [...branch, compaction, record];
}

/** What Longhaul's state is after every compaction of the replay and the last, least-keeping pass. */
export interface Compacted {
	readonly state: State;
	/** How many passes ran, the last one included. */
	readonly passes: number;
}

/** Compacts the transcript `text` by Longhaul alone at score's points, then once more keeping as little as pi allows. */
export async function compactedAtScorePoints(text: string, every: number): Promise<Compacted> {
	const all = readTranscript(text).entries;
	const recorded = recordedPoints(all);
	const entries = all.filter((e) => e.type !== "compaction");
	const points = recorded.length > 0 ? recorded : everyPoints(entries, every);
	const source = linked(entries);
	let branch: Raw[] = [];
	let taken = 0;
	let passes = 0;
	const relinked = (from: number, to: number): Raw[] =>
		source.slice(from, to).map((raw, i) => (i === 0 ? { ...raw, parentId: branch.at(-1)?.id ?? null } : raw));
	for (const point of [...points, { at: source.length, kept: undefined }]) {
		branch = [...branch, ...relinked(taken, point.at)];
		taken = point.at;
		const read = entriesFromObjects(branch).entries;
		const last = point.at === source.length;
		const kept = last ? piCut(read, leastKept(read)) : (point.kept ?? piCut(read, PI_KEEP_RECENT_TOKENS));
		if (kept === undefined) continue;
		passes++;
		branch = await compactAt(branch, kept, passes);
	}
	return { state: foldEntries(branch).state, passes };
}

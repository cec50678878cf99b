import { sanitize } from "../projections/index.js";
import type { ReplayCounts } from "./replay.js";
import { table, tally } from "./table.js";

/** One replayed transcript: its hashed name, its counts and how long it took. */
export interface ReplayRow {
	readonly name: string;
	readonly counts: ReplayCounts;
	readonly ms: number;
}

/** What the replay fakes, said once above its figures. */
export const FAKED =
	"Faked: the model only. Agent replies are the recorded ones, tools answer with their recorded results (nothing runs), " +
	"pi's summarizer gets the recorded summary, and Longhaul's diff gets a stand-in answer: what the recording's own " +
	'passes accepted where it has any, else "not a rule" for every message and a stand-in narrative. ' +
	"Real: pi (session, tools, compaction) and all of Longhaul.";

const sum = (counts: Readonly<Record<string, number>>) => Object.values(counts).reduce((a, b) => a + b, 0);

const METRICS: readonly (readonly [string, (c: ReplayCounts) => number])[] = [
	["user turns", (c) => c.turns],
	["recorded replies served", (c) => c.replies],
	["replies the recording lacked", (c) => c.synthetic],
	["recorded replies not asked for", (c) => c.unused],
	["retried error replies left out", (c) => c.dropped],
	["tool results answered", (c) => c.toolResults],
	["tool calls without a result", (c) => c.unanswered],
	["user ! runs", (c) => c.userRuns],
	["unreadable entries", (c) => c.unreadable],
	["compactions asked", (c) => c.compactionsAsked],
	["compactions pi refused", (c) => c.compactionsFailed],
	["compactions by Longhaul", (c) => c.compactions.longhaul],
	["compactions by pi", (c) => c.compactions.pi],
	["compactions by another", (c) => c.compactions.other],
	["narrative-less passes", (c) => c.narrativeLess],
	["partial passes", (c) => c.partial],
	["fallbacks", (c) => sum(c.fallbacks)],
	["handler errors", (c) => sum(c.handlerErrors)],
];

/** The replay's figures: one column per transcript, then the reasons behind fallbacks, closes and errors. */
export function replayReport(rows: readonly ReplayRow[]): string {
	const head = ["transcript", ...rows.map((r) => r.name)];
	const body = METRICS.map(([label, f]) => [label, ...rows.map((r) => String(f(r.counts)))]);
	const seconds = ["seconds", ...rows.map((r) => (r.ms / 1000).toFixed(1))];
	const reasons = rows.flatMap((r) => [
		`${r.name}: fallbacks: ${tally(r.counts.fallbacks)}; narrative-less or partial: ${tally(r.counts.closeReasons)}; handler errors: ${tally(r.counts.handlerErrors)}`,
	]);
	return sanitize(`${table([head, ...body, seconds])}${reasons.join("\n")}\n`);
}

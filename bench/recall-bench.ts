import { existsSync, readFileSync } from "node:fs";
import { compactedIndex } from "../src/adapters/recall/kept-index.js";
import { type PassageIndex, searchIndex } from "../src/adapters/recall/search.js";
import { createRedactor } from "../src/adapters/redact/index.js";
import { type Entry, type Event, encodeEvent, entriesFromObjects } from "../src/events/index.js";
import { type Folded, foldBranch, foldEntries, foldTranscript } from "../src/reducers/index.js";
import { median, report } from "./measure.js";

/** Turns of the synthetic session: four compacted passages each (user, assistant, tool output, assistant). */
const TURNS = 20_000;
const WORDS = [
	"parser",
	"wombat",
	"config",
	"loader",
	"vitest",
	"flaky",
	"socket",
	"retry",
	"schema",
	"token",
	"cache",
];
const word = (i: number): string => WORDS[i % WORDS.length] ?? "x";

/** A session of `turns` turns, each a user message, a bash call with its output and a reply, all compacted. */
export function compactedSession(turns: number): unknown[] {
	const entries: unknown[] = [{ type: "session", version: 3, id: "s", cwd: "/w" }];
	let parentId: string | null = null;
	const push = (id: string, fields: Record<string, unknown>) => {
		entries.push({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", ...fields });
		parentId = id;
	};
	const reply = (text: string, extra: unknown[] = []) => ({
		role: "assistant",
		content: [{ type: "text", text }, ...extra],
		stopReason: extra.length > 0 ? "toolUse" : "stop",
		timestamp: 0,
	});
	const events: Event[] = [];
	for (let t = 1; t <= turns; t++) {
		const command = `npm test -- ${t}`;
		push(`u${t}`, {
			message: { role: "user", content: `fix the ${word(t)} ${word(t * 7)} in module ${t}`, timestamp: 0 },
		});
		const call = { type: "toolCall", id: `t${t}`, name: "bash", arguments: { command } };
		push(`a${t}`, { message: reply(`Looking at the ${word(t * 3)} first.`, [call]) });
		const output = `PASS test/${word(t)}.test.ts\nFAIL test/${word(t * 5)}.test.ts: expected ${t} got ${t + 1}\n`;
		const content = [{ type: "text", text: output }];
		push(`r${t}`, {
			message: { role: "toolResult", toolCallId: `t${t}`, toolName: "bash", content, isError: false, timestamp: 0 },
		});
		push(`b${t}`, { message: reply(`The ${word(t * 11)} ${word(t * 2)} is fixed.`) });
		events.push({
			type: "command-recorded",
			data: { id: `C${t}`, command, exitCode: 1, span: 1, toolCallId: `t${t}`, by: "tool" },
		});
	}
	push("k", { message: { role: "user", content: "carry on", timestamp: 0 } });
	events.push({ type: "span-closed", data: { span: 1, kind: "whole", unlabeled: [], reason: null } });
	const stored = events.map((event, i) => ({ seq: i + 1, event: encodeEvent(event) }));
	const details = { stateFormat: 1, longhaul: true, span: 1, events: stored };
	const compaction = { summary: "s", firstKeptEntryId: "k", tokensBefore: 1, details };
	entries.push({ type: "compaction", id: "c1", parentId, timestamp: "2026-01-01T00:00:00.000Z", ...compaction });
	return entries;
}

/**
 * Milliseconds of this process's CPU time each of `runs` calls of `f` took, after one warm-up call: on a machine
 * others load too, closer to an idle run's time than the clock.
 */
async function cpuRuns(runs: number, f: () => Promise<unknown>): Promise<number[]> {
	await f();
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const start = process.cpuUsage();
		await f();
		const used = process.cpuUsage(start);
		times.push((used.user + used.system) / 1000);
	}
	return times;
}

/**
 * `longhaul_recall({ query })` as the tool runs it on each call (fold the branch, take the kept index, search,
 * redact the hits), as a ratio to folding the same branch in this run (issue 21: at most 2x); and the first call
 * after a compaction, which builds the index. On a synthetic session of 80k compacted passages, and on a real
 * transcript when ../shared has it.
 */
export async function recallBench(transcript: string): Promise<void> {
	const synthetic = compactedSession(TURNS);
	// As the tool reads pi's entries: `copy` gives every entry anew, a compaction the kept index has not seen.
	const read = (copy: boolean) => entriesFromObjects(copy ? synthetic.map(shallow) : synthetic).entries;
	await recallLines("synthetic", "wombat expected 19999", {
		target: true,
		fold: () => foldEntries(synthetic),
		index: (copy) => {
			const entries = read(copy);
			return compactedIndex(entries, () => foldBranch(entries));
		},
	});
	if (!existsSync(transcript)) {
		process.stdout.write("skip recall query on before-compaction.jsonl: ../shared/fixtures/transcripts is absent\n");
		return;
	}
	// Read once, as pi holds a session: each call reads the same entries.
	const branch = foldTranscript(readFileSync(transcript, "utf8")).branch;
	const copyOf = (e: Entry): Entry => ({ ...e, raw: { ...e.raw } });
	await recallLines("before-compaction", "tokensAfter does not exist", {
		target: false,
		fold: () => foldBranch(branch),
		index: (copy) => {
			const entries = copy ? branch.map(copyOf) : branch;
			return compactedIndex(entries, () => foldBranch(entries));
		},
	});
}

const shallow = (e: unknown): unknown => (typeof e === "object" ? { ...e } : e);

/**
 * A session as the bench reads it: its fold, and the index a recall takes (`copy`: of entries given anew). The
 * target holds for the synthetic session; a real one with no Longhaul events folds in about no time, so its ratio
 * is shown, not held to it.
 */
interface Measured {
	readonly target: boolean;
	readonly fold: () => Folded;
	readonly index: (copy: boolean) => PassageIndex;
}

/** The bench's two lines for one session: a call on the kept index against the fold, and a first call. */
async function recallLines(name: string, query: string, session: Measured): Promise<void> {
	const redactor = createRedactor(true);
	const passages = session.index(false).passages.length;
	const folding = median(await cpuRuns(5, async () => session.fold()));
	const warm = median(await cpuRuns(5, () => searchIndex(query, session.index(false), redactor)));
	const cold = median(await cpuRuns(3, () => searchIndex(query, session.index(true), redactor)));
	const ratio = warm / folding;
	const figure = `${ratio.toFixed(2)}x (${warm.toFixed(0)} vs ${folding.toFixed(0)} ms cpu)`;
	const line = `recall query, ${passages.toLocaleString("en")} passages (${name})`;
	if (session.target) report(line, figure, "<= 2x its fold", ratio <= 2);
	else process.stdout.write(`info ${line.padEnd(44)} ${figure.padEnd(34)} ratio to its fold; no target set\n`);
	const first = `${(cold / folding).toFixed(2)}x (${cold.toFixed(0)} ms cpu)`;
	process.stdout.write(
		`info ${"  first call, building the index".padEnd(44)} ${first.padEnd(34)} once per compaction\n`,
	);
}

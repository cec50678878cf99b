import { fauxAssistantMessage, fauxToolCall } from "@mariozechner/pi-ai";
import type { SessionBeforeCompactEvent, SessionEntry } from "@mariozechner/pi-coding-agent";
import { findCutPoint } from "@mariozechner/pi-coding-agent";
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SPAN_ENTRY_TYPE, SpanRecordCodec } from "../../src/events/entries.js";
import { entriesFromObjects } from "../../src/events/transcript.js";
import { derivedSpan, preparedSpan, type SpanEntries } from "../../src/pass/span/span.js";
import { carefulAnswer } from "../support/fake-summarizer.js";
import { longhaulSession, tick } from "../support/longhaul-session.js";
import { sessionManager073 } from "../support/pi-073.js";
import { type BranchEntry, fail, type Harness, lastUserText, type ModelCall } from "../support/pi-harness.js";
import { keepRecentTokens, type SessionStep, sessionSteps } from "./arbitraries.js";
import { params } from "./laws.js";

// pi is the oracle: in a real AgentSession (pi 0.73.1) with Longhaul loaded, an observer beside it records the
// preparation pi hands `session_before_compact`; the entry ids of the messages it summarizes are found by object
// identity (pi hands a message entry's own message) or, for what pi makes from a custom message or a branch
// summary, by its unique text. The pass must read exactly those, in order.

interface Seen {
	readonly preparation: SessionBeforeCompactEvent["preparation"];
	readonly branch: readonly SessionEntry[];
}

const seen: Seen[] = [];
let h: Harness;

/** pi 0.73.1's own session manager: the oracle is pi 0.73.1's cut. */
function sm073() {
	const sm = sessionManager073(h);
	if (sm === undefined) throw new Error("the span property runs against pi 0.73.1");
	return sm;
}
let failing = false;

beforeAll(async () => {
	h = await longhaulSession({
		autoCompaction: false,
		extensionFactories: [
			(pi) => {
				pi.on("session_before_compact", (event) => {
					seen.push({ preparation: event.preparation, branch: event.branchEntries });
					return undefined;
				});
			},
		],
	});
});
afterAll(async () => {
	await h?.dispose();
});

/** The entry each of pi's messages was made from. */
function oracleIds(seen: Seen): string[] {
	const { preparation, branch } = seen;
	return [...preparation.messagesToSummarize, ...preparation.turnPrefixMessages].map((message) => {
		const entry = branch.find(
			(e) =>
				(e.type === "message" && e.message === message) ||
				(e.type === "custom_message" && message.role === "custom" && message.content === e.content) ||
				(e.type === "branch_summary" && message.role === "branchSummary" && message.summary === e.summary),
		);
		return entry?.id ?? "(no entry)";
	});
}

function idsOf(branch: readonly SessionEntry[], span: SpanEntries | undefined): string[] | undefined {
	return span?.at.map((i) => branch[i]?.id ?? "(none)");
}

/**
 * The bounds in the span record after the branch's newest compaction, or "none" when it has none. Found by place,
 * not by `compactionId`: pi names the first compaction in the file with the same summary, and the runs here share
 * one session file.
 */
function recordedBounds(branch: readonly BranchEntry[]): unknown {
	const at = branch.findLastIndex((e) => e.type === "compaction");
	const entry = branch.slice(at + 1).find((e) => e.type === "custom" && e.customType === SPAN_ENTRY_TYPE);
	const record = SpanRecordCodec.decode(entry?.type === "custom" ? entry.data : undefined);
	return E.isRight(record) ? (record.right.bounds ?? null) : "none";
}

/** pi's own compaction as it would write it: its cut at `keep` tokens after the newest compaction's kept entry. */
function piCompaction(keep: number): void {
	const branch = sm073().getBranch();
	if (branch.length === 0 || branch.at(-1)?.type === "compaction") return;
	const newest = branch.findLast((e) => e.type === "compaction");
	const keptAt = newest?.type === "compaction" ? branch.findIndex((e) => e.id === newest.firstKeptEntryId) : -1;
	const start = newest === undefined ? 0 : keptAt >= 0 ? keptAt : branch.indexOf(newest) + 1;
	const cut = findCutPoint(branch, start, branch.length, keep);
	const kept = branch[cut.firstKeptEntryIndex];
	if (kept === undefined) return;
	sm073().appendCompaction("pi's summary", kept.id, 1, { readFiles: [], modifiedFiles: [] }, false);
}

/** One real compaction through pi with Longhaul; the check of what pi prepared and what the pass read. */
async function longhaulCompaction(keep: number, fails: boolean): Promise<string | undefined> {
	h.session.settingsManager.applyOverrides({ compaction: { keepRecentTokens: keep } });
	failing = fails;
	const before = seen.length;
	await h.compact().catch(() => undefined);
	await tick();
	const prepared = seen[before];
	if (prepared === undefined) return undefined;
	const entries = entriesFromObjects(prepared.branch).entries;
	const messages = [...prepared.preparation.messagesToSummarize, ...prepared.preparation.turnPrefixMessages];
	const { firstKeptEntryId } = prepared.preparation;
	const expected = oracleIds(prepared);
	const bounds = expected.length === 0 ? null : { first: expected[0], last: expected.at(-1) };
	const got = {
		prepared: idsOf(prepared.branch, preparedSpan(entries, firstKeptEntryId, messages)),
		derived: idsOf(prepared.branch, derivedSpan(entries, firstKeptEntryId)),
		recorded: recordedBounds(h.branch()),
	};
	const want = { prepared: expected, derived: expected, recorded: bounds };
	return JSON.stringify(got) === JSON.stringify(want) ? undefined : JSON.stringify({ got, want });
}

let unique = 0;

async function play(step: SessionStep): Promise<string | undefined> {
	const sm = sm073();
	const timestamp = Date.now();
	const tag = ` #${++unique}`;
	switch (step.kind) {
		case "user":
			sm.appendMessage({ role: "user", content: step.text + tag, timestamp });
			return undefined;
		case "assistant": {
			if (!step.tool) {
				sm.appendMessage({ ...fauxAssistantMessage(step.text + tag), timestamp });
				return undefined;
			}
			const call = fauxToolCall("bash", { command: `echo ${unique}` });
			sm.appendMessage({ ...fauxAssistantMessage([call], { stopReason: "toolUse" }), timestamp });
			const content = [{ type: "text" as const, text: step.text + tag }];
			sm.appendMessage({
				role: "toolResult",
				toolCallId: call.id,
				toolName: "bash",
				content,
				isError: false,
				timestamp,
			});
			return undefined;
		}
		case "bash":
			sm.appendMessage({
				role: "bashExecution",
				command: `echo ${unique}`,
				output: step.output,
				exitCode: 0,
				cancelled: false,
				truncated: false,
				excludeFromContext: step.exclude,
				timestamp,
			});
			return undefined;
		case "custom-message":
			sm.appendCustomMessageEntry("probe.note", step.text + tag, true);
			return undefined;
		case "custom":
			sm.appendCustomEntry("probe.data", { n: unique });
			return undefined;
		case "setting":
			sm.appendThinkingLevelChange(unique % 2 === 0 ? "off" : "low");
			return undefined;
		case "branch": {
			const from = sm.getBranch().at(-1 - step.back);
			if (from !== undefined) sm.branchWithSummary(from.id, `left a branch${tag}`);
			return undefined;
		}
		case "compact":
			if (step.by === "pi") {
				piCompaction(step.keep);
				return undefined;
			}
			return longhaulCompaction(step.keep, step.fails);
	}
}

describe("spans against pi", () => {
	it("the pass's span is pi's: the entries of the messages pi's preparation summarizes, in order", async () => {
		h.model.scriptSide(
			...Array.from(
				{ length: 2000 },
				() => (call: ModelCall) => (failing ? fail("down") : carefulAnswer(lastUserText(call))),
			),
		);
		await fc.assert(
			fc.asyncProperty(sessionSteps, keepRecentTokens, async (steps, keep) => {
				sm073().resetLeaf();
				const faults: string[] = [];
				for (const step of steps) {
					const fault = await play(step);
					if (fault !== undefined) faults.push(fault);
				}
				const last = await longhaulCompaction(keep, false);
				if (last !== undefined) faults.push(last);
				expect(faults).toEqual([]);
			}),
			params({ numRuns: 12 }),
		);
	});
});

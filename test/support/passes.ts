import { DEFAULT_CONFIG } from "../../src/adapters/config.js";
import type { ModelReply, ModelRequest, PassModel } from "../../src/adapters/pass/model.js";
import {
	type PassCapabilities,
	type PassOutcome,
	type PassRequest,
	type PassSettings,
	runPass,
} from "../../src/adapters/pass/run-pass.js";
import { createRedactor } from "../../src/adapters/redact/index.js";
import { type Anomaly, type Folded, foldEntries } from "../../src/reducers/index.js";
import type { Raw } from "./entries.js";
import { carefulAnswer } from "./fake-summarizer.js";

/** The pass settings of `longhaul.json`'s defaults. */
export const PASS_SETTINGS: PassSettings = { ...DEFAULT_CONFIG, narrativeMode: "single" };

/** A pass's request over `branch` keeping from `firstKeptEntryId`: no repository at its cwd, never aborted. */
export function passRequest(
	branch: readonly Raw[],
	firstKeptEntryId: string,
	settings: PassSettings = PASS_SETTINGS,
	signal: AbortSignal = new AbortController().signal,
): PassRequest {
	return { branch, firstKeptEntryId, cwd: "/nowhere", signal, settings };
}

/** The footer statuses a pass of one diff call shows, step by step, then the clearing `undefined`. */
export const ONE_CALL_STATUSES: readonly (string | undefined)[] = [
	"Longhaul: fold",
	"Longhaul: redact",
	"Longhaul: ledger",
	"Longhaul: world",
	"Longhaul: diff 1/1",
	"Longhaul: close",
	undefined,
];

/** A model whose every reply is computed from the request; it records the requests it got. */
export function answeringModel(
	answer: (request: ModelRequest, signal: AbortSignal) => string | Promise<string>,
): PassModel & { readonly requests: ModelRequest[] } {
	const requests: ModelRequest[] = [];
	return {
		name: "answering/model",
		maxTokens: 32_000,
		contextWindow: 200_000,
		reasoning: null,
		routeNotUsed: null,
		requests,
		call: async (request: ModelRequest, signal: AbortSignal): Promise<ModelReply> => {
			requests.push(request);
			const text = await answer(request, signal);
			return { text, stopReason: "stop", errorMessage: "", inputTokens: 1, outputTokens: 1 };
		},
	};
}

/** A model that labels every message as a careful model would (see `carefulAnswer`). */
export function carefulModel(): PassModel & { readonly requests: ModelRequest[] } {
	return answeringModel((request) => carefulAnswer(request.prompt));
}

/** A pass's capabilities around this model: no repository, no footer, a clock that stands still, the redactor on. */
export function passCaps(
	model: PassModel | undefined,
	redact: PassCapabilities["redact"] = createRedactor(true).redactAll,
): PassCapabilities {
	return {
		model,
		noModelReason: "no-model",
		takeWorld: async () => ({ taken: false, reason: "not a git repository" }),
		status: () => undefined,
		now: () => 0,
		redact,
	};
}

function idOf(entry: Raw | undefined): string {
	const id = entry?.id;
	if (typeof id !== "string") throw new Error("test branch: the last entry has no id");
	return id;
}

/**
 * One pass over `branch` in single mode, keeping from `firstKeptEntryId` (its last entry unless given), through
 * `model`, the texts redacted by `redact`; no repository to look at, a clock that stands still.
 */
export function passOver(
	branch: Raw[],
	model: PassModel | undefined,
	redact: PassCapabilities["redact"],
	firstKeptEntryId = idOf(branch.at(-1)),
): ReturnType<typeof runPass> {
	return runPass(passRequest(branch, firstKeptEntryId), passCaps(model, redact));
}

/** The branch folded with a pass's compaction (`details`) appended at its leaf, as pi appends it, kept from the leaf. */
export function foldedAfter(branch: readonly Raw[], details: unknown, id = "c1"): Folded {
	const leaf = String(branch.at(-1)?.id);
	return foldEntries([...branch, compactionEntry(id, leaf, leaf, details)]);
}

/** A compaction entry holding a pass's details, as pi appends it after `parentId`. */
export function compactionEntry(id: string, parentId: string, firstKeptEntryId: string, details: unknown): Raw {
	return {
		type: "compaction",
		id,
		parentId,
		timestamp: "2026-01-01T00:00:00.000Z",
		summary: "s",
		firstKeptEntryId,
		tokensBefore: 1,
		fromHook: true,
		details,
	};
}

/**
 * Runs a pass over `branch`, keeping its last entry, and returns the branch with the compaction entry `id` that pi
 * would append; rejects when the pass does.
 */
export async function compactBranch(
	branch: readonly Raw[],
	model: PassModel | undefined,
	id: string,
	signal: AbortSignal = new AbortController().signal,
): Promise<{ readonly branch: Raw[]; readonly outcome: PassOutcome }> {
	const last = idOf(branch.at(-1));
	const outcome = await runPass(passRequest(branch, last, PASS_SETTINGS, signal), passCaps(model));
	return { branch: [...branch, compactionEntry(id, last, last, outcome.details)], outcome };
}

/** What makes a branch's state consistent: each span closed once, in order; stored seqs rising; no anomaly. */
export interface Consistency {
	readonly spans: readonly number[];
	readonly seqs: "strictly increasing" | readonly number[];
	readonly anomalies: readonly Anomaly[];
}

/** The consistency facts of a fold, to compare with `{ spans: [1, …, n], seqs: "strictly increasing", anomalies: [] }`. */
export function consistency(folded: Folded): Consistency {
	const seqs = folded.events.flatMap((l) => (l.seq === null ? [] : [l.seq]));
	const rising = seqs.every((seq, i) => i === 0 || seq > (seqs[i - 1] ?? 0));
	return {
		spans: folded.state.closes.map((c) => c.span),
		seqs: rising ? "strictly increasing" : seqs,
		anomalies: folded.state.anomalies,
	};
}

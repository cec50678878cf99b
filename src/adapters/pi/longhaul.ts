import type { ExtensionAPI, ExtensionContext, SessionBeforeCompactEvent } from "@mariozechner/pi-coding-agent";
import type { World } from "../../events/index.js";
import { LINE_ENTRY_TYPE, SPAN_ENTRY_TYPE } from "../../events/index.js";
import { stateView, taggedRulesNotice } from "../../projections/index.js";
import { foldEntries } from "../../reducers/index.js";
import { loadConfig, type Route, redactNotice } from "../config.js";
import { errorFields, type Log, type LogConfig, logReport } from "../log/index.js";
import { type Summarizer, summarizerModel } from "../pass/pi-model.js";
import { redactingModel } from "../pass/redacting-model.js";
import type { PassOutcome, runPass } from "../pass/run-pass.js";
import { createRedactor } from "../redact/index.js";
import { onCompactFailed } from "./compact-failed.js";
import { stripKeptWindow } from "./kept-window.js";
import { capNotice, compactionRecord, sessionFields } from "./log-fields.js";
import {
	type CompactionEffect,
	type CompactionEvent,
	idle,
	nextPending,
	type PendingCompaction,
} from "./pending-compaction.js";
import { selection, versionVerified } from "./selection.js";
import { registerTools } from "./tools.js";

/** Everything the extension touches outside pi, passed in: the production wiring is `src/extension.ts`. */
export interface LonghaulDeps {
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly home: string;
	readonly agentDir: string;
	readonly piVersion: string;
	readonly now: () => number;
	readonly takeWorld: (cwd: string) => Promise<World>;
	readonly runPass: typeof runPass;
	readonly log: Log;
	readonly logConfig: LogConfig;
	/** Runs `f` one event-loop turn later. */
	readonly defer: (f: () => void) => void;
}

const STATUS_KEY = "longhaul";

function routeSpec(route: Route | null): string | null {
	if (route === null) return null;
	return `${route.provider}/${route.model}${route.thinking === undefined ? "" : `:${route.thinking}`}`;
}

/** The id of the newest compaction entry of a branch, if it has one. */
function newestCompactionId(branch: readonly { readonly type: string; readonly id: string }[]): string | undefined {
	for (let i = branch.length - 1; i >= 0; i--) if (branch[i]?.type === "compaction") return branch[i]?.id;
	return undefined;
}

/**
 * The notice of a pass that did not close whole: its reason, and why no model answered where no call path reached
 * the model's provider; pi 0.80-0.85, where this happens, is not in the e2e suite, so a unit test reads it.
 * Exported for tests.
 */
export function closeNotice(outcome: Pick<PassOutcome, "span" | "kind" | "reason">, summarizer: Summarizer): string {
	const closed = `Longhaul: span ${outcome.span} closed ${outcome.kind} (${outcome.reason ?? "no reason"})`;
	if (summarizer.kind !== "none" || summarizer.reason !== "provider-unreachable") return `${closed}.`;
	return (
		`${closed}: the model's provider "${summarizer.provider.slice(0, 40)}" is registered by an extension with its own ` +
		"stream, and this pi gives extensions no call that reaches it (pi 0.80 to 0.85; pi 0.86 and later do)."
	);
}

/**
 * Runs passes one at a time: a compaction that starts while another's pass runs (a manual /compact during an
 * automatic one) waits for it, and for one event-loop turn more, when pi has stored what that pass returned.
 */
function passQueue(defer: LonghaulDeps["defer"]) {
	let last: Promise<void> = Promise.resolve();
	const afterTurn = () => new Promise<void>((resolve) => defer(resolve));
	return <T>(pass: () => Promise<T>): Promise<T> => {
		const turn = last.then(pass);
		last = turn.then(afterTurn, afterTurn);
		return turn;
	};
}

/** Performs what a transition of the pending compaction returned, in its order. */
function perform(pi: ExtensionAPI, deps: LonghaulDeps, ctx: ExtensionContext, effects: readonly CompactionEffect[]) {
	// Most transitions perform nothing (every input and agent turn is one): the session's fields are read only to log.
	if (effects.length === 0) return;
	const fields = sessionFields(pi, ctx);
	for (const effect of effects) {
		switch (effect.kind) {
			case "compact-failed": {
				const { kind, ...record } = effect;
				deps.log.write({ event: kind, ...fields, ...record });
				break;
			}
			case "compacted": {
				const { kind, ...record } = effect;
				deps.log.write({ event: kind, ...fields, ...record });
				break;
			}
			case "span-record":
				try {
					pi.appendEntry(SPAN_ENTRY_TYPE, effect.record);
				} catch (error) {
					const failure = errorFields(error, deps.home, deps.logConfig.stack);
					deps.log.write({ event: "span-record-failed", ...fields, span: effect.record.span, ...failure });
				}
				break;
			case "line":
				deps.defer(() => {
					try {
						pi.appendEntry(LINE_ENTRY_TYPE, effect.line);
					} catch (error) {
						const failure = errorFields(error, deps.home, deps.logConfig.stack);
						deps.log.write({ event: "compaction-line-failed", ...fields, ...failure });
					}
				});
				break;
		}
	}
}

/** What every hook of one registration shares: pi, the dependencies, the pending compaction's mover, the log fields. */
interface Wiring {
	readonly pi: ExtensionAPI;
	readonly deps: LonghaulDeps;
	/** Moves the pending compaction on `event` and performs what the move returned. */
	readonly track: (ctx: ExtensionContext, event: CompactionEvent) => void;
	readonly session: (ctx: ExtensionContext) => ReturnType<typeof sessionFields>;
}

/** The user's settings for the project at `cwd`, read afresh (the user may edit them mid-session), and its redactor. */
function settingsFor(deps: LonghaulDeps, cwd: string) {
	const { config, problems } = loadConfig(deps.agentDir, cwd);
	return { config, problems, redactor: createRedactor(config.redact) };
}

/** At startup and reload: the `extension-loaded` record, and the notices of a compactor stood down or a bad config. */
function announce(w: Wiring, selected: ReturnType<typeof selection>) {
	w.pi.on("session_start", (event, ctx) => {
		const { deps } = w;
		if (event.reason === "startup" || event.reason === "reload") {
			const piVersionVerified = versionVerified(deps.piVersion);
			deps.log.write({ event: "extension-loaded", ...w.session(ctx), piVersion: deps.piVersion, piVersionVerified });
		}
		if (selected.kind === "unknown")
			ctx.ui.notify(
				`Longhaul stands down: PI_COMPACTOR is "${selected.value.slice(0, 40)}" (use "state" or "pi").`,
				"warning",
			);
		if (selected.kind !== "longhaul") return;
		const { config, problems } = settingsFor(deps, ctx.cwd);
		if (problems.length > 0) ctx.ui.notify(`Longhaul config: ${problems.join("; ")}`, "warning");
		const notice = redactNotice(config);
		if (notice !== undefined) ctx.ui.notify(notice, "warning");
	});
}

/**
 * Longhaul's pass for one compaction: the summarizer route, the pass, its log record and notice, and what pi stores.
 * A pass that throws falls back to pi's own compaction; an aborted one cancels.
 */
async function compactWithLonghaul(w: Wiring, event: SessionBeforeCompactEvent, ctx: ExtensionContext) {
	const { deps, track, session } = w;
	const status = (text: string | undefined) => ctx.ui.setStatus(STATUS_KEY, text);
	track(ctx, { type: "began", pass: true });
	const started = deps.now();
	try {
		const { config, redactor } = settingsFor(deps, ctx.cwd);
		const summarizer = await summarizerModel(ctx.model, ctx.modelRegistry, config.summarizer ?? undefined);
		const model = redactingModel(summarizer.kind === "model" ? summarizer.model : undefined, redactor);
		const noModelReason = summarizer.kind === "none" ? summarizer.reason : "no-model";
		const outcome = await deps.runPass(
			{
				branch: event.branchEntries,
				firstKeptEntryId: event.preparation.firstKeptEntryId,
				messages: [...event.preparation.messagesToSummarize, ...event.preparation.turnPrefixMessages],
				cwd: ctx.cwd,
				signal: event.signal,
				settings: config,
			},
			{
				model,
				noModelReason,
				takeWorld: deps.takeWorld,
				status,
				now: deps.now,
				redact: redactor.redactAll,
				redactSummary: redactor.redact,
			},
		);
		track(ctx, { type: "pass-returned", started, pass: outcome });
		deps.log.write(
			compactionRecord(session(ctx), outcome, {
				tokensBefore: event.preparation.tokensBefore,
				durationMs: deps.now() - started,
				configured: routeSpec(config.summarizer),
				used: model?.name ?? "none",
				notUsed: model?.routeNotUsed ?? null,
				reasoning: model?.reasoning ?? null,
				excerpts: deps.logConfig.excerpts,
			}),
		);
		if (outcome.kind !== "whole") ctx.ui.notify(closeNotice(outcome, summarizer), "warning");
		const overCap = capNotice(outcome.capFit);
		if (overCap !== undefined) ctx.ui.notify(overCap, "warning");
		const hidden = taggedRulesNotice(outcome.taggedRules);
		if (hidden !== undefined) ctx.ui.notify(hidden, "warning");
		const { firstKeptEntryId, tokensBefore } = event.preparation;
		return { compaction: { summary: outcome.summary, firstKeptEntryId, tokensBefore, details: outcome.details } };
	} catch (error) {
		const fields = errorFields(error, deps.home, deps.logConfig.stack);
		const aborted = event.signal.aborted;
		track(ctx, aborted ? { type: "pass-aborted" } : { type: "pass-threw", errorClass: fields.errorClass });
		status(undefined);
		if (aborted) {
			deps.log.write({ event: "aborted", ...session(ctx), reason: "signal", ...fields });
			// Cancelled: pi's own compaction must not start on the aborted signal either.
			return { cancel: true };
		}
		deps.log.write({ event: "fallback", ...session(ctx), reason: "pass-threw", ...fields });
		ctx.ui.notify(`Longhaul: the pass failed (${fields.errorClass}); pi's own compaction takes over.`, "warning");
		return undefined;
	}
}

/** The kept-window strip: old reasoning left out of the context pi sends, logged once per compaction. */
function stripOnContext(w: Wiring) {
	const { pi, deps, session } = w;
	/** The compactions whose kept-window strip was logged: once per compaction, though pi asks for context each turn. */
	const stripsLogged = new Set<string>();
	pi.on("context", (event, ctx) => {
		const branch = ctx.sessionManager.getBranch();
		let compaction: { id: string; timestamp: string } | undefined;
		for (let i = branch.length - 1; i >= 0 && compaction === undefined; i--) {
			const entry = branch[i];
			if (entry?.type === "compaction") compaction = entry;
		}
		const cutoff = compaction === undefined ? Number.NaN : Date.parse(compaction.timestamp);
		if (compaction === undefined || Number.isNaN(cutoff)) return undefined;
		const result = stripKeptWindow(event.messages, cutoff);
		if (result.blocks === 0) return undefined;
		if (!stripsLogged.has(compaction.id)) {
			stripsLogged.add(compaction.id);
			deps.log.write({
				event: "kept-window-strip",
				...session(ctx),
				cutoff: compaction.id,
				strippedBlocks: result.blocks,
				strippedChars: result.chars,
				contextMessages: event.messages.length,
			});
		}
		return { messages: result.messages };
	});
}

/** The `/longhaul` and `/longhaul-report` commands. */
function registerCommands(pi: ExtensionAPI, deps: LonghaulDeps) {
	pi.registerCommand("longhaul", {
		description: "Show Longhaul's state of the branch in view",
		handler: async (_args, ctx) => {
			// The session's state is never kept in memory: the branch in view is folded on every read, so a fork, a
			// resume, a reload, a /tree move or a note just remembered can never leave it stale.
			const view = stateView(foldEntries(ctx.sessionManager.getBranch()).state);
			ctx.ui.notify(await settingsFor(deps, ctx.cwd).redactor.redact(view), "info");
		},
	});
	pi.registerCommand("longhaul-report", {
		description: "A digest of Longhaul's newest log records, safe to paste into a public issue",
		handler: async (_args, ctx) => {
			const { redactor } = settingsFor(deps, ctx.cwd);
			ctx.ui.notify(await redactor.redact(logReport(deps.logConfig, deps.home)), "info");
		},
	});
}

/** Registers Longhaul's hooks, tools and commands on pi. */
export function registerLonghaul(pi: ExtensionAPI, deps: LonghaulDeps): void {
	const selected = selection(deps.env.PI_COMPACTOR);
	/** The compaction Longhaul saw begin and has not yet seen end (see `pending-compaction.ts`). */
	let pending: PendingCompaction = idle;
	const queuePass = passQueue(deps.defer);
	const w: Wiring = {
		pi,
		deps,
		session: (ctx) => sessionFields(pi, ctx),
		track: (ctx, event) => {
			const step = nextPending(pending, event);
			pending = step.state;
			perform(pi, deps, ctx, step.effects);
		},
	};
	const { track } = w;

	announce(w, selected);
	onCompactFailed(pi, (reason, ctx) => track(ctx, { type: "pi-failed", reason }));
	pi.on("input", (_event, ctx) => track(ctx, { type: "went-on" }));
	pi.on("agent_start", (_event, ctx) => track(ctx, { type: "went-on" }));
	pi.on("session_before_compact", (event, ctx) => {
		if (selected.kind !== "longhaul") {
			track(ctx, { type: "began", pass: false });
			return undefined;
		}
		// A compaction that waited for another's pass is cancelled if that one stored a compaction, since it would
		// close the same span again.
		return queuePass(async () =>
			newestCompactionId(event.branchEntries) !== newestCompactionId(ctx.sessionManager.getBranch())
				? { cancel: true }
				: compactWithLonghaul(w, event, ctx),
		);
	});
	pi.on("session_compact", (event, ctx) => {
		const entry = event.compactionEntry;
		track(ctx, {
			type: "stored",
			fromExtension: event.fromExtension,
			compactionId: entry.id,
			summaryChars: entry.summary.length,
			tokensBefore: entry.tokensBefore,
			now: deps.now(),
		});
	});

	if (selected.kind === "longhaul") stripOnContext(w);
	registerTools(pi, (cwd) => settingsFor(deps, cwd).redactor);
	registerCommands(pi, deps);
}

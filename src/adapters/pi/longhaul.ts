import type {
	ExtensionAPI,
	ExtensionContext,
	SessionBeforeCompactEvent,
	SessionCompactEvent,
} from "@mariozechner/pi-coding-agent";
import { LINE_ENTRY_TYPE, SPAN_ENTRY_TYPE, STATE_FORMAT } from "../../events/entries.js";
import type { World } from "../../events/world.js";
import { stateView } from "../../projections/state-views.js";
import { foldEntries } from "../../reducers/fold.js";
import { loadConfig, type Route, redactNotice } from "../config.js";
import { errorFields, type Log, type LogConfig, logReport } from "../log/index.js";
import { type Summarizer, summarizerModel } from "../pass/pi-model.js";
import type { PassOutcome, runPass } from "../pass/run-pass.js";
import { createRedactor, redactingModel, redactRendered } from "../redact/index.js";
import { onCompactFailed } from "./compact-failed.js";
import { stripKeptWindow } from "./kept-window.js";
import { compactionRecord, sessionFields } from "./log-fields.js";
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

/** A compaction Longhaul saw begin and has not yet seen end. */
interface Pending {
	readonly started: number;
	readonly outcome: PassOutcome | undefined;
	readonly fallback: string | undefined;
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
 * the model's provider. Exported for its unit test (pi 0.80-0.85, where this happens, is not in the e2e suite).
 */
export function closeNotice(outcome: Pick<PassOutcome, "span" | "kind" | "reason">, summarizer: Summarizer): string {
	const closed = `Longhaul: span ${outcome.span} closed ${outcome.kind} (${outcome.reason ?? "no reason"})`;
	if (summarizer.kind !== "none" || summarizer.reason !== "provider-unreachable") return `${closed}.`;
	return (
		`${closed}: the model's provider "${summarizer.provider.slice(0, 40)}" is registered by an extension with its own ` +
		"stream, and this pi gives extensions no call that reaches it (pi 0.80 to 0.85; pi 0.86 and later do)."
	);
}

/** Registers Longhaul's hooks, tools and commands on pi. */
export function registerLonghaul(pi: ExtensionAPI, deps: LonghaulDeps): void {
	const selected = selection(deps.env.PI_COMPACTOR);
	let pending: Pending | undefined;
	const stripped = new Set<string>();

	const session = (ctx: ExtensionContext) => sessionFields(pi, ctx);
	/**
	 * A compaction that began and never stored an entry: reported when pi says so (`session_compact_failed`, pi >=
	 * 0.84.3), else inferred at the next input, agent turn or compaction (pi 0.73 sends extensions no such event).
	 */
	const settleFailed = (ctx: ExtensionContext, reason: string) => {
		if (pending === undefined) return;
		deps.log.write({ event: "compact-failed", ...session(ctx), reason, span: pending.outcome?.span ?? null });
		pending = undefined;
	};

	pi.on("session_start", (event, ctx) => {
		if (event.reason === "startup" || event.reason === "reload") {
			const piVersionVerified = versionVerified(deps.piVersion);
			deps.log.write({ event: "extension-loaded", ...session(ctx), piVersion: deps.piVersion, piVersionVerified });
		}
		if (selected.kind === "unknown")
			ctx.ui.notify(
				`Longhaul stands down: PI_COMPACTOR is "${selected.value.slice(0, 40)}" (use "state" or "pi").`,
				"warning",
			);
		if (selected.kind !== "longhaul") return;
		const { config, problems } = loadConfig(deps.agentDir, ctx.cwd);
		if (problems.length > 0) ctx.ui.notify(`Longhaul config: ${problems.join("; ")}`, "warning");
		const notice = redactNotice(config);
		if (notice !== undefined) ctx.ui.notify(notice, "warning");
	});
	/** True while a pass runs: pi fails a compaction only after its handlers answered, so a failure then is another's. */
	let passRunning = false;
	onCompactFailed(pi, (reason, ctx) => {
		if (!passRunning) settleFailed(ctx, reason);
	});
	pi.on("input", (_event, ctx) => settleFailed(ctx, "no-compaction-entry"));
	pi.on("agent_start", (_event, ctx) => settleFailed(ctx, "no-compaction-entry"));

	/** The pass in flight; it settles one loop turn after the pass ends, when pi has stored what it returned. */
	let inFlight: Promise<void> = Promise.resolve();
	const afterTurn = () => new Promise<void>((resolve) => deps.defer(resolve));

	pi.on("session_before_compact", (event, ctx) => {
		const begin = () => {
			settleFailed(ctx, "no-compaction-entry");
			const started = deps.now();
			pending = { started, outcome: undefined, fallback: undefined };
			return started;
		};
		if (selected.kind !== "longhaul") {
			begin();
			return undefined;
		}
		// One pass at a time: a compaction that starts while another runs (a manual /compact during an automatic one)
		// waits for it, and is cancelled if that one stored a compaction, since it would close the same span again.
		const turn = inFlight.then(async () =>
			newestCompactionId(event.branchEntries) !== newestCompactionId(ctx.sessionManager.getBranch())
				? { cancel: true }
				: compactWithLonghaul(event, ctx, begin()),
		);
		inFlight = turn.then(afterTurn, afterTurn);
		return turn;
	});

	async function compactWithLonghaul(event: SessionBeforeCompactEvent, ctx: ExtensionContext, started: number) {
		const status = (text: string | undefined) => ctx.ui.setStatus(STATUS_KEY, text);
		passRunning = true;
		try {
			const { config } = loadConfig(deps.agentDir, ctx.cwd);
			const redactor = createRedactor(config.redact);
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
				{ model, noModelReason, takeWorld: deps.takeWorld, status, now: deps.now },
			);
			pending = { started, outcome, fallback: undefined };
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
			const { firstKeptEntryId, tokensBefore } = event.preparation;
			const summary = await redactRendered(redactor, outcome.summary);
			return { compaction: { summary, firstKeptEntryId, tokensBefore, details: outcome.details } };
		} catch (error) {
			status(undefined);
			const fields = errorFields(error, deps.home, deps.logConfig.stack);
			if (event.signal.aborted) {
				pending = undefined;
				deps.log.write({ event: "aborted", ...session(ctx), reason: "signal", ...fields });
				// Cancelled: pi's own compaction must not start on the aborted signal either.
				return { cancel: true };
			}
			pending = { started, outcome: undefined, fallback: fields.errorClass };
			deps.log.write({ event: "fallback", ...session(ctx), reason: "pass-threw", ...fields });
			ctx.ui.notify(`Longhaul: the pass failed (${fields.errorClass}); pi's own compaction takes over.`, "warning");
			return undefined;
		} finally {
			passRunning = false;
		}
	}

	pi.on("session_compact", (event, ctx) => {
		const done = pending;
		pending = undefined;
		const entry = event.compactionEntry;
		const outcome = event.fromExtension ? done?.outcome : undefined;
		deps.log.write({
			event: "compacted",
			...session(ctx),
			fromExtension: event.fromExtension,
			reason: outcome !== undefined ? "longhaul" : done?.fallback !== undefined ? "fallback" : "pi",
			span: outcome?.span ?? null,
			summaryChars: entry.summary.length,
			tokensBefore: Math.max(0, Math.round(entry.tokensBefore)),
		});
		if (selected.kind === "longhaul") appendAfterCompaction(event, ctx, done, outcome);
	});

	function appendAfterCompaction(
		event: SessionCompactEvent,
		ctx: ExtensionContext,
		done: Pending | undefined,
		outcome: PassOutcome | undefined,
	) {
		if (outcome !== undefined) {
			try {
				pi.appendEntry(SPAN_ENTRY_TYPE, { ...outcome.spanRecord, compactionId: event.compactionEntry.id });
			} catch (error) {
				deps.log.write({
					event: "span-record-failed",
					...session(ctx),
					span: outcome.span,
					...errorFields(error, deps.home, deps.logConfig.stack),
				});
			}
		}
		if (done === undefined || (outcome === undefined && done.fallback === undefined)) return;
		const ms = Math.max(0, deps.now() - done.started);
		const tokens = outcome?.calls.reduce((sum, c) => sum + Math.round(c.inputTokens + c.outputTokens), 0) ?? 0;
		const line =
			outcome === undefined
				? { stateFormat: STATE_FORMAT, fallback: done.fallback ?? "unknown" }
				: { stateFormat: STATE_FORMAT, ms, span: outcome.span, calls: outcome.calls.length, tokens };
		const fields = session(ctx);
		deps.defer(() => {
			try {
				pi.appendEntry(LINE_ENTRY_TYPE, line);
			} catch (error) {
				const failure = errorFields(error, deps.home, deps.logConfig.stack);
				deps.log.write({ event: "compaction-line-failed", ...fields, ...failure });
			}
		});
	}

	pi.on("context", (event, ctx) => {
		if (selected.kind !== "longhaul") return undefined;
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
		if (!stripped.has(compaction.id)) {
			stripped.add(compaction.id);
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

	registerTools(pi, (cwd) => createRedactor(loadConfig(deps.agentDir, cwd).config.redact));
	pi.registerCommand("longhaul", {
		description: "Show Longhaul's state of the branch in view",
		handler: async (_args, ctx) => {
			// No state is kept in memory: the branch in view is folded on every read, so a fork, a resume, a reload,
			// a /tree move or a note just remembered can never leave it stale.
			const view = stateView(foldEntries(ctx.sessionManager.getBranch()).state);
			ctx.ui.notify(
				await redactRendered(createRedactor(loadConfig(deps.agentDir, ctx.cwd).config.redact), view),
				"info",
			);
		},
	});
	pi.registerCommand("longhaul-report", {
		description: "A digest of Longhaul's newest log records, safe to paste into a public issue",
		handler: async (_args, ctx) => {
			const redactor = createRedactor(loadConfig(deps.agentDir, ctx.cwd).config.redact);
			ctx.ui.notify(await redactor.redact(logReport(deps.logConfig, deps.home)), "info");
		},
	});
}

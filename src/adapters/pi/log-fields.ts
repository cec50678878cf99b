import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { CapFit } from "../../projections/index.js";
import { openErrors, type State } from "../../reducers/index.js";
import type { LogRecordOf, LogSession } from "../log/index.js";
import type { PassOutcome } from "../pass/run-pass.js";

/** The session fields every log record carries. */
export function sessionFields(pi: ExtensionAPI, ctx: ExtensionContext): LogSession {
	const model = ctx.model === undefined ? null : `${ctx.model.provider}/${ctx.model.id}`;
	return {
		cwd: ctx.cwd,
		sessionId: ctx.sessionManager.getSessionId() ?? null,
		model,
		thinkingLevel: pi.getThinkingLevel(),
	};
}

function carried(state: State): LogRecordOf<"compaction">["carried"] {
	return {
		rules: state.rules.length,
		lifted: state.lifted.length,
		decisions: state.decisions.length,
		deadEnds: state.deadEnds.length,
		notes: state.notes.length,
		values: state.values.length,
		openErrors: openErrors(state).length,
		workLog: state.workLog.length,
	};
}

const round = (n: number) => Math.max(0, Math.round(n));

/** The `compaction` record of a finished pass: codes, counts and lengths, never message text. */
export function compactionRecord(
	session: LogSession,
	outcome: PassOutcome,
	extra: {
		tokensBefore: number;
		durationMs: number;
		configured: string | null;
		used: string;
		notUsed: string | null;
		reasoning: string | null;
		excerpts: boolean;
	},
): LogRecordOf<"compaction"> {
	const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
	for (const call of outcome.calls) {
		usage.input += round(call.inputTokens);
		usage.output += round(call.outputTokens);
	}
	const world = outcome.world.taken
		? { taken: true as const, ms: outcome.timings.world ?? 0 }
		: { taken: false as const, reason: outcome.world.reason };
	return {
		event: "compaction",
		...session,
		span: outcome.span,
		tokensBefore: round(extra.tokensBefore),
		summaryChars: outcome.summary.length,
		narrative: {
			mode: outcome.mode,
			kind: outcome.kind,
			calls: outcome.calls.length,
			accepted: outcome.accepted,
			dropped: { ...outcome.dropped },
			usage,
			timings: { ...outcome.timings },
			reasoning: extra.reasoning,
		},
		route: { configured: extra.configured, used: extra.used, notUsed: extra.notUsed },
		capFit: { ...outcome.capFit, cut: { ...outcome.capFit.cut } },
		world,
		carried: carried(outcome.before),
		durationMs: Math.max(0, extra.durationMs),
		// The count only, and only when there is one, so a pass without hidden text logs the record it always logged.
		...(outcome.taggedRules.length === 0 ? {} : { taggedRules: outcome.taggedRules.length }),
		...(extra.excerpts ? { excerpts: { rejectedQuotes: [...outcome.rejectedQuotes], prunedPaths: [] } } : {}),
	};
}

/** The notice of a summary over `summaryChars`: only the rules in force and Now are left, and they alone pass it. */
export function capNotice(capFit: CapFit): string | undefined {
	if (capFit.fits) return undefined;
	return (
		`Longhaul: the rules in force and Now alone take ${capFit.rulesAndNowChars} characters, over summaryChars ` +
		`(${capFit.limit}): the summary shows only them. Raise summaryChars, or lift rules you no longer need.`
	);
}

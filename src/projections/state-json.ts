import { fixedErrors, openErrors, type State } from "../reducers/index.js";
import { safeJson } from "./sanitize.js";
import { shownValues } from "./shown-values.js";

/**
 * The state as one JSON object (docs/contracts.md, The state as JSON), keys in a fixed order (`modelFailures` only when
 * there is one).
 */
export function stateObject(state: State): Record<string, unknown> {
	return {
		stateFormat: state.stateFormat,
		spans: state.spans,
		objective: state.objective,
		rules: state.rules.map((r) => ({ id: r.id, text: r.text, source: r.source })),
		lifted: state.lifted.map((r) => ({ id: r.id, text: r.text, source: r.source, by: r.by })),
		decisions: state.decisions.map((d) => ({ id: d.id, text: d.text, evidence: [...d.evidence] })),
		deadEnds: state.deadEnds.map((d) => ({ id: d.id, text: d.text, evidence: [...d.evidence] })),
		notes: state.notes.map((n) => ({ id: n.id, text: n.text })),
		values: shownValues(state).map((v) => ({ kind: v.kind, value: v.value, source: v.source, command: v.command })),
		openErrors: openErrors(state).map((e) => ({
			id: e.id,
			tool: e.tool,
			head: e.head,
			span: e.span,
			command: e.command,
		})),
		fixedErrors: fixedErrors(state).map((e) => ({
			id: e.id,
			tool: e.tool,
			head: e.head,
			span: e.span,
			command: e.command,
			fixedBy: e.fixedBy,
		})),
		// The session's own model failing is no error of the work; the key appears with the first failure, so a
		// state without one prints the bytes it always printed.
		...(state.modelFailures === undefined || state.modelFailures.length === 0
			? {}
			: { modelFailures: state.modelFailures.map((f) => ({ span: f.span, head: f.head })) }),
		commands: state.commands.map((c) => ({
			id: c.id,
			command: c.command,
			exitCode: c.exitCode,
			span: c.span,
			toolCallId: c.toolCallId,
			by: c.by,
		})),
		files: { read: [...state.files.read], modified: [...state.files.modified] },
		world: state.world === null ? null : { ...state.world },
		workLog: state.workLog.map((l) => ({ span: l.span, text: l.text })),
		now: state.now,
		closes: state.closes.map((c) => ({ span: c.span, kind: c.kind, unlabeled: [...c.unlabeled], reason: c.reason })),
		anomalies: state.anomalies.map((a) => ({ entry: a.entry, reason: a.reason })),
		foreign: state.foreign.map((f) => ({ entry: f.entry, summaryChars: f.summaryChars, fromHook: f.fromHook })),
	};
}

/** `state --json`: stable key order, terminal-safe, identical bytes for the same state. Exported for tests. */
export function stateJson(state: State): string {
	return `${safeJson(stateObject(state), 2)}\n`;
}

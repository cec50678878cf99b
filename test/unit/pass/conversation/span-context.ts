import type { AcceptContext } from "../../../../src/pass/accept/accept.js";
import { type ConversationStep, type Heard, next, type TurnsInput } from "../../../../src/pass/conversation/index.js";
import { ledgerEvents } from "../../../../src/pass/ledger/ledger.js";
import { derivedSpan, sliceSpan } from "../../../../src/pass/span/span.js";
import { foldEntries, initialState, type State } from "../../../../src/reducers/index.js";
import { applied } from "../../../support/applied.js";
import { assistant, bashCall, chain, toolResult, user } from "../../../support/entries.js";
import { ruleAdded } from "../../../support/events.js";
import { acceptContext, users } from "../../../support/users.js";

/** A span of three user messages: a rule, a request, a failing lint run left unfixed. */
const branch = chain([
	user("never add dependencies"),
	bashCall("t1", "npm run lint"),
	toolResult("t1", "lint failed\nCommand exited with code 2", true),
	user("fix the lint please"),
	user("next part"),
	assistant("on it"),
]);

function ledgerIds(state: State): Set<string> {
	return new Set([...state.commands.map((c) => c.id), ...state.errors.map((e) => e.id)]);
}

/** What a pass hands the conversation for that span: acceptance's context and the turns-mode input. */
export function spanContext(): { readonly ctx: AcceptContext; readonly input: TurnsInput } {
	const folded = foldEntries(branch);
	const slice = sliceSpan(folded, derivedSpan(folded.branch, "e6"), folded.state);
	const ledger = ledgerEvents(slice.messages, slice.span, folded.state);
	const state = applied(folded.state, ledger);
	const ctx: AcceptContext = {
		state,
		span: slice.span,
		toLabel: slice.users,
		branch: slice.branchUsers,
		turnText: slice.turnText,
		ledger: ledgerIds(state),
	};
	const input: TurnsInput = {
		ctx,
		stateText: "",
		ledger,
		world: { taken: false, reason: "not a git repository" },
		messages: slice.messages,
		messageRefs: slice.users.map((u) => u.ref),
		notes: [],
	};
	return { ctx, input };
}

/** A whole answer for that span in single mode. */
export const WHOLE_ANSWER = JSON.stringify({
	labels: [
		{ msg: "u1", label: "rule" },
		{ msg: "u2", label: "not a rule" },
		{ msg: "u3", label: "not a rule" },
	],
	decisions: [],
	deadEnds: [],
	narrative: "ran the lint; it fails",
	now: "fix the lint",
	values: [],
});

/** When the driver hears these, in order: the decider's step after the last (given-when-then's "when"). */
export function when(step: ConversationStep, ...heard: Heard[]): ConversationStep {
	let current = step;
	for (const h of heard) {
		if (current.kind !== "ask") throw new Error("the conversation ended before everything was heard");
		current = next(current.conversation, h);
	}
	return current;
}

const REPLACING = [
	"always indent with spaces",
	"from now on indent with tabs instead of spaces",
	"the rule about spaces no longer applies",
	"thanks",
];

/** Span 2 on a state holding u1's rule (R1): u2 replaces it, u3 withdraws it, u4 thanks; u2 to u4 to label. */
export function replacingSpan(): AcceptContext {
	return acceptContext(REPLACING, {
		state: applied(initialState, [ruleAdded(REPLACING[0] ?? "", "u1")]),
		span: 2,
		toLabel: users(REPLACING).slice(1),
		turnText: () => undefined,
	});
}

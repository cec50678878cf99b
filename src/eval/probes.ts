import type { Entry } from "../events/index.js";
import { messageOf, userMessages } from "../events/index.js";
import { ledgerOf } from "../pass/ledger/index.js";
import { evolveUnstored, initialState, openErrors } from "../reducers/index.js";
import type { FoundValue } from "./values.js";

// The probe `score` asks of a compacted context, and the reference the judge (judge.ts) compares the answers with,
// built from the transcript itself, the same for both compactors at the same point.

/** The question asked of each compacted context, as the next user message. */
export const PROBE = `Before we go on, answer from what you know of this session so far, in five sections:
1. RULES: every standing instruction I gave about how the work goes that still applies, quoted as closely as you can.
2. REQUIREMENTS: what I asked of the thing being built (how it behaves, its options, limits, outputs) that still holds.
3. VALUES: exact values from earlier tool output you may still need (ports, hashes, versions, timings, counts, file paths), verbatim.
4. OPEN ERRORS: errors or failing commands that are not resolved yet.
5. NEXT: the next step you would take.`;

const USER_CHARS = 400;
const MAX_USERS = 60;
const NEXT_CHARS = 600;

/** What a compaction point is judged against: the user's messages, the open errors, and what happened next. */
export interface Reference {
	readonly users: readonly { readonly msg: string; readonly text: string }[];
	readonly openErrors: readonly { readonly id: string; readonly head: string }[];
	readonly next: { readonly user: string; readonly reply: string } | null;
	/** The values facts finds reused after this compaction. */
	readonly values: readonly FoundValue[];
}

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}…`);

/** Commands that failed before the point and were not run again with success (the ledger's own rule). */
function openCommandErrors(before: readonly Entry[]): { id: string; head: string }[] {
	const messages = before.flatMap((entry) => {
		const message = messageOf(entry);
		return message === undefined ? [] : [message];
	});
	const state = evolveUnstored(initialState, ledgerOf(messages, 1, initialState).events);
	return openErrors(state)
		.filter((e) => e.command !== null)
		.map((e) => ({ id: e.id, head: e.head }));
}

function nextSteps(after: readonly Entry[]): Reference["next"] {
	let user: string | undefined;
	for (const entry of after) {
		const message = messageOf(entry);
		if (message?.role === "user" && user === undefined) user = message.text;
		else if (message?.role === "assistant" && user !== undefined && message.text.trim() !== "")
			return { user: cut(user, NEXT_CHARS), reply: cut(message.text, NEXT_CHARS) };
	}
	return user === undefined ? null : { user: cut(user, NEXT_CHARS), reply: "" };
}

/** The reference at the compaction `branch[at]`: from the entries before it and after it. */
export function referenceAt(branch: readonly Entry[], at: number, values: readonly FoundValue[]): Reference {
	const before = branch.slice(0, at);
	return {
		users: userMessages(before)
			.slice(-MAX_USERS)
			.map((u) => ({ msg: u.ref, text: cut(u.text, USER_CHARS) })),
		openErrors: openCommandErrors(before),
		next: nextSteps(branch.slice(at + 1)),
		values,
	};
}

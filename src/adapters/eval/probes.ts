import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { messageOf, userMessages } from "../../events/messages.js";
import type { Entry } from "../../events/transcript.js";
import { jsonObjectIn } from "../../pass/json-in-text.js";
import { ledgerOf } from "../../pass/ledger.js";
import { evolve } from "../../reducers/evolve.js";
import { initialState } from "../../reducers/state.js";
import { type FoundValue, holdsValue } from "./values.js";

// The probes `score` asks of a compacted context, what the judge compares the answers with, and how a verdict is
// read. The reference is built from the transcript itself, the same for both compactors at the same point.

/** The question asked of each compacted context, as the next user message. */
export const PROBE = `Before we go on, answer from what you know of this session so far, in four sections:
1. RULES: every standing instruction I gave that still applies, quoted as closely as you can.
2. VALUES: exact values from earlier tool output you may still need (ports, hashes, versions, timings, counts, file paths), verbatim.
3. OPEN ERRORS: errors or failing commands that are not resolved yet.
4. NEXT: the next step you would take.`;

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
	const state = evolve(
		initialState,
		ledgerOf(messages, 1, initialState).events.map((event) => ({ seq: null, event })),
	);
	return state.errors.filter((e) => e.fixedBy === null && e.command !== null).map((e) => ({ id: e.id, head: e.head }));
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

const JUDGE_SYSTEM = `You grade how well two assistants remember a coding session after their context was compacted. You get the
reference (the user's messages so far, the commands that still fail, and what actually happened next) and the two
answers, X and Y, to the same four questions. Answer with ONE JSON object, nothing else:
{"rulesInForce":["u3"],"X":{"rulesKept":["u3"],"errorsNamed":["E2"],"next":"yes"},"Y":{"rulesKept":[],"errorsNamed":[],"next":"no"}}
- rulesInForce: the user messages that give a standing instruction still in force at this point (not one-off requests, not ones a later message withdrew).
- rulesKept: those of rulesInForce the answer states (in its own words is fine).
- errorsNamed: the reference errors the answer names as unresolved.
- next: "yes" if the answer's next step is what happened next, "partly" if related, "no" otherwise.`;

/** The judge's prompt for one point: the reference and the two answers, X first. */
export function judgePrompt(reference: Reference, x: string, y: string): { system: string; user: string } {
	const user = JSON.stringify(
		{
			userMessages: reference.users,
			failingCommands: reference.openErrors,
			whatHappenedNext: reference.next,
			answers: { X: x, Y: y },
		},
		null,
		1,
	);
	return { system: JUDGE_SYSTEM, user };
}

const Next = t.keyof({ yes: null, partly: null, no: null });
const Graded = t.type({ rulesKept: t.array(t.string), errorsNamed: t.array(t.string), next: Next });
const VerdictCodec = t.type({ rulesInForce: t.array(t.string), X: Graded, Y: Graded });

/** One answer's grade at one point. */
export interface Grade {
	readonly rulesInForce: number;
	readonly rulesKept: number;
	readonly errorsOpen: number;
	readonly errorsNamed: number;
	readonly valuesReused: number;
	readonly valuesRecalled: number;
	readonly next: "yes" | "partly" | "no" | "unjudged";
}

function valuesRecalled(reference: Reference, answer: string): number {
	return reference.values.filter((v) => holdsValue(answer, v)).length;
}

/**
 * Reads the judge's verdict into a grade for X and for Y; only ids the reference holds count. An unreadable
 * verdict grades nothing but the values, which code checks.
 */
export function readVerdict(reference: Reference, verdict: string, x: string, y: string): readonly [Grade, Grade] {
	const users = new Set(reference.users.map((u) => u.msg));
	const errors = new Set(reference.openErrors.map((e) => e.id));
	const found = jsonObjectIn(verdict, ["rulesInForce"]);
	const decoded: E.Either<unknown, t.TypeOf<typeof VerdictCodec>> = E.isRight(found)
		? VerdictCodec.decode(found.right)
		: found;
	const base = (answer: string): Grade => ({
		rulesInForce: 0,
		rulesKept: 0,
		errorsOpen: reference.openErrors.length,
		errorsNamed: 0,
		valuesReused: reference.values.length,
		valuesRecalled: valuesRecalled(reference, answer),
		next: "unjudged",
	});
	if (E.isLeft(decoded)) return [base(x), base(y)];
	const inForce = new Set(decoded.right.rulesInForce.filter((u) => users.has(u)));
	const grade = (answer: string, g: t.TypeOf<typeof Graded>): Grade => ({
		...base(answer),
		rulesInForce: inForce.size,
		rulesKept: new Set(g.rulesKept.filter((u) => inForce.has(u))).size,
		errorsNamed: new Set(g.errorsNamed.filter((id) => errors.has(id))).size,
		next: g.next,
	});
	return [grade(x, decoded.right.X), grade(y, decoded.right.Y)];
}

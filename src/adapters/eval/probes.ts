import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { Entry } from "../../events/index.js";
import { messageOf, userMessages } from "../../events/index.js";
import { jsonObjectIn } from "../../pass/answer/index.js";
import { ledgerOf } from "../../pass/ledger/index.js";
import { RULE_DEFINITION } from "../../pass/prompt/index.js";
import { evolve, initialState, openErrors } from "../../reducers/index.js";
import { type FoundValue, holdsValue } from "./values.js";

// The probes `score` asks of a compacted context, what the judge compares the answers with, and how a verdict is
// read. The reference is built from the transcript itself, the same for both compactors at the same point.

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
	const state = evolve(
		initialState,
		ledgerOf(messages, 1, initialState).events.map((event) => ({ seq: null, event })),
	);
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

/** The names the answers get in the judge's prompt, in the order given; they rotate from point to point. */
export const ANSWER_LABELS = ["X", "Y", "Z"] as const;

// The definition of a rule is the one Longhaul's own prompt gives the summarizer (RULE_DEFINITION), so a rule the
// judge finds is what the labels were asked for.
const JUDGE_SYSTEM = `You grade how well assistants remember a coding session after their context was compacted. You get the
reference (the user's messages so far, the commands that still fail, and what actually happened next) and the
answers, labeled X, Y, Z, to the same five questions. Answer with ONE JSON object, nothing else:
{"rulesInForce":["u3"],"requirements":["u5"],"X":{"rulesKept":["u3"],"requirementsKept":["u5"],"errorsNamed":["E2"],"next":"yes"},"Y":{"rulesKept":[],"requirementsKept":[],"errorsNamed":[],"next":"no"},"Z":{"rulesKept":[],"requirementsKept":[],"errorsNamed":[],"next":"partly"}}
- rulesInForce: the user messages that give a rule still in force at this point (not one a later message withdrew).
  ${RULE_DEFINITION}
- requirements: the user messages that state a requirement for what is being built (how it behaves, an option, a
  limit, an output) that no later message dropped, and that are not in rulesInForce.
- rulesKept: those of rulesInForce the answer states (in its own words is fine).
- requirementsKept: those of requirements the answer states anywhere in it, in any section (its own words are fine).
- errorsNamed: the reference errors the answer names as unresolved.
- next: "yes" if the answer's next step is what happened next, "partly" if related, "no" otherwise.`;

/** The judge's prompt for one point: the reference and the answers, labeled in order. */
export function judgePrompt(reference: Reference, answers: readonly string[]): { system: string; user: string } {
	const labeled = Object.fromEntries(answers.map((answer, i) => [ANSWER_LABELS[i] ?? "", answer]));
	const user = JSON.stringify(
		{
			userMessages: reference.users,
			failingCommands: reference.openErrors,
			whatHappenedNext: reference.next,
			answers: labeled,
		},
		null,
		1,
	);
	return { system: JUDGE_SYSTEM, user };
}

const Ids = t.array(t.string);
const Next = t.keyof({ yes: null, partly: null, no: null });
const Graded = t.type({ rulesKept: Ids, requirementsKept: Ids, errorsNamed: Ids, next: Next });
const Found = t.type({ rulesInForce: Ids, requirements: Ids });

/** One answer's grade at one point; ids in the order of the user's messages. */
export interface Grade {
	readonly rulesInForce: readonly string[];
	readonly rulesKept: readonly string[];
	/** The user's requirements for what is being built, counted apart from the rules. */
	readonly requirements: readonly string[];
	readonly requirementsKept: readonly string[];
	readonly errorsOpen: number;
	readonly errorsNamed: number;
	readonly valuesReused: number;
	readonly valuesRecalled: number;
	readonly next: "yes" | "partly" | "no" | "unjudged";
}

function valuesRecalled(reference: Reference, answer: string): number {
	return reference.values.filter((v) => holdsValue(answer, v)).length;
}

/** An answer's grade with nothing judged: only the values, which code checks. */
export function ungraded(reference: Reference, answer: string): Grade {
	return {
		rulesInForce: [],
		rulesKept: [],
		requirements: [],
		requirementsKept: [],
		errorsOpen: reference.openErrors.length,
		errorsNamed: 0,
		valuesReused: reference.values.length,
		valuesRecalled: valuesRecalled(reference, answer),
		next: "unjudged",
	};
}

/**
 * Reads the judge's verdict into a grade for each answer, in the order given; only ids the reference holds count,
 * and a kept rule or requirement only when the judge found it at this point. An unreadable verdict grades nothing
 * but the values, which code checks.
 */
export function readVerdict(reference: Reference, verdict: string, answers: readonly string[]): readonly Grade[] {
	const errors = new Set(reference.openErrors.map((e) => e.id));
	const inOrder = (ids: readonly string[], among: readonly string[]) => {
		const given = new Set(ids);
		return among.filter((id) => given.has(id));
	};
	const users = reference.users.map((u) => u.msg);
	const found = jsonObjectIn(verdict, ["rulesInForce"]);
	const decoded: E.Either<unknown, t.TypeOf<typeof Found>> = E.isRight(found) ? Found.decode(found.right) : found;
	const graded = (i: number): t.TypeOf<typeof Graded> | undefined => {
		const g = E.isRight(found) ? Graded.decode(found.right[ANSWER_LABELS[i] ?? ""]) : found;
		return E.isRight(g) ? g.right : undefined;
	};
	if (E.isLeft(decoded)) return answers.map((answer) => ungraded(reference, answer));
	const rules = inOrder(decoded.right.rulesInForce, users);
	const requirements = inOrder(decoded.right.requirements, users).filter((u) => !rules.includes(u));
	return answers.map((answer, i): Grade => {
		const g = graded(i);
		if (g === undefined) return ungraded(reference, answer);
		return {
			...ungraded(reference, answer),
			rulesInForce: rules,
			rulesKept: inOrder(g.rulesKept, rules),
			requirements,
			requirementsKept: inOrder(g.requirementsKept, requirements),
			errorsNamed: new Set(g.errorsNamed.filter((id) => errors.has(id))).size,
			next: g.next,
		};
	});
}

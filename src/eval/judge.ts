import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { jsonObjectIn } from "../pass/answer/index.js";
import { RULE_DEFINITION } from "../pass/prompt/index.js";
import type { Reference } from "./probes.js";
import { holdsValue } from "./values.js";

// The judge of `score`: one model call per compaction point gets the reference and the answers, labeled X, Y, Z,
// and its verdict is read into a grade for each answer; values are checked by code, not by the judge.

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

import * as t from "io-ts";

/** A codec that takes a value as it is when `is` accepts it: one predicate for both `is` and `validate`. */
function checked<A>(name: string, is: (u: unknown) => u is A): t.Type<A, A, unknown> {
	return new t.Type<A, A, unknown>(name, is, (u, c) => (is(u) ? t.success(u) : t.failure(u, c)), t.identity);
}

/** A string codec that accepts only what matches `pattern`; the name shows in decode errors. */
function patterned(pattern: RegExp, name: string): t.Type<string, string, unknown> {
	return checked(name, (u): u is string => typeof u === "string" && pattern.test(u));
}

/** `u<n>`: the n-th user message on the branch, counting from 1. */
export const UserRef = patterned(/^u[1-9][0-9]{0,8}$/, "UserRef");
/** `R<n>`: a rule of the state. */
export const RuleId = patterned(/^R[1-9][0-9]{0,8}$/, "RuleId");
/** `D<n>`: a decision of the state. */
export const DecisionId = patterned(/^D[1-9][0-9]{0,8}$/, "DecisionId");
/** `X<n>`: a dead end of the state. */
export const DeadEndId = patterned(/^X[1-9][0-9]{0,8}$/, "DeadEndId");
/** `N<n>`: a note of the state. */
export const NoteId = patterned(/^N[1-9][0-9]{0,8}$/, "NoteId");
/** `C<n>`: a command of the ledger. */
export const CommandId = patterned(/^C[1-9][0-9]{0,8}$/, "CommandId");
/** `E<n>`: an error of the ledger. */
export const ErrorId = patterned(/^E[1-9][0-9]{0,8}$/, "ErrorId");
/** An id a decision or dead end may cite as evidence: a command or an error. */
export const EvidenceId = patterned(/^[CE][1-9][0-9]{0,8}$/, "EvidenceId");
/** Where a value was seen: the user turn `u<n>` that holds it, or the command `C<n>` that printed it. */
export const ValueSource = patterned(/^[uC][1-9][0-9]{0,8}$/, "ValueSource");

/** A positive span or sequence number. */
export const Positive = checked(
	"Positive",
	(u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 1,
);

/** The number in an id such as `R12` or `u7`. */
export function idNumber(id: string): number {
	return Number.parseInt(id.slice(1), 10);
}

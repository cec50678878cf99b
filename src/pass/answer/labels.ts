import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";

/** A target a lift may name: a rule of the state (`R<n>`) or the message that gave a rule (`u<n>`). */
export type Target = string;

/**
 * A label the model gave a user message. `rule` with `lifts` is a rule that replaces or narrows the named ones;
 * `one-off` (takeover) reads like `not a rule`.
 */
export type Label =
	| { readonly kind: "rule"; readonly lifts: readonly Target[] }
	| { readonly kind: "not-rule" }
	| { readonly kind: "one-off" }
	| { readonly kind: "lifts"; readonly targets: readonly Target[] };

/**
 * At most this many targets in one label: a message that withdraws more is asked to say so again.
 * Exported for tests.
 */
export const MAX_TARGETS = 10;

/** A target as `parseLabel` reads it, in lower case. */
const TARGET = /^[ru][1-9][0-9]{0,8}$/;
const NOT_A_RULE = /^not[\s-]+a[\s-]+rule$/;
const ONE_OFF = /^one[\s-]?off$/;
/** What comes before the targets of a lift, and of a rule that lifts. */
const LIFTS = /^lifts?\s+/;
const RULE_AND_LIFTS = /^rule\s*(?:and|&|\+|,)\s*lifts?\s+/;

/** The form every label is written in, for the span record and for a question. */
export const LABEL_FORMS = "`rule`, `not a rule`, `one-off`, `lifts R<n>`, `lifts u<n>`, `rule and lifts R<n>`";

/** `r2` is R2, `u5` is u5. */
function target(text: string): Target | undefined {
	if (!TARGET.test(text)) return undefined;
	return text.startsWith("r") ? `R${text.slice(1)}` : text;
}

/** Reads `r1, r6`, `u5 and r6` (lower case); every part must be a target. */
function targets(text: string): Either<string, readonly Target[]> {
	const parts = text.split(/\s*(?:,|;|\band\b|&)\s*/).filter((part) => part !== "");
	const found: Target[] = [];
	for (const part of parts) {
		const id = target(part);
		if (id === undefined) return E.left(`\`${part}\` is not R<n> or u<n>`);
		if (!found.includes(id)) found.push(id);
	}
	if (found.length === 0) return E.left("no target named");
	if (found.length > MAX_TARGETS) return E.left(`more than ${MAX_TARGETS} targets`);
	return E.right(found);
}

/** Parses a label, in any case and spacing; the reason names what is wrong. */
export function parseLabel(text: string): Either<string, Label> {
	const label = text.trim().replace(/\s+/g, " ").toLowerCase();
	if (label === "rule") return E.right({ kind: "rule", lifts: [] });
	if (NOT_A_RULE.test(label)) return E.right({ kind: "not-rule" });
	if (ONE_OFF.test(label)) return E.right({ kind: "one-off" });
	const ruleAndLifts = RULE_AND_LIFTS.exec(label);
	if (ruleAndLifts !== null) {
		const named = targets(label.slice(ruleAndLifts[0].length));
		return E.map((lifts: readonly Target[]) => ({ kind: "rule", lifts }) as const)(named);
	}
	const lifts = LIFTS.exec(label);
	if (lifts !== null) {
		const named = targets(label.slice(lifts[0].length));
		return E.map((found: readonly Target[]) => ({ kind: "lifts", targets: found }) as const)(named);
	}
	return E.left(`\`${text.trim().slice(0, 60)}\` is not one of ${LABEL_FORMS}`);
}

/** Writes a label in its one canonical form. */
export function formatLabel(label: Label): string {
	switch (label.kind) {
		case "rule":
			return label.lifts.length === 0 ? "rule" : `rule and lifts ${label.lifts.join(", ")}`;
		case "not-rule":
			return "not a rule";
		case "one-off":
			return "one-off";
		case "lifts":
			return `lifts ${label.targets.join(", ")}`;
	}
}

/** The targets a label names for lifting, whatever its kind. */
export function liftTargets(label: Label): readonly Target[] {
	if (label.kind === "rule") return label.lifts;
	if (label.kind === "lifts") return label.targets;
	return [];
}

/** The same label with more targets to lift; a rule keeps being a rule, a lift stays a lift. */
export function withTargets(label: Label, added: readonly Target[]): Label {
	const merge = (old: readonly Target[]) => [...old, ...added.filter((t) => !old.includes(t))];
	if (label.kind === "rule") return { kind: "rule", lifts: merge(label.lifts) };
	if (label.kind === "lifts") return { kind: "lifts", targets: merge(label.targets) };
	return label;
}

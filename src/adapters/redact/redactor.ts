import { secretSpans } from "../../pass/verify/secrets.js";
import { candidateLines, LINT_TRIGGER, RULE_TRIGGER } from "./prefilter.js";

/** Replaces secrets in text that leaves Longhaul (the summary, the prompt, recall, the views, the log's excerpts). */
export interface Redactor {
	/** Each text with every secret in any of them replaced by a marker naming its kind; one lint for the batch. */
	readonly redactAll: (texts: readonly string[]) => Promise<string[]>;
	/** One text, redacted. */
	readonly redact: (text: string) => Promise<string>;
}

/** The marker a secret of `kind` becomes: its kind only, never a hash or a piece of it. */
export function marker(kind: string): string {
	return `[redacted: ${kind}]`;
}

/** Shorter pieces are not replaced everywhere they stand: they would take ordinary words with them. */
const MIN_SECRET_CHARS = 4;

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Every secret in the texts, by its text, with its kind: secretlint's first, then Longhaul's own rules. */
async function secretsIn(texts: readonly string[]): Promise<Map<string, string>> {
	const secrets = new Map<string, string>();
	const add = (text: string, kind: string) => {
		if (text.length >= MIN_SECRET_CHARS && !secrets.has(text)) secrets.set(text, kind);
	};
	const lint = candidateLines(texts, LINT_TRIGGER);
	// secretlint is imported only when a line may hold what it finds: loading it costs more than most lints.
	if (lint !== "")
		for (const found of await (await import("./secretlint.js")).lintSecrets(lint)) add(found.text, found.kind);
	const lines = candidateLines(texts, RULE_TRIGGER);
	for (const span of secretSpans(lines)) add(lines.slice(span.start, span.end), span.kind);
	return secrets;
}

/** The texts with every occurrence of each secret replaced, the longest first so a token goes before its pieces. */
function scrub(texts: readonly string[], secrets: ReadonlyMap<string, string>): string[] {
	if (secrets.size === 0) return [...texts];
	const needles = [...secrets.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
	const pattern = new RegExp(needles.join("|"), "g");
	return texts.map((text) => text.replace(pattern, (found) => marker(secrets.get(found) ?? "secret")));
}

/**
 * The redactor: secretlint's recommended preset plus Longhaul's own rules (named assignments, vendor prefixes and
 * private keys cut short, passwords in URLs, pieces beside a cut mark). Off only when the user set `redact: false`.
 */
export function createRedactor(enabled: boolean): Redactor {
	const redactAll = async (texts: readonly string[]): Promise<string[]> =>
		enabled ? scrub(texts, await secretsIn(texts)) : [...texts];
	return {
		redactAll,
		redact: async (text) => (await redactAll([text]))[0] ?? text,
	};
}

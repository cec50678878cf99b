/**
 * Phrases that say a message withdraws something. A permission ("you may push to main now", "go ahead") is not one:
 * it is a one-off, and a rule is retired only by saying it no longer holds. "instead of" and "rather than" count
 * only when a word of the rule follows them in the same clause (see `INSTEAD`).
 */
export const WITHDRAWAL_PHRASES: readonly RegExp[] = [
	/\blift(?:ed|s|ing)?\b/,
	/\bno longer\b(?!\s+than\b)/,
	/\b(?:doesn't|does not|don't|do not|no longer|not) (?:apply|applies|hold|holds|stand|stands|matter|matters)\b/,
	/\bnot applicable\b/,
	/\b(?:withdraw|withdraws|withdrawn|withdrew|revoke|revoked|revokes|rescind|rescinded|retract|retracted)\b/,
	/\b(?:cancel|cancels|cancelled|canceled)\b/,
	/\b(?:supersede|supersedes|superseded|obsolete|overridden)\b/,
	/\bnever ?mind\b/,
	/(?<!\b(?:don't|do not|never|not)\s+)\bforget\b/,
	/\bscratch that\b/,
	/\bdisregard\b/,
	/\b(?:no|there's no|there is no) need (?:to|for)\b/,
	/\b(?:don't|do not|doesn't|does not|no longer) (?:need|have) to\b/,
	/\bnot (?:needed|required|necessary)\b/,
	/\b(?:allowed|fine|ok|okay) again\b/,
	/\bdrop (?:the|that|this) (?:rule|requirement|restriction|constraint)\b/,
];

/** "instead of" / "rather than" before the rule's own words in one clause. */
const INSTEAD = /\b(?:instead of|rather than)\b([^.;:!?\n]*)/g;

/** Words too common to tie a withdrawal to a rule; rule vocabulary itself ("rule", "never", "use") is among them. */
const STOP_WORDS = new Set(
	(
		"a an the and or but nor so yet if then than that this these those there here it its it's is are was were be " +
		"been being am do does did doing done don't doesn't didn't not no any all some each every other more most " +
		"less least very too also just only even still again now then once ever never always must should shall " +
		"will would can could may might need needs have has had having get gets got make makes made use uses used " +
		"using to of in on at by for from with without about into onto over under as up down out off via per i me " +
		"my we us our you your he she they them their what which who whom whose when where why how please ok okay " +
		"fine yes rule rules apply applies applied lift lifted lifts longer instead rather anymore thing things " +
		"stuff one ones let lets like want wants going go"
	).split(" "),
);

/** A word reduced so that "tabs" meets "tab", "dependencies" meets "dependency" and "user's" meets "user". */
function stem(word: string): string {
	const base = word.replace(/['\u2019]s$/, "");
	if (base.length > 4 && base.endsWith("ies")) return `${base.slice(0, -3)}y`;
	return base.length > 3 && base.endsWith("s") && !base.endsWith("ss") ? base.slice(0, -1) : base;
}

/** The words of a text that can tie a withdrawal to a rule: lowercased, stemmed, stop words left out. */
export function contentWords(text: string): Set<string> {
	const words = new Set<string>();
	for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+(?:['\u2019][\p{L}]+)?/gu) ?? []) {
		const word = raw.replace(/\u2019/g, "'");
		if (STOP_WORDS.has(word)) continue;
		const stemmed = stem(word);
		if (!STOP_WORDS.has(stemmed) && (stemmed.length > 1 || /\p{N}/u.test(stemmed))) words.add(stemmed);
	}
	return words;
}

function intersects(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
	for (const word of a) if (b.has(word)) return true;
	return false;
}

/** What the lift check needs from a text in the user's own words, read once and checked against many rules. */
export interface Withdrawing {
	/** It holds a withdrawal phrase. */
	readonly phrase: boolean;
	/** The content words after each "instead of" / "rather than", up to the end of its clause. */
	readonly instead: readonly ReadonlySet<string>[];
	/** All its content words. */
	readonly words: ReadonlySet<string>;
}

/** Reads a text already reduced to the user's own words for the lift check. */
export function readWithdrawal(own: string): Withdrawing {
	const text = own.toLowerCase().replace(/\u2019/g, "'");
	return {
		phrase: WITHDRAWAL_PHRASES.some((phrase) => phrase.test(text)),
		instead: [...text.matchAll(INSTEAD)].map((match) => contentWords(match[1] ?? "")),
		words: contentWords(text),
	};
}

/**
 * The lift check: the text says it withdraws something (or puts something "instead of" the rule's own words), and
 * shares a word with the rule.
 */
export function withdrawsWords(text: Withdrawing, rule: ReadonlySet<string>): boolean {
	return (text.phrase || text.instead.some((clause) => intersects(clause, rule))) && intersects(text.words, rule);
}

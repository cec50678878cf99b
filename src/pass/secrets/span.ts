/**
 * A stretch of text that holds a secret, and the kind its marker names. Finders write its fields out
 * (`{ start: v.start, end: v.end, kind }`): spread from another object, on text dense with finds, the netrc finder
 * took 2.5 times as long (docs/evaluation.md, Redaction's cost and its holds).
 */
export interface SecretSpan {
	readonly start: number;
	readonly end: number;
	readonly kind: string;
}

/**
 * A finder read in steps: it pushes what it finds in `text` into `into`, one anchor a step, so a caller may give the
 * thread back between steps on a long line that cannot be cut. The steps together read the text once.
 */
export type Finder = (text: string, into: SecretSpan[]) => Steps;

/** A finder's steps: each `next()` reads one anchor. */
export type Steps = Generator<void, void, undefined>;

/** Every step of `find` taken at once: what it finds in `text`, in no particular order. */
export function findAll(find: Finder, text: string): SecretSpan[] {
	const into: SecretSpan[] = [];
	for (const steps = find(text, into); !steps.next().done; );
	return into;
}

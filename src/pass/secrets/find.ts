// Every secret in a text, found on the text as a reader sees it (src/pass/secrets/view.ts) and on its reading with
// the terminal escapes kept, and placed back where it stands in the text itself.

import { assignedKind } from "./names.js";
import { type Finder, findAll, type SecretSpan } from "./span.js";
import { STRUCTURE_FINDERS } from "./structures.js";
import { vendorSpans, vendorTokens } from "./vendors.js";
import { originalRange, readEscapesKept, readView, type View } from "./view.js";

/** Every finder of a view's text: vendor tokens, then the structures. */
export const FINDERS: readonly Finder[] = [vendorTokens, ...STRUCTURE_FINDERS];

/** The spans found in a view's text, in the view's places. */
function viewSpans(text: string): SecretSpan[] {
	return FINDERS.flatMap((find) => findAll(find, text));
}

/** A view's spans placed in the original text. */
export function placed(view: View, spans: readonly SecretSpan[]): SecretSpan[] {
	return spans.map((s) => {
		const { start, end } = originalRange(view, s.start, s.end);
		return { start, end, kind: s.kind };
	});
}

/**
 * Every stretch of a whole `text` taken for a secret, in no particular order; spans may overlap. Found in its view
 * (escapes decoded, invisible characters dropped), in its reading with the terminal escapes kept where one may have
 * taken text (an escape's final byte may be a name's first letter: `ESC p` takes the `p` of `password=`), and,
 * where the view differs, its vendor tokens as it stands too (an escape's final byte may be a token's first
 * letter). Linear in the text. Exported for tests.
 */
export function secretSpans(text: string): SecretSpan[] {
	const view = readView(text);
	const found = placed(view, viewSpans(view.text));
	if (view.origin === undefined) return found;
	const kept = readEscapesKept(text);
	return [...found, ...(kept === undefined ? [] : placed(kept, viewSpans(kept.text))), ...vendorSpans(text)];
}

/**
 * The kind of secret a value's text is, or undefined: its text alone, or read as the assignment its name makes
 * (`AWS secret access key` = `wJalr…` is a secret though the value alone looks like any random string).
 */
export function secretValueKind(name: string, value: string): string | undefined {
	const alone = secretSpans(value)[0];
	if (alone !== undefined) return alone.kind;
	return assignedKind(name.trim().replace(/\s+/g, "_"), value.trim());
}

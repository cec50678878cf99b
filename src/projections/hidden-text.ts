import type { State } from "../reducers/index.js";
import { cutWhole, sanitize } from "./sanitize.js";

// Unicode tag characters (U+E0000-U+E007F) spell ASCII that no font draws: a message can carry a sentence the model
// reads and the user never saw. The user did send it, so a rule holding them is recorded whole (nothing the user
// typed is lost) and shown escaped; this names such a rule to the user, with what the hidden text says.

/** A rule a pass recorded whose words hold tag characters. */
export interface TaggedRule {
	readonly id: string;
	readonly source: string;
	/** How many tag characters its words hold. */
	readonly tags: number;
	/** The ASCII its tag characters spell (U+E0020-U+E007E), the other tags left out. */
	readonly reads: string;
}

/** Tag characters are one surrogate pair each: U+DB40 then U+DC00-U+DC7F. */
const TAG_HIGH = 0xdb40;
const isTagLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdc7f;

/** The tag characters of `text`, counted, and the ASCII they spell; one pass over the text. */
function tagsOf(text: string): { readonly tags: number; readonly reads: string } {
	let tags = 0;
	let reads = "";
	for (let i = 0; i + 1 < text.length; i++) {
		const low = text.charCodeAt(i + 1);
		if (text.charCodeAt(i) !== TAG_HIGH || !isTagLow(low)) continue;
		tags++;
		const ascii = low - 0xdc00;
		if (ascii >= 0x20 && ascii <= 0x7e) reads += String.fromCharCode(ascii);
		i++;
	}
	return { tags, reads };
}

/** The rules in force after a pass, not in the state before it, whose words hold tag characters. */
export function taggedRules(before: State, after: State): TaggedRule[] {
	const known = new Set([...before.rules, ...before.lifted].map((r) => r.id));
	return after.rules.flatMap((rule) => {
		if (known.has(rule.id)) return [];
		const { tags, reads } = tagsOf(rule.text);
		return tags === 0 ? [] : [{ id: rule.id, source: rule.source, tags, reads }];
	});
}

/** How much of the hidden text a notice quotes. */
const READS_CHARS = 120;

/**
 * The notice of rules recorded with hidden text: each rule, its message, how many tag characters and what they spell,
 * terminal-safe; undefined when there is none.
 */
export function taggedRulesNotice(rules: readonly TaggedRule[]): string | undefined {
	if (rules.length === 0) return undefined;
	const each = rules.map((r) => {
		const reads = r.reads === "" ? "" : `, which read "${cutWhole(r.reads, READS_CHARS)}"`;
		return `${r.id} (${r.source}) holds ${r.tags} invisible Unicode tag ${r.tags === 1 ? "character" : "characters"}${reads}`;
	});
	return sanitize(
		`Longhaul: ${each.join("; ")}. The model reads them and you cannot see them; the rule is kept as sent and ` +
			"shows them escaped (\\u{e00..}) in the summary and /longhaul. Lift it if those are not your words.",
	);
}

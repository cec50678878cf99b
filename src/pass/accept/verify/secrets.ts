// Secrets found by pattern, without secretlint: the check a recorded value must pass (pure, synchronous), and the
// rules the redactor (src/adapters/redact) adds to secretlint's: named assignments of secret-looking values, tokens
// with a vendor prefix, private keys, passwords in URLs. Each is found on a whole text, never guessed from a piece a
// cut left: the adapters redact a text before anything cuts it.

import type { Region } from "./words.js";

/** A stretch of text that holds a secret, and the kind its marker names. */
export interface SecretSpan extends Region {
	readonly kind: string;
}

/** Vendor tokens by their prefix, matched whole or cut short (a cut piece is still theirs). */
const PREFIXED: readonly { readonly kind: string; readonly body: RegExp }[] = [
	{ kind: "github token", body: /(?:gh[pousr]_|github_pat_)[A-Za-z0-9_]{4,}/y },
	{ kind: "anthropic key", body: /sk-ant-[A-Za-z0-9_-]{4,}/y },
	{
		kind: "openai key",
		body: /sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{4,}|(?=[A-Za-z0-9]{0,200}\d)[A-Za-z0-9]{16,})/y,
	},
	{ kind: "slack token", body: /(?:xox[abeoprs]|xapp)-[A-Za-z0-9-]{4,}/y },
	{ kind: "slack webhook", body: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]{4,}/y },
	{ kind: "npm token", body: /npm_(?=[A-Za-z0-9]{0,40}[0-9A-Z])[A-Za-z0-9]{8,}/y },
	{ kind: "linear token", body: /lin_api_[A-Za-z0-9_]{4,}/y },
	{ kind: "shopify token", body: /shp(?:pa|ca|at|ss)_[A-Za-z0-9]{4,}/y },
	{ kind: "sendgrid key", body: /SG\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*)?/y },
	{ kind: "1password token", body: /ops_ey[A-Za-z0-9+/=]{4,}/y },
	{ kind: "aws access key id", body: /(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{8,16}/y },
	// Kinds secretlint's recommended preset does not know (the corpus in bench/redact-corpus.ts shows them through).
	{ kind: "gitlab token", body: /gl(?:pat|dt|ptt|rt|soat|ft|imt|agent)-[A-Za-z0-9_-]{20,}/y },
	{ kind: "stripe key", body: /[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/y },
	{ kind: "google api key", body: /AIza[A-Za-z0-9_-]{35}/y },
	{ kind: "huggingface token", body: /hf_[A-Za-z]{30,}/y },
	{ kind: "digitalocean token", body: /do[opr]_v1_[a-f0-9]{64}/y },
	{ kind: "docker token", body: /dckr_pat_[A-Za-z0-9_-]{20,}/y },
	{ kind: "pypi token", body: /pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/y },
	{ kind: "jwt", body: /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/y },
];

/** Where a vendor token may start: found first, so the bodies are only tried there. */
const PREFIX_START =
	/gh[pousr]_|github_pat_|sk-|xox[abeoprs]-|xapp-|https:\/\/hooks\.slack|npm_|lin_api_|shp(?:pa|ca|at|ss)_|SG\.|ops_ey|A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|gl(?:pat|dt|ptt|rt|soat|ft|imt|agent)-|[sr]k_(?:live|test)_|AIza|hf_|do[opr]_v1_|dckr_pat_|pypi-|eyJ/g;

/**
 * A terminal escape sequence, raw (ESC or C1 CSI, then a CSI's parameters and final byte, or an OSC's text) or as
 * text (`\x1b[`, `\u001b[`, `\033[`, `\e[`, its backslash doubled inside JSON), as `sanitize` and logs show it.
 */
const ESCAPE =
	/(?:[\u001b\u009b]|\\+(?:x1[bB]|u001[bB]|u009[bB]|x9[bB]|033|e(?=[[\]])))(?:\[[0-?]*[ -/]*[@-~]?|\][^\u0007\u001b\\]*\u0007?|[@-Z^_])?/g;

/**
 * The text with every terminal escape sequence blanked, character for character (so a span found in it stands at the
 * same place in the text): a colour code is no word a token can hide behind.
 */
export function withoutEscapes(text: string): string {
	return text.replace(ESCAPE, (found) => " ".repeat(found.length));
}

/** Not inside a longer word; a JSON escape (`\n`) before it counts as a break, as in a prompt's encoded lines. */
function startsWord(text: string, at: number): boolean {
	return !/[A-Za-z0-9]/.test(text.charAt(at - 1)) || /\\[nrt]$/.test(text.slice(Math.max(0, at - 2), at));
}

/** The vendor token starting at `at`, if one does and does not run on into a longer word. */
function prefixedAt(text: string, at: number): SecretSpan | undefined {
	if (!startsWord(text, at)) return undefined;
	for (const { kind, body } of PREFIXED) {
		body.lastIndex = at;
		const m = body.exec(text);
		if (m !== null && !/[A-Za-z0-9_]/.test(text.charAt(at + m[0].length)))
			return { start: at, end: at + m[0].length, kind };
	}
	return undefined;
}

/** A private key block, with or without its end line (a cut keeps only the start). */
const PRIVATE_KEY =
	/-----BEGIN[ A-Z]{0,20}PRIVATE KEY(?: BLOCK)?-----[A-Za-z0-9+/=\s\\]*(?:-----END[ A-Z]{0,20}PRIVATE KEY(?: BLOCK)?-----)?/g;
/** A private key's end line, where a cut kept only the end of the block. */
const PRIVATE_KEY_END = /-----END[ A-Z]{0,20}PRIVATE KEY(?: BLOCK)?-----/g;
/** A key block's characters: base64, blanks, and the backslashes of JSON escapes. */
const KEY_BLOCK_CHAR = /[A-Za-z0-9+/=\s\\]/;
/** The most characters of a key block read back from its end line (secretlint's own bound). */
const KEY_BLOCK_CHARS = 10_000;

/** `scheme://user:password@`, or a password a cut left at the end of a line; only the password is taken. */
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@"'\\]{1,256}:(?<pass>[^\s@/"'\\]{4,256})(?:@|(?=\s*$))/gm;

/**
 * The end of a name that may hold a secret and what follows it: `NAME=value`, `NAME: value`, `"name": "value"` (also
 * JSON-escaped, as inside a prompt line), `Authorization: Bearer value`. Found by its key word, so the scan is fast;
 * the whole name is read back in code. The value is read ahead, not taken: an assignment inside it is still found.
 */
const ASSIGNMENT =
	/(?:key|token|secret|passw(?:or)?d|passphrase|pwd|auth(?:orization)?|credentials?)(?:\\?["'])?\s{0,3}(?::=|=>|=|:)\s{0,24}(?:\\?["'])?(?:(?:Bearer|Basic|token)\s+)?(?=(?<value>[^\s"'`,;<>(){}[\]\\…]{4,512}))/gi;
const NAME_CHAR = /[A-Za-z0-9_.-]/;

/** Names whose value is a secret however it looks: a password, a token, a secret, an API or private key. */
const STRONG_NAME =
	/(?:secret|passw(?:or)?d|passphrase|pwd|token|authorization|auth|credentials?|(?:api|access|private|client|signing|encryption|master|session)[_.-]?key)$|secret/i;
/** Names whose value is a secret when it looks random: any `*_KEY`. */
const KEY_NAME = /(?:^|[_.-]|[a-z])(?:key|KEY|Key)$/;

/** Shannon entropy in bits per character. */
function entropy(text: string): number {
	const counts = new Map<string, number>();
	for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
	let bits = 0;
	for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
	return bits;
}

function classes(text: string): number {
	return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((c) => c.test(text)).length;
}

/**
 * A reference to a secret kept elsewhere (`$TOKEN`, `${{ secrets.X }}`, `process.env.X`), a mask, an elided example
 * (`sk-ant-...`), or our marker.
 */
function isPlaceholder(value: string): boolean {
	return (
		/^(?:\$|%|\[redacted|process\.env|os\.environ|env\.|<)|\.\.\./.test(value) ||
		/^(.)\1*$/.test(value) ||
		/^[*xX.•-]+$/.test(value)
	);
}

/** Long and random-looking: the mark of a generated key, not a word or a path. */
function looksRandom(value: string): boolean {
	return value.length >= 16 && classes(value) >= 2 && entropy(value) >= (/\d/.test(value) ? 3 : 3.5);
}

/**
 * Code that names a secret without holding one: a member path (`config.apiKey`, `this.token`), or a word of letters
 * alone that does not look random (`getApiKey`, `TokenType`, `string`). A call is told apart by the `(` after it.
 */
function isCodeName(value: string): boolean {
	return (
		/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) || (/^[A-Za-z_$]+$/.test(value) && !looksRandom(value))
	);
}

/** The kind a secret-holding name gives its value, or undefined when the value is not one. */
function assignedKind(name: string, value: string): string | undefined {
	if (isPlaceholder(value) || /^\d+$/.test(value)) return undefined;
	// A password may be words; a key or token of letters alone that is not random is code's name for one.
	if (isCodeName(value) && !/passw|passphrase|pwd/i.test(name)) return undefined;
	const strong = STRONG_NAME.test(name);
	if (!strong && !(KEY_NAME.test(name) && looksRandom(value))) return undefined;
	if (strong && (value.length < 8 || (classes(value) < 2 && !looksRandom(value)))) return undefined;
	const lower = name.toLowerCase();
	if (/passw|passphrase|pwd/.test(lower)) return "password";
	if (/token|auth/.test(lower)) return "token";
	if (/secret/.test(lower)) return "secret";
	return /key$/.test(lower) ? "key" : "credential";
}

/** How far from `from` the characters `is` accepts run, stepping by `step` (-1 backwards), at most `max`. */
function runLength(text: string, from: number, step: 1 | -1, is: RegExp, max: number): number {
	let n = 0;
	for (let i = from; i >= 0 && i < text.length && n < max && is.test(text.charAt(i)); i += step) n++;
	return n;
}

/** The end of private key blocks whose start a cut took away: the key characters before each end line. */
function keyBlockEnds(text: string): SecretSpan[] {
	return [...text.matchAll(PRIVATE_KEY_END)].map((m) => {
		const back = runLength(text, m.index - 1, -1, KEY_BLOCK_CHAR, KEY_BLOCK_CHARS);
		return { start: m.index - back, end: m.index + m[0].length, kind: "private key" };
	});
}

/** The vendor tokens in `text`. */
function prefixedSpans(text: string): SecretSpan[] {
	const spans: SecretSpan[] = [];
	for (const m of text.matchAll(PREFIX_START)) {
		const span = prefixedAt(text, m.index);
		if (span !== undefined) spans.push(span);
	}
	return spans;
}

/** The spans the patterns find in `text` as it stands. */
function spansIn(text: string): SecretSpan[] {
	const spans = prefixedSpans(text);
	for (const m of text.matchAll(PRIVATE_KEY))
		spans.push({ start: m.index, end: m.index + m[0].length, kind: "private key" });
	for (const m of text.matchAll(URL_PASSWORD)) {
		const pass = m.groups?.pass ?? "";
		if (/^\d+$/.test(pass) || isPlaceholder(pass)) continue;
		const start = m.index + m[0].lastIndexOf(pass);
		spans.push({ start, end: start + pass.length, kind: "password in url" });
	}
	for (const m of text.matchAll(ASSIGNMENT)) {
		const value = m.groups?.value ?? "";
		const word = /^[A-Za-z]+/.exec(m[0])?.[0] ?? "";
		const back = runLength(text, m.index - 1, -1, NAME_CHAR, 80);
		const kind = assignedKind(text.slice(m.index - back, m.index + word.length), value);
		if (kind === undefined || NAME_CHAR.test(text.charAt(m.index + word.length))) continue;
		const start = m.index + m[0].length;
		if (text.charAt(start + value.length) === "(") continue;
		spans.push({ start, end: start + value.length, kind });
	}
	return [...spans, ...keyBlockEnds(text)];
}

/**
 * Every stretch of a whole `text` the patterns take for a secret, in no particular order; spans may overlap. Read
 * with its terminal escapes blanked (a coloured token is found) and, when it has any, its vendor tokens as it stands
 * too (an escape's final byte may be a token's first letter).
 */
export function secretSpans(text: string): SecretSpan[] {
	const blanked = withoutEscapes(text);
	return blanked === text ? spansIn(text) : [...spansIn(blanked), ...prefixedSpans(text)];
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

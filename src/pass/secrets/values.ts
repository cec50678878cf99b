// What a value next to a secret's name is: a secret, or a reference, a mask, code, a path, a UUID, a hash, a cache
// key or a word. Judged on the value's head (at most HEAD characters), so a long value costs no more to judge.

/** The most characters of a value judged; the whole value is still what is replaced. */
export const HEAD = 256;

/** Shannon entropy in bits per character. */
function entropy(text: string): number {
	const counts = new Map<string, number>();
	for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
	let bits = 0;
	for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
	return bits;
}

/** How many of lower case, upper case, digits and other characters the text has. */
export function classes(text: string): number {
	return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((c) => c.test(text)).length;
}

/**
 * A path: starts at a root, a home or a relative dot, with no `+` or `=` and short parts, and does not read as base64
 * (which can start with `/` and hold more of them).
 */
export function isPath(value: string): boolean {
	if (!/^(?:\/|\.\.?\/|~\/|[A-Za-z]:\\)/.test(value) || /[+=]/.test(value) || readsAsBase64(value)) return false;
	return value.split(/[/\\]/).every((part) => part.length <= 64);
}

/**
 * Twenty or more letters and digits between slashes, with upper case, lower case and digits, that change kind at one
 * character in five or more: random text does, names and words (`/home/runner/work/MyProject2`) do not.
 */
function readsAsBase64(value: string): boolean {
	const text = value.replaceAll("/", "");
	if (!/^[A-Za-z0-9]{20,}$/.test(text) || classes(text) < 3) return false;
	let changes = 0;
	for (let i = 1; i < text.length; i++) if (charKind(text, i) !== charKind(text, i - 1)) changes++;
	return changes * 5 >= text.length;
}

function charKind(text: string, i: number): number {
	const c = text.charCodeAt(i);
	return c <= 57 ? 0 : c <= 90 ? 1 : 2;
}

/**
 * A reference to a secret kept elsewhere (`$TOKEN`, `${{ secrets.X }}`, `process.env.X`), a mask, an elided example
 * (`sk-ant-...`), a placeholder (`<key>`, `[PASSWORD]`), or our marker.
 */
export function isPlaceholder(value: string): boolean {
	return (
		/^(?:\$|%|\[redacted|process\.env|os\.environ|env\.|<|\{\{)|…|\*{4}|•{3}/.test(value) ||
		isElided(value) ||
		/^\[[A-Za-z][A-Za-z_ -]*\]$/.test(value) ||
		/^(.)\1*$/.test(value) ||
		/^[*xX.•-]+$/.test(value)
	);
}

/** The most characters an elided example keeps before its `...` (`sk-ant-api03-...`, `abc...xyz`). */
const ELIDED_KEEPS = 12;

/**
 * An elided example: `...` after a few characters, or at the end. A generated password may hold three dots too
 * (`bCt_49rdwAHpFA8...wr`): with 12 characters or more before them and more after, they elide nothing.
 */
function isElided(value: string): boolean {
	const dots = value.indexOf("...");
	if (dots < 0) return false;
	let after = dots;
	while (value.charAt(after) === ".") after++;
	return dots < ELIDED_KEEPS || after === value.length;
}

/** Long and random-looking: the mark of a generated key, not a word or a path. */
export function looksRandom(value: string): boolean {
	return value.length >= 16 && classes(value) >= 2 && entropy(value) >= (/\d/.test(value) ? 3 : 3.5);
}

/** Names joined by dots, none opening with a digit: a member path (`config.apiKey`), or a dotted token's shape. */
const DOTTED_NAMES = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/**
 * Dotted tokens' shapes, from the vendors' docs: Doppler's `dp.pt.`/`dp.st.`/`dp.ct.`/`dp.sa.`/`dp.scim.`/`dp.audit.`
 * ("Token formats"), Vault's service, batch and recovery tokens `hvs.`/`hvb.`/`hvr.` ("Tokens" concepts page), and
 * Vault's legacy service token, `s.` and 24 letters and digits whatever their mix (a value a secret's name holds).
 */
const DOTTED_TOKEN_OPENING = /^(?:(?:dp\.(?:pt|st|ct|sa|scim|audit)|hv[sbr])\.|s\.[A-Za-z0-9]{24}$)/;
/** A segment only a token has: Terraform Cloud's `….atlasv1.…`, Dynatrace's `dt0c01.…` (their docs' token formats). */
const TOKEN_SEGMENTS = new Set(["atlasv1", "dt0c01"]);

/**
 * A dotted segment that reads as a token's random part, not an identifier: random-looking (`looksRandom`), and either
 * with digits between letters three times or more (`Zq7Yx3Wv9…`, hex; an identifier has one or two: `oauth2Client`,
 * `x509Cert`) or of mixed case with a capital in three letters or more (a camelCase name has fewer:
 * `getUserApiKey`, `XMLHttpRequest`). A CONST_CASE or snake_case name with no digits inside is neither.
 */
function isRandomSegment(segment: string): boolean {
	if (!looksRandom(segment)) return false;
	let digitRuns = 0;
	let upper = 0;
	let lower = 0;
	for (let i = 0; i < segment.length; i++) {
		const c = segment.charAt(i);
		if (/[A-Z]/.test(c)) upper++;
		else if (/[a-z]/.test(c)) lower++;
		else if (/[0-9]/.test(c) && /[A-Za-z]/.test(segment.charAt(i - 1))) digitRuns++;
	}
	return digitRuns >= 3 || (upper > 0 && lower > 0 && upper * 3 >= upper + lower);
}

/**
 * A member path of code (`config.apiKey`, `process.env.API_KEY`, `var.db_password`): names joined by dots, none of
 * them a token's random part or a dotted token's known segment (`dp.st.prd.…`, `s.…`, `dt0c01.…`, `….atlasv1.…`).
 */
export function isMemberPath(value: string): boolean {
	if (!DOTTED_NAMES.test(value) || DOTTED_TOKEN_OPENING.test(value)) return false;
	return !value.split(".").some((segment) => TOKEN_SEGMENTS.has(segment) || isRandomSegment(segment));
}

/**
 * Code that names a secret without holding one: a member path (`config.apiKey`, `this.token`), or a word of letters
 * alone that does not look random (`getApiKey`, `TokenType`, `string`) or reads as an identifier
 * (`AwsCredentialIdentity`, `TableDescription`).
 */
export function isCodeName(value: string): boolean {
	return isMemberPath(value) || (/^[A-Za-z_$]+$/.test(value) && (!looksRandom(value) || isIdentifier(value)));
}

/** A vowel (and `y`), the mark of a word one can say. */
const VOWEL = /[aeiouy]/i;

/**
 * Letters that read as a camelCase or PascalCase identifier, not as random letters: fewer capitals than one in three
 * letters (random mixed-case letters have about one in two), each hump after the first (a capital and the small
 * letters after it, or a run of capitals) two letters or more, and at most one hump without a vowel but for an
 * acronym of five capitals or fewer (`getBearerTokenEnvKey`, `AwsCredentialIdentity`, `TableDescription`). Of random
 * mixed-case letters that look random, 1.7 in 100 of 16 read as one, 6 in 10,000 of 32 (20,000 draws each); of the
 * 6,317 identifiers of 16 to 60 letters that look random in a sample of node_modules, 97.8 in 100 do. Reads the value
 * once. Exported for tests.
 */
export function isIdentifier(value: string): boolean {
	if (!/^[A-Za-z_$]+$/.test(value) || isRandomSegment(value)) return false;
	let humps = 0;
	let voiceless = 0;
	// One read of the letters: a hump ends before a capital that follows a small letter, before the last capital of
	// a run that a small letter follows (`HTTPResponse`: `HTTP`, `Response`), and at `_` or `$`.
	let start = 0;
	for (let i = 1; i <= value.length; i++) {
		const c = value.charAt(i);
		const prev = value.charAt(i - 1);
		const ends =
			i === value.length ||
			!/[A-Za-z]/.test(c) ||
			!/[A-Za-z]/.test(prev) ||
			(/[A-Z]/.test(c) && /[a-z]/.test(prev)) ||
			(/[A-Z]/.test(c) && /[A-Z]/.test(prev) && /[a-z]/.test(value.charAt(i + 1)));
		if (!ends) continue;
		const hump = value.slice(start, i);
		start = i;
		if (!/[A-Za-z]/.test(hump)) continue;
		if (humps > 0 && hump.length < 2) return false;
		// A run of capitals of five letters or fewer is an acronym (`MCP`, `HTTP`); a longer one wants a vowel too.
		if (!VOWEL.test(hump) && (/[a-z]/.test(hump) || hump.length > 5)) voiceless++;
		humps++;
	}
	return humps > 0 && voiceless <= 1;
}

/** Short words joined by dashes, dots or underscores (`same-origin`, `oauth2-pkce-flow`, `include`). */
export function isWords(value: string): boolean {
	return /^[a-z]{1,12}[0-9]{0,2}(?:[-_.][a-z]{1,12}[0-9]{0,2}){0,8}$/i.test(value);
}

/** Words as `isWords` reads them, then a version of two to four numbers. */
const VERSIONED = /^[a-z]{1,12}[0-9]{0,2}(?:[-_.][a-z]{1,12}[0-9]{0,2}){0,8}[-_.@:]v?[0-9]{1,4}(?:\.[0-9]{1,4}){1,3}$/i;

/**
 * Short words and a version after them (`jackson-databind-2.15.3`, `YearlyReport-3.1`, `core@v2.4`): an artifact's
 * or a release's name.
 */
export function isVersionedName(value: string): boolean {
	return VERSIONED.test(value);
}

/** A URL without userinfo (`https://host/path`): no password in it. */
export function isPlainUrl(value: string): boolean {
	return /^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i.test(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A value that is no secret by its name alone (it may still be one by its shape): a path, a UUID, a URL without
 * userinfo, a hash (hex, `sha256:…`, an integrity sum), a cache key (words and a hash), words, words and a version,
 * a number.
 */
export function isPlainValue(value: string): boolean {
	return (
		isPath(value) ||
		UUID.test(value) ||
		isPlainUrl(value) ||
		/^(?:[0-9a-f]{7,128}|[0-9A-F]{7,128}|(?:sha1|sha256|sha384|sha512|md5)[:-][A-Za-z0-9+/=]+)$/.test(value) ||
		/^(?:[A-Za-z0-9]{1,24}[-_.]){1,12}[0-9a-f]{7,128}$/i.test(value) ||
		isWords(value) ||
		isVersionedName(value) ||
		/^[0-9][0-9.:,_]*$/.test(value)
	);
}

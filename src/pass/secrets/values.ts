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
 * (`sk-ant-...`), a placeholder (`<key>`), or our marker.
 */
export function isPlaceholder(value: string): boolean {
	return (
		/^(?:\$|%|\[redacted|process\.env|os\.environ|env\.|<|\{\{)|…|\*{4}|•{3}/.test(value) ||
		isElided(value) ||
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

/**
 * Code that names a secret without holding one: a member path (`config.apiKey`, `this.token`), or a word of letters
 * alone that does not look random (`getApiKey`, `TokenType`, `string`).
 */
export function isCodeName(value: string): boolean {
	return (
		/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) || (/^[A-Za-z_$]+$/.test(value) && !looksRandom(value))
	);
}

/** Short words joined by dashes, dots or underscores (`same-origin`, `oauth2-pkce-flow`, `include`). */
export function isWords(value: string): boolean {
	return /^[a-z]{1,12}[0-9]{0,2}(?:[-_.][a-z]{1,12}[0-9]{0,2}){0,8}$/i.test(value);
}

/** A URL without userinfo (`https://host/path`): no password in it. */
export function isPlainUrl(value: string): boolean {
	return /^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i.test(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A value that is no secret by its name alone (it may still be one by its shape): a path, a UUID, a URL without
 * userinfo, a hash (hex, `sha256:…`, an integrity sum), a cache key (words and a hash), words, a number.
 */
export function isPlainValue(value: string): boolean {
	return (
		isPath(value) ||
		UUID.test(value) ||
		isPlainUrl(value) ||
		/^(?:[0-9a-f]{7,128}|[0-9A-F]{7,128}|(?:sha1|sha256|sha384|sha512|md5)[:-][A-Za-z0-9+/=]+)$/.test(value) ||
		/^(?:[A-Za-z0-9]{1,24}[-_.]){1,12}[0-9a-f]{7,128}$/i.test(value) ||
		isWords(value) ||
		/^[0-9][0-9.:,_]*$/.test(value)
	);
}

// Names that hold secrets, matched as names: split into words (`AWS_SECRET_ACCESS_KEY`, `apiKey`, `x-api-key`), so
// `PWD`, `OLDPWD`, `PUBLIC_KEY`, `idempotencyKey` and `credentials: 'same-origin'` are told from a password or a key.

import {
	classes,
	HEAD,
	isCodeName,
	isMemberPath,
	isPath,
	isPlaceholder,
	isPlainUrl,
	isPlainValue,
	isVersionedName,
	isWords,
	looksRandom,
} from "./values.js";

/** How strongly a name says its value is secret. */
type Strength = "password" | "strong" | "weak";

// What a character is to a name's words: none of them, a lower-case letter or a digit, or a capital.
const OTHER = 0;
const LOWER = 1;
const CAPITAL = 2;

function nameChar(code: number): number {
	if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) return LOWER;
	return code >= 0x41 && code <= 0x5a ? CAPITAL : OTHER;
}

/**
 * The lower-case words of a name: split at `_ - . /`, spaces and camelCase humps (a lower-case letter or digit, then
 * a capital), and at anything but ASCII letters and digits. One pass over an ASCII name: the finders ask it at every
 * anchor. A name with other characters goes the slow way (`nonAsciiWords`): its humps marked, the whole name
 * lower-cased, then split, since lower-casing may make ASCII of them (`\u212a`, the Kelvin sign, is `k`).
 */
export function nameWords(name: string): string[] {
	const words: string[] = [];
	let start = 0;
	let before = OTHER;
	for (let i = 0; i < name.length; i++) {
		const code = name.charCodeAt(i);
		if (code >= 0x80) return nonAsciiWords(name);
		const kind = nameChar(code);
		if (kind === OTHER) {
			if (before !== OTHER) words.push(name.slice(start, i).toLowerCase());
		} else if (before === OTHER) start = i;
		else if (before === LOWER && kind === CAPITAL) {
			words.push(name.slice(start, i).toLowerCase());
			start = i;
		}
		before = kind;
	}
	if (before !== OTHER) words.push(name.slice(start).toLowerCase());
	return words;
}

function nonAsciiWords(name: string): string[] {
	return name
		.replace(/([a-z0-9])([A-Z])/g, "$1 $2")
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter((w) => w !== "");
}

/** Words that make a key's name a name of no secret: a public key, an idempotency or cache key, a database key. */
const PLAIN_KEY_WORDS = new Set([
	"public",
	"publishable",
	"pub",
	"idempotency",
	"cache",
	"primary",
	"foreign",
	"sort",
	"partition",
	"row",
	"lookup",
	"dedupe",
	"dedup",
	"hash",
	"map",
	"react",
	"unique",
	"composite",
	"index",
	"object",
	"s3",
	"bucket",
	"storage",
	"keyboard",
	"hotkey",
	"shortcut",
	"sequence",
	"fingerprint",
	"id",
	"path",
	"file",
	"dir",
	"url",
	"name",
	"type",
	"length",
	"size",
	"count",
	"max",
	"min",
	"budget",
	"prefix",
	"header",
]);

/** How strongly a name's last words make it a key's, token's or secret's, whatever words stand before them. */
function keyStrength(words: readonly string[]): Strength | undefined {
	const last = words.at(-1) ?? "";
	if (/(?:secret|token|apikey|authorization|credentials?|creds)$/.test(last) || last === "auth") return "strong";
	// A key's word glued to the one before it: `SUMOLOGIC_ACCESSKEY`, `AWS_SECRETKEY`, `privatekey`.
	if (/(?:access|secret|private|client|signing|encryption|master|session|deploy|license)key$/.test(last))
		return "strong";
	if (
		last === "key" &&
		words.length >= 2 &&
		/^(?:api|access|private|client|signing|encryption|master|secret|session|ssh|deploy|app|license|auth)$/.test(
			words.at(-2) ?? "",
		)
	)
		return "strong";
	if (last === "key") return "weak";
	return undefined;
}

/**
 * Whether the name is a key's or a secret's made a name of no secret by the word it opens with (`PUBLIC_KEY`,
 * `cache_key`): a letter glued before that word would make it a secret's name again. Not `url` nor `public`, and not
 * a name that holds a secret whatever its first word (`PUBLIC_TOKEN`).
 */
export function isPlainByFirstWord(name: string): boolean {
	const words = nameWords(name);
	return PLAIN_KEY_WORDS.has(words[0] ?? "") && keyStrength(words) !== undefined && wordsStrength(words) === undefined;
}

/**
 * The words before `token` that make it a place in a list of results, handed to every caller who pages through it:
 * AWS's `NextToken` and S3's `NextContinuationToken`, Google's `nextPageToken`, Azure's `continuationToken`, Twitter's
 * `pagination_token`, a `cursorToken`, Google Calendar's `syncToken`, MongoDB's `resumeToken`.
 */
const PAGE_WORDS = new Set(["next", "prev", "previous", "continuation", "pagination", "cursor", "sync", "resume"]);

/** A pagination token's name: `token` after a word of PAGE_WORDS, or after `page` after one (`nextPageToken`). */
function isPageToken(words: readonly string[]): boolean {
	if (words.at(-1) !== "token") return false;
	const before = words.at(-2) ?? "";
	return PAGE_WORDS.has(before) || (before === "page" && PAGE_WORDS.has(words.at(-3) ?? ""));
}

/** The last word of the name that makes it hold a secret, and how strongly, or undefined. */
export function nameStrength(name: string): Strength | undefined {
	return wordsStrength(nameWords(name));
}

/** nameStrength of a name split into its words. */
function wordsStrength(words: readonly string[]): Strength | undefined {
	const last = words.at(-1);
	if (last === undefined) return undefined;
	if (/(?:password|passwd|passphrase)$/.test(last)) return "password";
	// `PWD` and `OLDPWD` are the shell's working directories; `DB_PWD`, `MYSQL_PWD`, `--db-pass` a password.
	if (/^(?:pwd|pw|pass)$/.test(last)) return words.length >= 2 ? "password" : undefined;
	if (last.endsWith("pwd") && last !== "oldpwd") return "password";
	// A token or a secret is one whatever plain word stands before it but next to it (`flutterwavePubKeyToken`): only
	// that word makes it one of no secret (`publicToken`, `id_token`). Any plain word does for a key (`PUBLIC_KEY`).
	if (/(?:secret|token)$/.test(last))
		return PLAIN_KEY_WORDS.has(words.at(-2) ?? "") || isPageToken(words) ? undefined : "strong";
	if (words.some((w) => PLAIN_KEY_WORDS.has(w))) return undefined;
	return keyStrength(words);
}

/**
 * The roots of code that reads a password from elsewhere: Terraform's `var.`, `local.`, `module.`, `data.`, an
 * object's `self.`/`this.`, a configuration's `config.`/`settings.`, Helm's `Values.`, GitHub's `secrets.`/`vars.`.
 */
const REFERENCE_ROOTS = new Set([
	"var",
	"local",
	"module",
	"data",
	"self",
	"this",
	"config",
	"settings",
	"Values",
	"secrets",
	"vars",
	"inputs",
	"env",
]);

/**
 * A member path that reads a password from elsewhere (`var.db_password`, `self.password`, `random_password.db.result`):
 * opening at a reference root, or with a segment that names a secret. Other dotted words may be a passphrase.
 */
function isPasswordReference(value: string): boolean {
	if (!isMemberPath(value)) return false;
	const segments = value.split(".");
	return REFERENCE_ROOTS.has(segments[0] ?? "") || segments.some((segment) => nameStrength(segment) !== undefined);
}

/** The marker's kind for a secret under this name. */
function kindOf(name: string, strength: Strength): string {
	if (strength === "password") return "password";
	const words = nameWords(name);
	if (words.some((w) => /token|auth/.test(w))) return "token";
	if (words.includes("secret")) return "secret";
	return (words.at(-1) ?? "").endsWith("key") ? "key" : "credential";
}

/** The kind of secret a value under `name` is, or undefined: the value judged on its head. */
export function assignedKind(name: string, value: string): string | undefined {
	const strength = nameStrength(name);
	if (strength === undefined) return undefined;
	const head = value.slice(0, HEAD);
	if (head.length < 8 || isPlaceholder(head) || /^\d+$/.test(head)) return undefined;
	if (isPath(head) || isPlainUrl(head)) return undefined;
	if (strength === "password") {
		if (isPasswordReference(head)) return undefined;
		return classes(head) >= 2 || looksRandom(head) ? "password" : undefined;
	}
	if (isCodeName(head)) return undefined;
	if (strength === "weak") return looksRandom(head) && !isPlainValue(head) ? kindOf(name, strength) : undefined;
	if (isWords(head) || isVersionedName(head)) return undefined;
	return classes(head) >= 2 || looksRandom(head) ? kindOf(name, strength) : undefined;
}

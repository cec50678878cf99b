// Secrets found by the structure around them: a name and its value (`NAME=value`, `"name": "value"`, a header),
// a flag and its value, a URL's userinfo, a netrc line, a cookie, a private key block. Each finder scans once: an
// anchor found by a pattern of fixed words, then a loop that reads what follows it and moves the scan past it.

import {
	AUTHORITY_END,
	charClass,
	isIn,
	LETTERS,
	NAME,
	quotedEnd,
	runEnd,
	runStart,
	stopAt,
	VALUE_END,
	WORD,
} from "./chars.js";
import { assignedKind, nameStrength, nameWords } from "./names.js";
import { Search } from "./search.js";
import { type Finder, findAll, type SecretSpan, type Steps } from "./span.js";
import { classes, isPath, isPlaceholder, isPlainUrl, isPlainValue, looksRandom } from "./values.js";

/**
 * One text being scanned, with what was read of it remembered: the value run and the line end last found, so
 * `key=key=key=…` or many finds on one long line read it once.
 */
class Scan {
	private value = { from: 0, end: 0 };
	private chain = { from: 0, end: 0 };
	private line = { from: 0, end: -1 };
	constructor(readonly text: string) {}
	/** Where the value run that starts at `from` ends. */
	valueEnd(from: number): number {
		if (from >= this.value.from && from < this.value.end) return this.value.end;
		const end = stopAt(VALUE_END, this.text, from);
		if (end > from) this.value = { from, end };
		return end;
	}
	/**
	 * Where the unquoted value that starts at `from` ends, read on past `&` and `;` (`plainValueEnd`). A value read
	 * from inside one read before ends where that one did (each piece is judged by itself and what follows it), so
	 * anchors inside a long `a1;key:a1;key:a1;…` that are each passed over read it once.
	 */
	plainEnd(from: number): number {
		const first = this.valueEnd(from);
		if (first === from) return from;
		if (from >= this.chain.from && from < this.chain.end) return this.chain.end;
		const end = plainValueEnd(this, first);
		this.chain = { from, end };
		return end;
	}
	/** Where the line holding `at` ends. */
	lineEnd(at: number): number {
		if (at >= this.line.from && at <= this.line.end) return this.line.end;
		const found = this.text.indexOf("\n", at);
		const end = found < 0 ? this.text.length : found;
		this.line = { from: at, end };
		return end;
	}
}

/**
 * A name that may hold a secret and what stands between it and its value: `NAME=`, `NAME: `, `"name": "`,
 * `Authorization: Bearer `, Make's and PHP's `?=`, `+=`, `::=`, `:::=`, `.=`, PHP's and JS's `??=`, Ruby's `||=`, an
 * indexed `env["NAME"] = ` or computed key `{["NAME"]: `, a Go or JS backtick, a call's `("NAME", "`, an XML
 * element's `<name>`, an attribute pair's `name" value="`, an env list's `NAME", "value": "` (JSON) or `NAME\n  value: ` (YAML), a plist's `NAME</key><string>`, and blanks that may start a
 * type (`var apiToken string = `) or a table's value column (`password    …`, as `vault kv get` prints). Found by its
 * last word, so the scan is fast; the whole name is read back in code. Its groups are numbered, not named: a named
 * group costs every match an object of them all, and without them the finder took 0.77x the time on text dense with
 * anchors (docs/evaluation.md). `anchorForm` names them.
 */
const ASSIGNMENT =
	/(?:key|token|secret|passw(?:or)?d|passphrase|pwd|pass|pw|auth(?:orization)?|credentials?|creds)(?:(?:(\?(?!\?=))|(["']\])|["'])?[ \t]{0,3}(:::=|::=|:=|\?\?=|\?=|\|\|=|\+=|\.=|=>|=|:)[ \t]{0,24}[`"']?(?:(?:Bearer|Basic|token|Token)[ \t]+)?|(["']?[ \t]{0,3}(?:,|\r?\n)[ \t]{0,40}["']?value["']?[ \t]{0,3}:[ \t]{0,3}["']?)|(["'][ \t]{0,3},[ \t]{0,3}["'])|(>(?=\s{0,80}[^\s<>]{1,4000}\s{0,80}<\/))|(["'][ \t]{1,3}value[ \t]{0,3}=[ \t]{0,3}["'])|(<\/key>\s{0,40}<string>)|([ \t]{2,40}(?=\S{1,1000}[ \t]{0,40}(?:\r?\n|$))|[ \t]{1,3}(?=[&*[]?[A-Za-z_][\w.]{0,40}(?:[<[]|\??[ \t]{1,3}=))))/gi;

/** What an ASSIGNMENT anchor matched after its word: each of its groups, undefined where that form did not match. */
interface AnchorForm {
	/** `?` of an optional field's `name?:` or Make's `NAME?=`. */
	readonly optional: string | undefined;
	/** The quote and `]` of an indexed `env["NAME"]` or a computed key `["NAME"]`. */
	readonly index: string | undefined;
	/** The operator: `=`, `:`, `:=`, `?=`, `+=`, `=>` and the others the pattern lists. */
	readonly op: string | undefined;
	/** An env list's `", "value": "` or `\n  value: `. */
	readonly pair: string | undefined;
	/** A call's `", "`. */
	readonly call: string | undefined;
	/** An element's `>`. */
	readonly element: string | undefined;
	/** An attribute pair's `" value="`. */
	readonly attribute: string | undefined;
	/** A plist's `</key><string>`. */
	readonly plist: string | undefined;
	/** The blanks before a type or a table's value column. */
	readonly blank: string | undefined;
}

function anchorForm(m: RegExpExecArray): AnchorForm {
	return {
		optional: m[1],
		index: m[2],
		op: m[3],
		pair: m[4],
		call: m[5],
		element: m[6],
		attribute: m[7],
		plist: m[8],
		blank: m[9],
	};
}

/**
 * The calls that set or read a setting by its name, a default or a value after it: `os.Setenv`, `System.setProperty`,
 * `os.environ.setdefault`, `os.getenv`, `ENV.fetch`, `map.put`, `headers.set`, `localStorage.setItem`. Other calls
 * (`field_serializer('password', 'password_bytes')`, configparser's `get('Credentials', 'option_name')`) and tuples
 * list names.
 */
const SETTING_CALL =
	/^(?:set|put|fetch|setenv|putenv|getenv|setdefault|setproperty|getproperty|setitem|getenvordefault)$/i;

// The lookaheads of an element's text and of a table's value column ask in the pattern what the code checks again, so
// a run of names (`pw>pw>…`) costs no step each; each reads up to the first character that ends its value, where the
// next anchor's own read starts, so together they read the text once.

/** What stands before the name of an env list's entry: `"name": "`, `"Key": "` (JSON) or `- name: ` (YAML). */
const PAIR_NAME = /(?:name|key)["']?[ \t]{0,3}:[ \t]{0,3}["']?$/i;

/**
 * A type between a name and its value, then ` = `: `: string = `, `: &'static str = `, Go's `string = `, `[]byte = `,
 * `Option<String> = `, Python's `Optional[str] = `, then the quote that opens a literal: in a typed language a value
 * not quoted is an expression (`var key any = testKey`). A blank must stand before the `=` (so a YAML value holding
 * `=` is not read as a type), and `==`, `=>`, `=~` are no assignment. Every run is bounded: read at one place, it
 * costs a few characters at most.
 */
const TYPE_THEN_EQUALS =
	/(?:&(?:'[a-z]{1,12}[ \t]{1,3})?|\*|\[\])?[A-Za-z_][\w.]{0,40}(?:<[\w., <>[\]]{0,60}>|\[[\w., |[\]]{0,60}\])?(?:\[\])?\??[ \t]{1,3}=(?![=>~])[ \t]{0,3}[`"']/y;

/**
 * After a `key` or `name` whose value is a label, what says that the value it names comes next: a `value` attribute,
 * an env list's `value` key, a plist's `</key>`. The label is no secret; its own last word anchors the pair.
 */
const LABEL_THEN_VALUE =
	/["'][ \t]{1,3}value[ \t]{0,3}=|["']?[ \t]{0,3}(?:,|\r?\n)[ \t]{0,40}["']?value["']?[ \t]{0,3}:|<\/key>/iy;

/** The words of a page form's anti-forgery token (`authenticity_token`, `csrf_token`): served to every visitor. */
const FORM_TOKEN_WORDS = new Set(["authenticity", "csrf", "xsrf", "csrfmiddlewaretoken"]);

/**
 * A markup value that is no credential: a page form's anti-forgery token (`<input name="authenticity_token"
 * value="…">`), or a sample that spells its own label (`<add key="Password" value="CleartextPassword1"/>`).
 */
function isMarkupSample(name: string, value: string): boolean {
	const words = nameWords(name);
	return words.some((w) => FORM_TOKEN_WORDS.has(w)) || value.toLowerCase().includes(words.at(-1) ?? " ");
}

/** Where a type and ` = ` starting at `from` end, or -1 when none stands there. */
function afterType(text: string, from: number): number {
	TYPE_THEN_EQUALS.lastIndex = from;
	return TYPE_THEN_EQUALS.exec(text) === null ? -1 : TYPE_THEN_EQUALS.lastIndex;
}

/** Where the blanks and line breaks from `from` end, reading at most `max` characters. */
function afterSpace(text: string, from: number, max: number): number {
	let at = from;
	while (at - from < max && /\s/.test(text.charAt(at))) at++;
	return at;
}

/**
 * Where the value after the anchor `m` starts, or -1 when the anchor's form holds none: a type read past (`: string =
 * "`), a call's name read only where a `(` opens it, an element's text read only where `<name>` opens it and `</`
 * closes it (a pretty-printed element may hold it on its own line).
 */
function valueStart(scan: Scan, m: RegExpExecArray, form: AnchorForm, nameStart: number, wordEnd: number): number {
	const text = scan.text;
	const end = m.index + m[0].length;
	// `env["NAME"] = "…"` and a Lua table's `{["NAME"] = "…"}` set a literal (`data["password"] = creds` an
	// expression); a JS object's computed key `{["name"]: "…"}` holds one, where `["name"]: T` is a computed key's
	// type; `name?: T` is an optional field's (Make's `NAME?=value` is its `?=`).
	if (form.index !== undefined) {
		if ((form.op !== "=" && form.op !== ":") || !/["']/.test(text.charAt(end - 1))) return -1;
		if (form.op === ":") return end;
	}
	if (form.op === ":") {
		const typed = afterType(text, runEnd(BLANK, text, text.indexOf(":", wordEnd) + 1));
		if (typed >= 0 || form.optional !== undefined) return typed;
	}
	if (form.optional !== undefined) return form.op === "=" ? end : -1;
	if (form.op !== undefined) return opensValue(text, form.op, nameStart, end) ? end : -1;
	if (form.attribute !== undefined) return end;
	if (form.pair !== undefined) return PAIR_NAME.test(text.slice(Math.max(0, nameStart - 20), nameStart)) ? end : -1;
	if (form.plist !== undefined) return text.endsWith("<key>", nameStart) ? end : -1;
	if (form.call !== undefined) {
		const open = runStart(BLANK, text, nameStart - 1, 4) - 1;
		const callee = text.slice(runStart(WORD, text, open, 40), open);
		return text.charAt(open) === "(" && SETTING_CALL.test(callee) ? end : -1;
	}
	if (form.element !== undefined) {
		if (text.charAt(nameStart - 1) !== "<") return -1;
		const from = afterSpace(text, end, 80);
		const close = afterSpace(text, elementTextEnd(text, from), 80);
		return text.startsWith("</", close) ? from : -1;
	}
	const typed = afterType(text, end);
	return typed >= 0 || (form.blank ?? "").length < 2 || !isTableRow(scan, nameStart, end) ? typed : end;
}

/**
 * Whether the value after an operator may be a literal: a backtick opens one after `=` or `:=` only (`{key: \`…\`}` is
 * minified code's string), `??=` and `||=` set one only when it is quoted (`$token ??= getenv('TOKEN')` is code), and
 * `+=`, `.=` append a literal only when it is quoted or the name starts its line, not indented (Make's `NAME +=
 * value`): in code they append an expression (`password += string.digits`).
 */
function opensValue(text: string, op: string, nameStart: number, start: number): boolean {
	const quote = text.charAt(start - 1);
	if (quote === "`") return op === "=" || op === ":=";
	if (op === "??=" || op === "||=") return quote === '"' || quote === "'";
	if (op !== "+=" && op !== ".=") return true;
	if (quote === '"' || quote === "'") return true;
	return op === "+=" && (nameStart === 0 || text.charAt(nameStart - 1) === "\n");
}

/**
 * A row of a two-column table, `name   value` alone on its line (`vault kv get`, `vault token lookup`): only blanks
 * before the name, two or more between, none but blanks after the value.
 */
function isTableRow(scan: Scan, nameStart: number, from: number): boolean {
	const text = scan.text;
	const lineStart = runStart(BLANK, text, nameStart, 40);
	if (lineStart > 0 && text.charAt(lineStart - 1) !== "\n") return false;
	// A value column starts with a letter or a digit: `key  *rsa.PrivateKey` is a Go struct's field and its type.
	if (!/[A-Za-z0-9]/.test(text.charAt(from))) return false;
	const end = scan.valueEnd(from);
	const rest = runEnd(BLANK, text, end);
	// Only a value that looks random: a column beside a name is a weaker sign than `=` (a docstring's aligned words).
	return (
		looksRandom(text.slice(from, Math.min(end, from + 256))) &&
		(rest === text.length || text.charAt(rest) === "\n" || text.charAt(rest) === "\r")
	);
}

/** What ends an element's text: a blank, an angle bracket, a cut mark `…`; not `&`, `;`, `,`, brackets, a backslash. */
const ELEMENT_TEXT_END = charClass("\u0000-\u0020\u0085\u00a0\u2028\u2029<>\u2026");

/**
 * Where an element's text from `from` ends: at a blank or an angle bracket, so at `</` where it closes. Its `&amp;`
 * and what else ends a value elsewhere are its own (`<password>p&amp;ss;w0rd</password>`). The anchor's lookahead has
 * read the same run, so this reads no more than it did.
 */
function elementTextEnd(text: string, from: number): number {
	return stopAt(ELEMENT_TEXT_END, text, from);
}

/** What a piece after `&` or `;` is when it ends the value before it: a name of code, a keyword, an entity's name. */
const CODE_PIECE = /^[A-Za-z_$.]+$/;

/**
 * Where an unquoted value whose first piece ends at `firstEnd` ends: there, or past a `&` or `;` that a piece of the
 * value follows (a generated password holds them: `password=Zq7Yx3&Wv9Ut5`, `DB_PASSWORD=Zq7;Yx3`). The value ends
 * at one that nothing follows (`&&`, `;;`, a blank, a quote, the text's end), nor a piece holding `=` (a query's or a
 * connection string's next field: `&page=2`, `;Database=x`), a piece a `(` follows (a call), or a piece of letters,
 * `_`, `$` and dots alone (a word, an entity's name as in `&amp;`, a statement of minified code: `secret=r;return`,
 * `;User Id=sa`). Each piece is read by the same `Scan.valueEnd` that reads the value, and `Scan.plainEnd` remembers
 * what was read: linear in the text.
 */
function plainValueEnd(scan: Scan, firstEnd: number): number {
	const text = scan.text;
	let end = firstEnd;
	for (;;) {
		const separator = text.charAt(end);
		if (separator !== "&" && separator !== ";") return end;
		const from = end + 1;
		const pieceEnd = scan.valueEnd(from);
		if (pieceEnd === from) return end;
		const piece = text.slice(from, pieceEnd);
		if (piece.includes("=") || CODE_PIECE.test(piece) || text.charAt(pieceEnd) === "(") return end;
		end = pieceEnd;
	}
}

/**
 * Whether an unquoted value is the first word of a sentence: letters alone (a full stop, a colon or a mark after them
 * at most), then a blank and a word (`"password": "Password must be at least 8 characters"`, `password: Password is
 * required`): a message or a label, not a secret. A value with digits or signs before its blank is still judged
 * (`password="Zq7Yx3Wv9&Ut and more words"` keeps its first piece).
 */
function isSentenceStart(text: string, value: string, end: number): boolean {
	if (!/^[A-Za-z]+[.:!?]?$/.test(value)) return false;
	const next = runEnd(BLANK, text, end);
	return next > end && /[A-Za-z]/.test(text.charAt(next));
}

/**
 * Where a value from `start` ends: at its closing quote where a quote opened it and nothing that ends a quoted value
 * stands before that quote (a generated password may hold `& ; , [ ] { } \`, which end an unquoted value at
 * `plainEnd`: `DB_PASSWORD="…&@*…"` left its tail), else at `plainEnd`.
 */
function quotedValueEnd(text: string, start: number, plainEnd: number): number {
	const quote = text.charAt(start - 1);
	const closing = quote === '"' || quote === "'" ? quotedEnd(text, start, quote) : -1;
	return Math.max(closing, plainEnd);
}

/** Secrets assigned to names that hold them: the whole value, whatever its length. */
function* assignments(scan: Scan, into: SecretSpan[]): Steps {
	const text = scan.text;
	const anchor = new Search(ASSIGNMENT, text);
	for (let m = anchor.next(); m !== null; m = anchor.next()) {
		yield;
		// The anchor's word is followed by no letter in any of its forms.
		const wordEnd = runEnd(LETTERS, text, m.index);
		// A name runs on past its last word (`token.length`), but for PHP's `.=` written without a blank.
		if (isIn(NAME, text, wordEnd) && !text.startsWith(".=", wordEnd)) continue;
		const nameStart = runStart(NAME, text, m.index, 80);
		const name = text.slice(nameStart, wordEnd);
		const form = anchorForm(m);
		const start = valueStart(scan, m, form, nameStart, wordEnd);
		if (start < 0) continue;
		// An element's text runs to its closing tag (`<password>a&amp;b;c</password>`); another value to `plainEnd`.
		const element = form.element !== undefined;
		const plainEnd = element ? elementTextEnd(text, start) : scan.plainEnd(start);
		if (plainEnd === start || (!element && text.charAt(plainEnd) === "(")) continue;
		const end = element ? plainEnd : quotedValueEnd(text, start, plainEnd);
		// `key="ClearTextPassword" value="…"`: the label names the value, and is no secret itself. The scan goes on
		// inside it, so the label's last word anchors the pair.
		LABEL_THEN_VALUE.lastIndex = end;
		if (/^(?:key|name)$/i.test(name) && LABEL_THEN_VALUE.test(text)) continue;
		// A template literal (`\`Bearer ${token}\``) is code that builds the value, not the value.
		if (text.charAt(start - 1) === "`" && text.slice(start, text.indexOf("`", start) + 1 || end).includes("${"))
			continue;
		// The value is judged once and the scan goes on after it, taken or not: `key=key=key=…` is read once.
		anchor.from = Math.max(anchor.from, end);
		const value = text.slice(start, end);
		if (end === plainEnd && isSentenceStart(text, value, end)) continue;
		// An appended piece is a weaker sign than an assignment (`token += "-principals"` appends a suffix).
		const op = form.op;
		if ((op === "+=" || op === ".=") && !looksRandom(value.slice(0, 256))) continue;
		const markup = form.element ?? form.attribute ?? form.plist;
		if (markup !== undefined && isMarkupSample(name, value)) continue;
		const kind = assignedKind(name, value);
		if (kind !== undefined) into.push({ start, end, kind });
	}
}

/** The blanks of a line. */
const BLANK = charClass(" \t");

/** What ends an unquoted shell word: a blank, a quote, an operator (`mysql -p&` runs mysql in the background). */
const SHELL_WORD_END = charClass("\u0000-\u0020\"'&;|<>()");

/** The value after a flag or a command word: quoted to its closing quote on the line, or an unquoted shell word. */
function flagValue(scan: Scan, from: number): { start: number; end: number } {
	const text = scan.text;
	const quote = text.charAt(from);
	if (quote === "'" || quote === '"') {
		const end = scan.lineEnd(from);
		let close = from + 1;
		while (close < end && text.charAt(close) !== quote) close++;
		return { start: from + 1, end: close };
	}
	return { start: from, end: stopAt(SHELL_WORD_END, text, from) };
}

/** A value given on a command line that may be a secret: not a reference, a placeholder, another flag, a path. */
function isFlagSecret(value: string): boolean {
	return (
		value.length >= 4 &&
		!/^--?[A-Za-z][A-Za-z-]*$/.test(value) &&
		!isPlaceholder(value) &&
		!/^\d+$/.test(value) &&
		!isPath(value) &&
		(classes(value) >= 2 || looksRandom(value)) &&
		!isPlainUrl(value)
	);
}

/** A long flag that takes a secret: `--password X`, `--db-password=X`, `--token X`, `--api-key X`, `--client-secret X`. */
const SECRET_FLAG =
	/--(?:[a-z0-9]+-){0,3}(?:password|passwd|passphrase|token|secret|api-?key|apikey|access-key|secret-key|private-key)(?:=|[ \t]+)/gi;

function flagKind(flag: string): string {
	if (/pass/i.test(flag)) return "password";
	if (/token/i.test(flag)) return "token";
	return /secret/i.test(flag) ? "secret" : "key";
}

/** Secrets given as long flags. */
function* secretFlags(scan: Scan, into: SecretSpan[]): Steps {
	const text = scan.text;
	const anchor = new Search(SECRET_FLAG, text);
	for (let m = anchor.next(); m !== null; m = anchor.next()) {
		yield;
		if (isIn(NAME, text, m.index - 1)) continue;
		const value = flagValue(scan, m.index + m[0].length);
		if (isFlagSecret(text.slice(value.start, value.end)))
			into.push({ start: value.start, end: value.end, kind: flagKind(m[0]) });
	}
}

/** Commands that take a password in a short flag: `mysql -pX`, `sshpass -p X`, `curl -u user:X`. */
const SHORT_FLAG_COMMAND =
	/\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlsh|mariadb|mariadb-dump|sshpass|curl)\b/g;

/** Passwords in the short flags of the commands that take them, on the rest of the command's line. */
function* shortFlags(scan: Scan, into: SecretSpan[]): Steps {
	const text = scan.text;
	const anchor = new Search(SHORT_FLAG_COMMAND, text);
	for (let m = anchor.next(); m !== null; m = anchor.next()) {
		yield;
		const command = m[0];
		const from = m.index + command.length;
		const end = scan.lineEnd(from);
		// One read of the rest of the line: `-p` (attached for mysql, either for sshpass), `-u`/`--user` for curl.
		const line = text.slice(from, end);
		const flags = command === "curl" ? /[ \t](?:-u[ \t]*|--user[ \t=]+)/g : /[ \t]-p/g;
		for (let f = flags.exec(line); f !== null; f = flags.exec(line)) {
			let at = from + f.index + f[0].length;
			if (command === "sshpass") while (text.charAt(at) === " " || text.charAt(at) === "\t") at++;
			else if (command !== "curl" && (text.charAt(at) === " " || text.charAt(at) === "\t")) continue;
			const value = flagValue(scan, at);
			let start = value.start;
			if (command === "curl") {
				const colon = text.slice(value.start, value.end).indexOf(":");
				if (colon < 0) continue;
				start = value.start + colon + 1;
			}
			if (isFlagSecret(text.slice(start, value.end))) into.push({ start, end: value.end, kind: "password" });
			flags.lastIndex = Math.max(flags.lastIndex, value.end - from);
		}
		anchor.from = Math.max(anchor.from, end);
	}
}

/**
 * `export NAME VALUE`, `setenv NAME VALUE`, `aws configure set NAME VALUE`, a Dockerfile's `ENV NAME VALUE` (its
 * older form): a secret name, a blank, its value.
 */
const SET_COMMAND = /\b(?:export|setenv|set|ENV)[ \t]+([A-Za-z_/][A-Za-z0-9_./:-]{0,80})[ \t]+/g;

function* setCommands(scan: Scan, into: SecretSpan[]): Steps {
	const text = scan.text;
	const anchor = new Search(SET_COMMAND, text);
	for (let m = anchor.next(); m !== null; m = anchor.next()) {
		yield;
		const name = m[1] ?? "";
		if (nameStrength(name) === undefined) continue;
		const value = flagValue(scan, m.index + m[0].length);
		const kind = assignedKind(name, text.slice(value.start, value.end));
		if (kind !== undefined) into.push({ start: value.start, end: value.end, kind });
	}
}

/**
 * Passwords in URLs: `scheme://user:password@host`, `redis://:password@host`, a password holding `@` (the host
 * follows the last `@`), and a password a cut left at the end of a line. Only the password is taken.
 */
function* urlPasswords(scan: Scan, into: SecretSpan[]): Steps {
	const text = scan.text;
	for (let at = text.indexOf("://"); at >= 0; at = text.indexOf("://", at + 3)) {
		yield;
		const scheme = runStart(NAME, text, at, 20);
		if (at - scheme < 2 || !/[A-Za-z]/.test(text.charAt(scheme))) continue;
		const from = at + 3;
		const end = stopAt(AUTHORITY_END, text, from);
		// Both are looked for in the authority only: a search past it would read the text again for every URL.
		const authority = text.slice(from, end);
		const lastAt = authority.lastIndexOf("@") < 0 ? -1 : from + authority.lastIndexOf("@");
		const colon = authority.indexOf(":") < 0 ? -1 : from + authority.indexOf(":");
		const cut = lastAt < 0 && /^[ \t]*(?:\n|$)/.test(text.slice(end, end + 40));
		const passEnd = lastAt < 0 ? (cut ? end : -1) : lastAt;
		if (colon < 0 || passEnd <= colon + 1) continue;
		const pass = text.slice(colon + 1, passEnd);
		if (pass.length < 4 || /^\d+$/.test(pass) || isPlaceholder(pass)) continue;
		into.push({ start: colon + 1, end: passEnd, kind: "password in url" });
	}
}

/** A netrc `password` token, on a `machine` or `default` entry's line or the lines under it. */
const NETRC_PASSWORD = /(?:^|[ \t])password[ \t]+/gm;

/**
 * The most characters a finder reads back across line breaks: a netrc entry's `machine` and `login` before its
 * `password`. Every other finder reads within a line, but for a private key block (its own span).
 */
export const READS_BACK = 300;

function* netrcPasswords(scan: Scan, into: SecretSpan[]): Steps {
	const text = scan.text;
	const anchor = new Search(NETRC_PASSWORD, text);
	for (let m = anchor.next(); m !== null; m = anchor.next()) {
		yield;
		const before = text.slice(Math.max(0, m.index - READS_BACK), m.index);
		if (!/\b(?:machine|default)\s/.test(before) || !/\blogin\s+\S/.test(before)) continue;
		const value = flagValue(scan, m.index + m[0].length);
		if (value.end - value.start >= 4 && !isPlaceholder(text.slice(value.start, value.end)))
			into.push({ start: value.start, end: value.end, kind: "password" });
	}
}

/** A `Cookie:` or `Set-Cookie:` header, as a request shows it, in curl's `-H`, or as a JSON header. */
const COOKIE = /(set-)?cookie["']?[ \t]{0,3}:[ \t]{0,24}["']?/gi;
const COOKIE_NAME = /[A-Za-z0-9!#$%&*+.^_|~-]+=/y;
/**
 * What ends a cookie's value: `;`, a blank (JavaScript's `\s`), a quote, a comma, and `&`, where a query's next pair
 * starts (a header shown URL-encoded in a query). A table, so a value as long as its line is read in one tight loop.
 */
const COOKIE_VALUE_END = charClass(
	";\"',&\t\n\u000b\u000c\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff",
);

/** Cookie values (a session id, a token), but for short words (`theme=dark`); Set-Cookie's first pair only. */
function* cookies(scan: Scan, into: SecretSpan[]): Steps {
	const text = scan.text;
	const anchor = new Search(COOKIE, text);
	for (let m = anchor.next(); m !== null; m = anchor.next()) {
		yield;
		if (isIn(NAME, text, m.index - 1)) continue;
		const end = scan.lineEnd(m.index);
		let at = m.index + m[0].length;
		for (;;) {
			COOKIE_NAME.lastIndex = at;
			const name = COOKIE_NAME.exec(text);
			if (name === null || at >= end) break;
			const start = at + name[0].length;
			const stop = Math.min(stopAt(COOKIE_VALUE_END, text, start), end);
			const value = text.slice(start, stop);
			if (value.length >= 8 && !isPlaceholder(value) && !isPlainValue(value))
				into.push({ start, end: stop, kind: "cookie" });
			// The header's pairs are read once and the scan goes on after them: `cookie:x=cookie:x=…` is read once.
			anchor.from = Math.max(anchor.from, stop);
			if (m[1] !== undefined || text.charAt(stop) !== ";") break;
			at = stop + 1;
			while (text.charAt(at) === " ") at++;
		}
	}
}

/** A private key block, with or without its end line (a cut keeps only the start). */
const PRIVATE_KEY =
	/-----BEGIN[ A-Z]{0,20}PRIVATE KEY(?: BLOCK)?-----[A-Za-z0-9+/=\s\\]*(?:-----END[ A-Z]{0,20}PRIVATE KEY(?: BLOCK)?-----)?/g;
/** A private key's end line, where a cut kept only the end of the block. */
const PRIVATE_KEY_END = /-----END[ A-Z]{0,20}PRIVATE KEY(?: BLOCK)?-----/g;
/** The most characters of a key block read back from its end line (secretlint's own bound). */
const KEY_BLOCK_CHARS = 10_000;
/** What a key block's body holds: base64, escaped line breaks, and white space (what `\s` takes, one by one). */
const KEY_BODY = charClass(
	"A-Za-z0-9+/=\\\t\n\u000b\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff",
);

function* privateKeys(scan: Scan, into: SecretSpan[]): Steps {
	const text = scan.text;
	const begins = new Search(PRIVATE_KEY, text);
	for (let m = begins.next(); m !== null; m = begins.next()) {
		yield;
		into.push({ start: m.index, end: m.index + m[0].length, kind: "private key" });
	}
	const ends = new Search(PRIVATE_KEY_END, text);
	for (let m = ends.next(); m !== null; m = ends.next()) {
		yield;
		const start = runStart(KEY_BODY, text, m.index, KEY_BLOCK_CHARS);
		into.push({ start, end: m.index + m[0].length, kind: "private key" });
	}
}

/** A finder of one structure: what it finds in the scan's text, pushed into `into`, one anchor a step. */
type StructureFinder = (scan: Scan, into: SecretSpan[]) => Steps;

/** A finder of one structure, on a text. */
function onText(find: StructureFinder): Finder {
	return (text, into) => find(new Scan(text), into);
}

/**
 * The finders of structures, each on its own (the redactor may give the event loop a turn between them, and between
 * their steps on a long line none can be cut in). Each finds its spans in no particular order; spans may overlap.
 */
export const STRUCTURE_FINDERS: readonly Finder[] = [
	assignments,
	secretFlags,
	shortFlags,
	setCommands,
	urlPasswords,
	netrcPasswords,
	cookies,
	privateKeys,
].map(onText);

/** The private key blocks in `text`: where a text may not be cut into pieces read apart. */
export function privateKeySpans(text: string): SecretSpan[] {
	return findAll(onText(privateKeys), text);
}

// What `facts` counts as a value: a token of at least 3 characters that one of these patterns finds. They are
// the things a later turn looks up rather than re-derives: measurements with units, ports, hashes, versions and
// file paths. The patterns are facts' own, not Longhaul's ledger's, so the measure does not grade itself.

/** The kinds of value `facts` looks for. */
export type ValueKind = "quantity" | "port" | "hash" | "version" | "path";

/** A value found in a text. */
export interface FoundValue {
	readonly kind: ValueKind;
	readonly text: string;
}

const UNITS =
	"ms|s|secs?|seconds?|mins?|minutes?|hours?|[kKMG]i?B|bytes|tokens|lines|files|tests|passed|failed|errors?|warnings?|%";

const PATTERNS: readonly (readonly [ValueKind, RegExp])[] = [
	// A number and its unit: 117ms, 2.3 s, 49 errors, 12 passed, 85%.
	["quantity", new RegExp(`(?<![\\w.])\\d+(?:\\.\\d+)?\\s?(?:${UNITS})(?![\\w%])`, "g")],
	// A port after a local host or the word "port": the digits are the value.
	["port", /(?:(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]):|(?<![\w-])port[ :=]+)(\d{3,5})(?!\d)/gi],
	// Hex of 7 to 64 digits with at least one digit and one letter a-f: commit ids, digests.
	["hash", /(?<![\w-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}(?![\w-])/g],
	// Three-part versions, with an optional v and pre-release: 0.14.2, v1.2.3-beta.1.
	["version", /(?<![\w.])v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?(?![\w]|\.\d)/g],
	// A path with at least one slash that ends in a file name with an extension; URLs are left out.
	["path", /(?<![\w./~:@-])(?:~|\.{1,2})?\/?(?:[\w@.-]+\/)+[\w@-][\w@.-]*\.[A-Za-z0-9]{1,8}(?![\w/])/g],
];

const MIN_CHARS = 3;

/** Every value the patterns find in `text`, each once, in pattern order. */
export function valuesIn(text: string): FoundValue[] {
	const found = new Map<string, FoundValue>();
	for (const [kind, pattern] of PATTERNS) {
		for (const match of text.matchAll(pattern)) {
			const value = (kind === "port" ? match[1] : match[0]) ?? "";
			const key = `${kind}:${value}`;
			if (value.length >= MIN_CHARS && !found.has(key)) found.set(key, { kind, text: value });
		}
	}
	return [...found.values()];
}

function isWordChar(ch: string | undefined): boolean {
	return ch !== undefined && /[\w]/.test(ch);
}

function standsIn(text: string, needle: string): boolean {
	for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
		const before = text[at - 1];
		const after = text[at + needle.length];
		const edgeOk = (edge: string | undefined, inner: string | undefined) => !(isWordChar(edge) && isWordChar(inner));
		if (edgeOk(before, needle[0]) && edgeOk(after, needle[needle.length - 1])) return true;
	}
	return false;
}

/** A path as facts compares it: no `./` at its start, no empty or `.` segment, `a/../b` as `b`. */
function normalPath(path: string): string {
	const absolute = path.startsWith("/");
	const out: string[] = [];
	for (const segment of path.split("/")) {
		if (segment === "" || segment === ".") continue;
		if (segment === ".." && out.length > 0 && out.at(-1) !== "..") out.pop();
		else out.push(segment);
	}
	return `${absolute ? "/" : ""}${out.join("/")}`;
}

/** Two paths name the same file: equal once normalised, or one ends, segment by segment, with the other's two or more. */
function samePath(a: string, b: string): boolean {
	const [short, long] = a.length <= b.length ? [normalPath(a), normalPath(b)] : [normalPath(b), normalPath(a)];
	if (short === long) return true;
	const relative = short.replace(/^\//, "");
	return relative.includes("/") && long.endsWith(`/${relative}`);
}

/**
 * True when `text` holds the value: a path as a path the patterns find there, the same once normalised; any other
 * value verbatim and word-bounded (not inside a longer word or number), a quantity with or without its space.
 */
export function holdsValue(text: string, value: FoundValue): boolean {
	if (value.kind === "path") return valuesIn(text).some((v) => v.kind === "path" && samePath(v.text, value.text));
	if (standsIn(text, value.text)) return true;
	if (value.kind !== "quantity") return false;
	const spaced = /^(\d+(?:\.\d+)?)(\s?)(.+)$/.exec(value.text);
	if (spaced === null) return false;
	const [, number, space, unit] = spaced;
	return standsIn(text, `${number}${space === "" ? " " : ""}${unit}`);
}

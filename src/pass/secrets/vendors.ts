// Vendor tokens: one table of prefixes and the shape that follows each. The table makes the one pattern that finds
// where a token may start (built once from these constants, never from text) and the check of what follows it, read
// by class runs, so a run of prefixes costs one read.

import {
	ALNUM,
	BASE62,
	type CharClass,
	charClass,
	DIGITS,
	HEX,
	isIn,
	LETTERS,
	Runs,
	runStart,
	UPPER_DIGITS,
	URL_SAFE,
	WORD,
} from "./chars.js";
import { findAll, type SecretSpan, type Steps } from "./span.js";

/** Where a token found at a prefix starts and ends; the start may stand before the prefix (a Telegram bot's id). */
interface Found {
	readonly start: number;
	readonly end: number;
}

/** Reads the token whose prefix stands at [at, bodyAt): where it ends, or undefined (and how far it read). */
type Shape = (runs: Runs, at: number, bodyAt: number) => Found | undefined;

/** A vendor's token: its marker's kind, the prefixes it starts with, and the shape of the rest. */
interface Vendor {
	readonly kind: string;
	readonly prefixes: readonly string[];
	readonly shape: Shape;
}

/** Not running on into a longer word. */
function endsWord(text: string, end: number): boolean {
	return !isIn(WORD, text, end);
}

/** A body of `cls`, at least `min` long (a cut piece is still the vendor's), at most `max`, that ends a word. */
function run(cls: CharClass, min: number, max = Number.POSITIVE_INFINITY, check?: (body: string) => boolean): Shape {
	return (runs, at, bodyAt) => {
		const text = runs.text;
		const end = runs.end(cls, bodyAt);
		const length = end - bodyAt;
		if (length < min || length > max || !endsWord(text, end)) return undefined;
		if (check !== undefined && !check(text.slice(bodyAt, Math.min(end, bodyAt + 200)))) return undefined;
		return { start: at, end };
	};
}

const SLACK_BODY = charClass("A-Za-z0-9-");
const WEBHOOK_PATH = charClass("A-Za-z0-9/_-");
const OPS_BODY = charClass("A-Za-z0-9+/=");

/** A JWT: `eyJ` header, `.` payload, `.` signature, each base64url. */
const jwt: Shape = (runs, at) => {
	const text = runs.text;
	const header = runs.end(URL_SAFE, at);
	if (header - at < 11 || text.charAt(header) !== "." || !text.startsWith("eyJ", header + 1)) return undefined;
	const payload = runs.end(URL_SAFE, header + 1);
	if (payload - header < 12 || text.charAt(payload) !== ".") return undefined;
	const signature = runs.end(URL_SAFE, payload + 1);
	return signature - payload > 16 && endsWord(text, signature) ? { start: at, end: signature } : undefined;
};

/** SendGrid: `SG.` then two base64url parts joined by a dot (a cut may keep only the first). */
const sendgrid: Shape = (runs, at, bodyAt) => {
	const text = runs.text;
	const first = runs.end(URL_SAFE, bodyAt);
	if (first - bodyAt < 8) return undefined;
	const end = text.charAt(first) === "." ? runs.end(URL_SAFE, first + 1) : first;
	return endsWord(text, end) ? { start: at, end } : undefined;
};

/** A Telegram bot token: the bot's id (digits), `:`, then 35 base64url characters starting `AA` (found at `:AA`). */
const telegram: Shape = (runs, at) => {
	const text = runs.text;
	const start = runStart(DIGITS, text, at, 16);
	const id = at - start;
	if (id < 5 || isIn(ALNUM, text, start - 1) !== text.endsWith("bot", start)) return undefined;
	const end = runs.end(URL_SAFE, at + 1);
	return end - at - 1 === 35 && endsWord(text, end) ? { start, end } : undefined;
};

const hasDigit = (body: string) => /\d/.test(body);
const hasDigitOrUpper = (body: string) => /[0-9A-Z]/.test(body.slice(0, 40));
/** A random mix of upper and lower case: 5 or more of each (an identifier in camelCase has a few capitals). */
const mixedCase = (body: string) => body.replace(/[^A-Z]/g, "").length >= 5 && body.replace(/[^a-z]/g, "").length >= 5;

/**
 * A Slack token: Slack's tokens go on with a number after the prefix (`xoxb-<team>-…`, `xapp-1-…`, `xoxe-1-…`), so a
 * word after it (`xoxo-indieweb` in a file name, `xoxb-your-token`) is not one. Reads one character: a run of
 * prefixes costs one read of the run.
 */
const slack: Shape = (runs, at, bodyAt) => {
	const end = runs.end(SLACK_BODY, bodyAt);
	return end - bodyAt >= 4 && isIn(DIGITS, runs.text, bodyAt) && endsWord(runs.text, end)
		? { start: at, end }
		: undefined;
};

/** A legacy Slack workspace token (`xoxa-`, `xoxr-`): a number first, or 8 to 48 letters and digits holding a digit. */
const slackWorkspace: Shape = (runs, at, bodyAt) => {
	const numbered = slack(runs, at, bodyAt);
	if (numbered !== undefined) return numbered;
	const end = runs.end(ALNUM, bodyAt);
	const length = end - bodyAt;
	if (length < 8 || length > 48 || !endsWord(runs.text, end)) return undefined;
	return hasDigit(runs.text.slice(bodyAt, end)) ? { start: at, end } : undefined;
};

/**
 * The vendors. Prefixes and lengths from each vendor's documentation, gitleaks' published rules and secretlint's
 * recommended preset (docs/security.md names which); the minimum is lower where a cut piece must still be found.
 */
const VENDORS: readonly Vendor[] = [
	{ kind: "github token", prefixes: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"], shape: run(WORD, 4) },
	{ kind: "anthropic key", prefixes: ["sk-ant-"], shape: run(URL_SAFE, 4) },
	{ kind: "openai key", prefixes: ["sk-proj-", "sk-svcacct-", "sk-admin-"], shape: run(URL_SAFE, 4) },
	{ kind: "openai key", prefixes: ["sk-"], shape: run(BASE62, 16, Number.POSITIVE_INFINITY, hasDigit) },
	{ kind: "slack token", prefixes: ["xoxb-", "xoxe-", "xoxo-", "xoxp-", "xoxs-", "xapp-"], shape: slack },
	{ kind: "slack token", prefixes: ["xoxa-", "xoxr-"], shape: slackWorkspace },
	{ kind: "slack webhook", prefixes: ["https://hooks.slack.com/services/"], shape: run(WEBHOOK_PATH, 4) },
	{
		kind: "discord webhook",
		prefixes: [
			"https://discord.com/api/webhooks/",
			"https://discordapp.com/api/webhooks/",
			"https://ptb.discord.com/api/webhooks/",
			"https://canary.discord.com/api/webhooks/",
		],
		shape: run(WEBHOOK_PATH, 20),
	},
	{ kind: "npm token", prefixes: ["npm_"], shape: run(BASE62, 8, Number.POSITIVE_INFINITY, hasDigitOrUpper) },
	{ kind: "linear token", prefixes: ["lin_api_"], shape: run(WORD, 4) },
	{ kind: "shopify token", prefixes: ["shpat_", "shpca_", "shppa_", "shpss_"], shape: run(BASE62, 4) },
	{ kind: "sendgrid key", prefixes: ["SG."], shape: sendgrid },
	{ kind: "1password token", prefixes: ["ops_ey"], shape: run(OPS_BODY, 4) },
	{
		kind: "aws access key id",
		prefixes: ["AKIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ASIA"],
		shape: run(UPPER_DIGITS, 8, 16),
	},
	{ kind: "aws access key id", prefixes: ["A3T"], shape: run(UPPER_DIGITS, 9, 17) },
	{
		kind: "gitlab token",
		prefixes: ["glpat-", "gldt-", "glptt-", "glrt-", "glsoat-", "glft-", "glimt-", "glagent-"],
		shape: run(URL_SAFE, 20),
	},
	{ kind: "stripe key", prefixes: ["sk_live_", "sk_test_", "rk_live_", "rk_test_"], shape: run(BASE62, 16) },
	{ kind: "google api key", prefixes: ["AIza"], shape: run(URL_SAFE, 35, 35) },
	{ kind: "google access token", prefixes: ["ya29."], shape: run(URL_SAFE, 20) },
	// Hugging Face: 34 letters, upper and lower case mixed at random (gitleaks huggingface.go: `hf_[a-zA-Z]{34}`).
	{ kind: "huggingface token", prefixes: ["hf_"], shape: run(LETTERS, 34, 34, mixedCase) },
	{ kind: "digitalocean token", prefixes: ["dop_v1_", "doo_v1_", "dor_v1_"], shape: run(HEX, 64, 64) },
	{ kind: "docker token", prefixes: ["dckr_pat_"], shape: run(URL_SAFE, 20) },
	{ kind: "pypi token", prefixes: ["pypi-AgEIcHlwaS5vcmc"], shape: run(URL_SAFE, 50) },
	{ kind: "jwt", prefixes: ["eyJ"], shape: jwt },
	{ kind: "telegram bot token", prefixes: [":AA"], shape: telegram },
];

/** Each prefix and the vendors it may start, longest prefix first (so `sk-ant-` is tried before `sk-`). */
const BY_PREFIX: ReadonlyMap<string, readonly Vendor[]> = (() => {
	const map = new Map<string, Vendor[]>();
	for (const vendor of VENDORS) for (const p of vendor.prefixes) map.set(p, [...(map.get(p) ?? []), vendor]);
	return new Map([...map].sort(([a], [b]) => b.length - a.length));
})();

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Where a token may start: every prefix of the table, longest first. Built once from the table's constants. */
const PREFIX = new RegExp([...BY_PREFIX.keys()].map(escapeRegExp).join("|"), "g");

/** The most characters after a vendor's prefix an elided example shows before its `...` (`sk-ant-api03-...`). */
const ELIDED_BODY = 6;

/**
 * An elided example of a token: a few characters after the prefix, then `...` or `…` (documentation's
 * `sk-ant-api03-...`, `ghp_...`). A longer piece before a cut mark may be a real token cut short, and is taken.
 */
function isElidedExample(text: string, bodyAt: number, end: number): boolean {
	return end - bodyAt <= ELIDED_BODY && (text.startsWith("...", end) || text.charAt(end) === "\u2026");
}

/** Not inside a longer word (a prefix that starts a word; `:AA` of a Telegram token is read back from). */
function startsWord(text: string, at: number, prefix: string): boolean {
	return prefix === ":AA" || !isIn(ALNUM, text, at - 1);
}

/**
 * The vendor tokens in `text`, one prefix a step. A token found is taken whole and the search goes on after it, and a
 * run read once is not read again (`Runs`), so a run of prefixes (`ghp_ghp_ghp_…`, `-AIza-AIza…`) is read once:
 * linear in the text.
 */
export function* vendorTokens(text: string, spans: SecretSpan[]): Steps {
	const runs = new Runs(text);
	const prefix = new RegExp(PREFIX.source, "g");
	for (let m = prefix.exec(text); m !== null; m = prefix.exec(text)) {
		yield;
		const at = m.index;
		const p = m[0];
		if (!startsWord(text, at, p)) continue;
		for (const vendor of BY_PREFIX.get(p) ?? []) {
			const found = vendor.shape(runs, at, at + p.length);
			if (found === undefined || isElidedExample(text, at + p.length, found.end)) continue;
			spans.push({ start: found.start, end: found.end, kind: vendor.kind });
			prefix.lastIndex = Math.max(prefix.lastIndex, found.end);
			break;
		}
	}
}

/** The vendor tokens in `text`, all at once. */
export function vendorSpans(text: string): SecretSpan[] {
	return findAll(vendorTokens, text);
}

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
	runEnd,
	runStart,
	UPPER_DIGITS,
	URL_SAFE,
	WORD,
} from "./chars.js";
import { Search } from "./search.js";
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

/** The shape, where no `(` follows it: a token is never called (Go's `s.ReadUint16LengthPrefixed(…)` is code). */
function notCalled(shape: Shape): Shape {
	return (runs, at, bodyAt) => {
		const found = shape(runs, at, bodyAt);
		return found === undefined || runs.text.charAt(found.end) === "(" ? undefined : found;
	};
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
const HEX_ANY_CASE = charClass("0-9a-fA-F");
const HEX_DASH = charClass("0-9a-fA-F-");
const ALNUM_DASH = charClass("A-Za-z0-9-");
const UPPER_DIGITS_DASH = charClass("A-Z0-9-");
/** PlanetScale's body: `[\w=.-]` (gitleaks planetscale.go). */
const PSCALE_BODY = charClass("A-Za-z0-9_=.-");
/** A Doppler service token's body: an optional config name and a dot, then the token (Doppler's token formats). */
const DOPPLER_ST_BODY = charClass("A-Za-z0-9_.-");
const DOPPLER_CONFIG = charClass("a-z0-9_-");
/** A Sentry org token: base64 of its JSON claims, `_`, then 43 base64 characters (gitleaks sentry.go). */
const SENTRY_ORG_BODY = charClass("A-Za-z0-9+/=_");
const TERRAFORM_BODY = charClass("A-Za-z0-9_=-");
/** age's bech32 alphabet, upper case (age's spec; gitleaks age.go). */
const BECH32_UPPER = charClass("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L");

const hasDigit = (body: string) => /\d/.test(body);
const hasDigitOrUpper = (body: string) => /[0-9A-Z]/.test(body.slice(0, 40));
/** A random mix of upper and lower case: 5 or more of each (an identifier in camelCase has a few capitals). */
const mixedCase = (body: string) => body.replace(/[^A-Z]/g, "").length >= 5 && body.replace(/[^a-z]/g, "").length >= 5;
const digitUpperLower = (body: string) => /\d/.test(body) && /[A-Z]/.test(body) && /[a-z]/.test(body);
/**
 * Random, as an issued token is, not a placeholder or an example: no character six times running (`xxxxxx`,
 * `555555`), eight distinct characters or more (not `123123…`), and no `EXAMPLE` (AWS's documentation's mark). A
 * body longer than 64 is base64 of binary (a Fly.io macaroon, a Vault batch token), where zero bytes make `AAAAAAAA`:
 * there only a run of 16 is a placeholder's.
 */
const random = (body: string) => {
	const seen = new Set<string>();
	const longest = body.length > 64 ? 16 : 6;
	let repeated = 1;
	for (let i = 0; i < body.length; i++) {
		repeated = i > 0 && body.charAt(i) === body.charAt(i - 1) ? repeated + 1 : 1;
		if (repeated >= longest) return false;
		seen.add(body.charAt(i));
	}
	return seen.size >= 8 && !body.includes("EXAMPLE");
};
/**
 * Mixed as a random body is, not as a camelCase name (`ReadUint16LengthPrefixed`: 4 capitals of 20 letters, one
 * number): capitals a third of its letters or more, or four digits or more.
 */
const notCamelCase = (body: string) => {
	const upper = body.replace(/[^A-Z]/g, "").length;
	return upper * 3 >= body.replace(/[^A-Za-z]/g, "").length || body.replace(/\D/g, "").length >= 4;
};
/** Every one of `checks` holds. */
const all =
	(...checks: readonly ((body: string) => boolean)[]) =>
	(body: string) =>
		checks.every((check) => check(body));
/** A body made of `sep`-joined pieces of the given lengths, one of `layouts`. */
const layout =
	(sep: string, ...layouts: readonly number[][]) =>
	(body: string) => {
		const lengths = body.split(sep).map((piece) => piece.length);
		return layouts.some((l) => l.length === lengths.length && l.every((n, i) => lengths[i] === n));
	};
/** Sourcegraph: 40 hex, or 16 hex or `local`, `_`, and 40 hex (gitleaks sourcegraph.go). */
const sourcegraphBody = (body: string) => /^(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}$/.test(body);
/** Brevo: 64 lower-case hex, `-`, 16 letters and digits (gitleaks sendinblue.go). */
const brevoBody = (body: string) => /^[a-f0-9]{64}-[A-Za-z0-9]{16}$/.test(body);

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
 * A Doppler service token: `dp.st.`, an optional config name (2 or more of `[a-z0-9_-]`) and `.`, then 40-44
 * alphanumerics, 80 characters at most after the prefix (Doppler names a config in 35 at most).
 */
const dopplerService: Shape = (runs, at, bodyAt) => {
	const text = runs.text;
	const end = runs.end(DOPPLER_ST_BODY, bodyAt);
	if (end - bodyAt > 80) return undefined;
	const dot = text.slice(bodyAt, end).indexOf(".");
	const tokenAt = dot >= 0 ? bodyAt + dot + 1 : bodyAt;
	if (tokenAt > bodyAt && (tokenAt - 1 - bodyAt < 2 || runEnd(DOPPLER_CONFIG, text, bodyAt) !== tokenAt - 1))
		return undefined;
	const length = end - tokenAt;
	if (length < 40 || length > 44 || runEnd(ALNUM, text, tokenAt) !== end) return undefined;
	return random(text.slice(tokenAt, end)) ? { start: at, end } : undefined;
};

/** A Sentry org token: `sntrys_eyJ`, the rest of its base64 claims, then `_` and 43 base64 characters at the end. */
const sentryOrg: Shape = (runs, at, bodyAt) => {
	const text = runs.text;
	const end = runs.end(SENTRY_ORG_BODY, bodyAt);
	const secretAt = end - 43;
	if (secretAt - bodyAt < 20 || text.charAt(secretAt - 1) !== "_") return undefined;
	const secret = text.slice(secretAt, end);
	return !secret.includes("_") && random(secret) ? { start: at, end } : undefined;
};

/** Terraform Cloud: 14 letters and digits, `.atlasv1.` (found there), then 60-70 of `[A-Za-z0-9_=-]`. */
const terraform: Shape = (runs, at, bodyAt) => {
	const text = runs.text;
	const start = runStart(ALNUM, text, at, 15);
	if (at - start !== 14 || isIn(WORD, text, start - 1)) return undefined;
	const end = runs.end(TERRAFORM_BODY, bodyAt);
	const length = end - bodyAt;
	if (length < 60 || length > 70 || !endsWord(text, end)) return undefined;
	return random(text.slice(bodyAt, end)) ? { start, end } : undefined;
};

/** Databricks: `dapi`, 32 lower-case hex digits, and an optional `-<digit>` (gitleaks databricks.go). */
const databricks: Shape = (runs, at, bodyAt) => {
	const text = runs.text;
	let end = runs.end(HEX, bodyAt);
	if (end - bodyAt !== 32) return undefined;
	if (!random(text.slice(bodyAt, end))) return undefined;
	if (text.charAt(end) === "-" && isIn(DIGITS, text, end + 1)) end += 2;
	return endsWord(text, end) ? { start: at, end } : undefined;
};

/**
 * The vendors. Prefixes and lengths from each vendor's documentation, gitleaks' published rules and secretlint's
 * recommended preset (docs/security.md names which); the minimum is lower where a cut piece must still be found.
 * Where a prefix is short or a word could follow it, the body's exact documented length and alphabet are required.
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
	// 1Password's account secret key: A3-, then 6, 11 (or 6-5), 5, 5, 5 capitals and digits (gitleaks 1password.go).
	{
		kind: "1password secret key",
		prefixes: ["A3-"],
		shape: run(UPPER_DIGITS_DASH, 36, 37, all(random, layout("-", [6, 11, 5, 5, 5], [6, 6, 5, 5, 5, 5]))),
	},
	{
		kind: "aws access key id",
		prefixes: ["AKIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ASIA"],
		shape: run(UPPER_DIGITS, 8, 16),
	},
	{ kind: "aws access key id", prefixes: ["A3T"], shape: run(UPPER_DIGITS, 9, 17) },
	// Bedrock's long-lived key is ABSK and base64 of "BedrockAPIKey-…"; the short-lived one starts with base64 of
	// "bedrock.amazonaws.com" (gitleaks aws.go).
	{
		kind: "aws bedrock key",
		prefixes: ["ABSKQmVkcm9ja0FQSUtleS"],
		shape: run(OPS_BODY, 20, Number.POSITIVE_INFINITY, random),
	},
	{ kind: "aws bedrock key", prefixes: ["bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t"], shape: run(OPS_BODY, 0) },
	{
		kind: "gitlab token",
		prefixes: ["glpat-", "gldt-", "glptt-", "glrt-", "glsoat-", "glft-", "glimt-", "glagent-"],
		shape: run(URL_SAFE, 20),
	},
	// GitLab's other prefixes (gitleaks gitlab.go: CI/CD job, OAuth app secret, feature flag, runner registration).
	{
		kind: "gitlab token",
		prefixes: ["glcbt-", "gloas-", "glffct-", "GR1348941"],
		shape: run(URL_SAFE, 20, Number.POSITIVE_INFINITY, random),
	},
	{
		kind: "stripe key",
		prefixes: ["sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"],
		shape: run(BASE62, 16),
	},
	// Stripe's (and Svix's) webhook signing secret: whsec_ and base64 (Stripe's webhooks docs; Svix's docs).
	{ kind: "stripe webhook secret", prefixes: ["whsec_"], shape: run(OPS_BODY, 24, Number.POSITIVE_INFINITY, random) },
	{ kind: "google api key", prefixes: ["AIza"], shape: run(URL_SAFE, 35, 35) },
	{ kind: "google access token", prefixes: ["ya29."], shape: run(URL_SAFE, 20) },
	// Hugging Face: 34 letters, upper and lower case mixed at random (gitleaks huggingface.go: `hf_[a-zA-Z]{34}`).
	{ kind: "huggingface token", prefixes: ["hf_", "api_org_"], shape: run(LETTERS, 34, 34, mixedCase) },
	{ kind: "digitalocean token", prefixes: ["dop_v1_", "doo_v1_", "dor_v1_"], shape: run(HEX, 64, 64) },
	{ kind: "docker token", prefixes: ["dckr_pat_"], shape: run(URL_SAFE, 20) },
	{ kind: "pypi token", prefixes: ["pypi-AgEIcHlwaS5vcmc"], shape: run(URL_SAFE, 50) },
	// HashiCorp Vault: service (hvs.) and recovery (hvr.) tokens 90 or more, batch tokens (hvb.) 138 or more
	// characters (Vault's token docs; gitleaks hashicorp_vault.go); a legacy service token is s. and 24 letters and
	// digits, mixed as a random one is (gitleaks allows `s.` and 24 letters only).
	{ kind: "vault token", prefixes: ["hvs.", "hvr."], shape: run(URL_SAFE, 90, Number.POSITIVE_INFINITY, random) },
	{ kind: "vault token", prefixes: ["hvb."], shape: run(URL_SAFE, 138, Number.POSITIVE_INFINITY, random) },
	{
		kind: "vault token",
		prefixes: ["s."],
		shape: notCalled(run(ALNUM, 24, 24, all(random, digitUpperLower, notCamelCase))),
	},
	// Doppler's token formats (docs.doppler.com, "Auth Token Formats"): 40-44 letters and digits after the prefix.
	{
		kind: "doppler token",
		prefixes: ["dp.pt.", "dp.ct.", "dp.sa.", "dp.said.", "dp.scim.", "dp.audit."],
		shape: run(ALNUM, 40, 44, random),
	},
	{ kind: "doppler token", prefixes: ["dp.st."], shape: dopplerService },
	{ kind: "heroku token", prefixes: ["HRKU-AA"], shape: run(URL_SAFE, 58, 58, random) },
	{
		kind: "planetscale token",
		prefixes: ["pscale_pw_", "pscale_tkn_", "pscale_oauth_"],
		shape: run(PSCALE_BODY, 32, 64, random),
	},
	{ kind: "sentry token", prefixes: ["sntrys_eyJ"], shape: sentryOrg },
	{ kind: "sentry token", prefixes: ["sntryu_"], shape: run(HEX, 64, 64, random) },
	// Grafana (gitleaks grafana.go): a service account token is 32 letters and digits, `_`, 8 hex; a cloud token
	// base64; a legacy API key base64 of `{"k":"…` (which no JWT's header starts with, but a JWT is still tried there).
	{ kind: "grafana token", prefixes: ["glsa_"], shape: run(WORD, 41, 41, all(random, layout("_", [32, 8]))) },
	{ kind: "grafana token", prefixes: ["glc_"], shape: run(OPS_BODY, 32, 403, all(random, hasDigit)) },
	{ kind: "grafana token", prefixes: ["eyJrIjoi"], shape: run(OPS_BODY, 70, 403, random) },
	{ kind: "jwt", prefixes: ["eyJrIjoi"], shape: jwt },
	{ kind: "postman key", prefixes: ["PMAK-"], shape: run(HEX_DASH, 59, 59, all(random, layout("-", [24, 34]))) },
	// New Relic (gitleaks newrelic.go): user keys NRAK- and 27, browser NRJS- and 19 hex, insert NRII- and 32.
	{ kind: "new relic key", prefixes: ["NRAK-"], shape: run(ALNUM, 27, 27, random) },
	{ kind: "new relic key", prefixes: ["NRJS-"], shape: run(HEX, 19, 19, random) },
	{ kind: "new relic key", prefixes: ["NRII-"], shape: run(ALNUM_DASH, 32, 32, random) },
	// Notion: ntn_, 11 digits, 35 letters and digits (gitleaks notion.go).
	{
		kind: "notion token",
		prefixes: ["ntn_"],
		shape: run(
			ALNUM,
			46,
			46,
			all(random, (b) => runEnd(DIGITS, b, 0) >= 11),
		),
	},
	// Pulumi: pul- and exactly 40 lower-case hex, so `pul-request` and other words are not taken (gitleaks pulumi.go).
	{ kind: "pulumi token", prefixes: ["pul-"], shape: run(HEX, 40, 40, random) },
	{ kind: "perplexity key", prefixes: ["pplx-"], shape: run(ALNUM, 48, 48, random) },
	{ kind: "sourcegraph token", prefixes: ["sgp_"], shape: run(WORD, 40, 62, all(random, sourcegraphBody)) },
	{ kind: "brevo key", prefixes: ["xkeysib-"], shape: run(ALNUM_DASH, 81, 81, all(random, brevoBody)) },
	{ kind: "age secret key", prefixes: ["AGE-SECRET-KEY-1"], shape: run(BECH32_UPPER, 58, 58, random) },
	// Fly.io (fly.io/docs/security/tokens; gitleaks flyio.go): fo1_ and 43, macaroons fm1a_/fm1r_/fm2_ and base64.
	{ kind: "fly token", prefixes: ["fo1_"], shape: run(URL_SAFE, 43, 43, random) },
	{
		kind: "fly token",
		prefixes: ["fm1a_", "fm1r_", "fm2_"],
		shape: run(OPS_BODY, 100, Number.POSITIVE_INFINITY, random),
	},
	{ kind: "terraform token", prefixes: [".atlasv1."], shape: terraform },
	{ kind: "databricks token", prefixes: ["dapi"], shape: databricks },
	// Twilio's API key SID: SK and exactly 32 hex (gitleaks twilio.go).
	{ kind: "twilio api key", prefixes: ["SK"], shape: run(HEX_ANY_CASE, 32, 32, random) },
	{ kind: "openshift token", prefixes: ["sha256~"], shape: run(URL_SAFE, 43, 43, random) },
	// Square (gitleaks square.go): an access token sq0atp- and 22-60, an OAuth secret sq0csp- and 43.
	{ kind: "square token", prefixes: ["sq0atp-"], shape: run(URL_SAFE, 22, 60, random) },
	{ kind: "square token", prefixes: ["sq0csp-"], shape: run(URL_SAFE, 43, 43, random) },
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

/** The prefixes found inside a token, whose shape reads back to where the token starts. */
const READ_BACK: ReadonlySet<string> = new Set([":AA", ".atlasv1."]);

/** Not inside a longer word (a prefix that starts a word; a prefix in `READ_BACK` is read back from). */
function startsWord(text: string, at: number, prefix: string): boolean {
	return READ_BACK.has(prefix) || !isIn(ALNUM, text, at - 1);
}

/**
 * The vendor tokens in `text`, one prefix a step. A token found is taken whole and the search goes on after it, and a
 * run read once is not read again (`Runs`), so a run of prefixes (`ghp_ghp_ghp_…`, `-AIza-AIza…`) is read once:
 * linear in the text.
 */
export function* vendorTokens(text: string, spans: SecretSpan[]): Steps {
	const runs = new Runs(text);
	const prefix = new Search(PREFIX, text);
	for (let m = prefix.next(); m !== null; m = prefix.next()) {
		yield;
		const at = m.index;
		const p = m[0];
		// A prefix that starts no token may hold the start of another (`….atlasv1.` after a token's `s`): go on
		// from the next character.
		prefix.from = at + 1;
		if (!startsWord(text, at, p)) continue;
		for (const vendor of BY_PREFIX.get(p) ?? []) {
			const found = vendor.shape(runs, at, at + p.length);
			if (found === undefined || isElidedExample(text, at + p.length, found.end)) continue;
			spans.push({ start: found.start, end: found.end, kind: vendor.kind });
			prefix.from = Math.max(prefix.from, found.end);
			break;
		}
	}
}

/** The vendor tokens in `text`, all at once. */
export function vendorSpans(text: string): SecretSpan[] {
	return findAll(vendorTokens, text);
}

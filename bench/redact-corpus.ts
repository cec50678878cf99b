// The secret corpus redaction is measured on (test/unit/adapters/redact/corpus.test.ts and `npm run bench`): secrets of
// many kinds GENERATED from a seed when it runs (no token stands in git: each is built from its prefix and a random
// body), each shown in every form of FORMS: plain, in terminal colours, behind escaped colour codes, split by a
// zero-width character, written with JSON \u escapes and percent-encoded. The vendor shapes follow the vendors' docs
// and gitleaks' published rules (cmd/generate/config/rules: telegram.go, gcp.go, discord.go), not Longhaul's patterns.
// The ordinary strings, which hold no secret, are in bench/redact-ordinary-corpus.ts.

/** A secret as it stands in text, its random part (no 12 characters of which may survive), and its kind. */
export interface Planted {
	readonly kind: string;
	readonly text: string;
	readonly body: string;
}

/** A generator of numbers in [0, 1) from a seed (mulberry32): the same seed gives the same corpus. */
export function seeded(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const LOWER = "abcdefghijklmnopqrstuvwxyz";
export const DIGITS = "0123456789";
export const BASE62 = `${UPPER}${LOWER}${DIGITS}`;
export const BASE64 = `${BASE62}+/`;
export const URL_SAFE = `${BASE62}_-`;
/** What generated passwords hold besides letters and digits, in the ones people pass on a command line. */
const PASSWORD = `${BASE62}._~-`;
export const HEX = "0123456789abcdef";
const BASE32 = `${UPPER}234567`;

export type Random = () => number;

/** `length` characters of `alphabet`, with at least one digit and one letter (as a generated key has). */
export function chars(random: Random, alphabet: string, length: number): string {
	for (;;) {
		let out = "";
		for (let i = 0; i < length; i++) out += alphabet.charAt(Math.floor(random() * alphabet.length));
		if (/\d/.test(out) === /\d/.test(alphabet) && /[A-Za-z]/.test(out) === /[A-Za-z]/.test(alphabet)) return out;
	}
}

/** base64url of random bytes' worth of characters, as a JWT's parts are. */
function jwtPart(random: Random, json: string): string {
	return `${Buffer.from(json).toString("base64url")}${chars(random, URL_SAFE, 8)}`;
}

export function pem(label: string, body: string): string {
	const lines = body.match(/.{1,64}/g) ?? [];
	return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----`;
}

/** A kind of secret and its generator: the secret's text in context and the random body that must not survive. */
interface Kind {
	readonly kind: string;
	readonly make: (random: Random) => Omit<Planted, "kind">;
}

/** One generator per kind: the secret's text in context and the random body that must not survive. */
const KINDS: readonly Kind[] = [
	{ kind: "github token", make: (r) => token("ghp_", chars(r, BASE62, 36)) },
	{ kind: "github oauth token", make: (r) => token("gho_", chars(r, BASE62, 36)) },
	{ kind: "github app token", make: (r) => token("ghs_", chars(r, BASE62, 36)) },
	{
		kind: "github fine-grained token",
		make: (r) => token("github_pat_", `11A${chars(r, BASE62, 19)}_${chars(r, BASE62, 59)}`),
	},
	{ kind: "gitlab token", make: (r) => token("glpat-", chars(r, URL_SAFE, 20)) },
	{ kind: "slack bot token", make: (r) => slack(r, "xoxb") },
	{ kind: "slack user token", make: (r) => slack(r, "xoxp") },
	{
		kind: "slack webhook",
		make: (r) => {
			const body = chars(r, BASE62, 24);
			return {
				text: `https://hooks.slack.com/services/T${chars(r, BASE62, 10)}/B${chars(r, BASE62, 10)}/${body}`,
				body,
			};
		},
	},
	{ kind: "stripe secret key", make: (r) => token(["sk", "live", ""].join("_"), chars(r, BASE62, 99)) },
	{ kind: "stripe restricted key", make: (r) => token(["rk", "live", ""].join("_"), chars(r, BASE62, 99)) },
	{ kind: "stripe test key", make: (r) => token(["sk", "test", ""].join("_"), chars(r, BASE62, 24)) },
	{ kind: "aws access key id", make: (r) => token("AKIA", chars(r, BASE32, 16)) },
	{ kind: "aws secret access key", make: (r) => named("AWS_SECRET_ACCESS_KEY=", chars(r, BASE64, 40)) },
	{ kind: "aws session token", make: (r) => named("AWS_SESSION_TOKEN=", chars(r, BASE64, 200)) },
	{ kind: "gcp api key", make: (r) => token("AIza", chars(r, URL_SAFE, 35)) },
	{
		kind: "gcp service account key",
		make: (r) => {
			const body = chars(r, BASE64, 600);
			const key = pem("PRIVATE KEY", `MII${body}`);
			return { text: `{"type": "service_account", "private_key": ${JSON.stringify(`${key}\n`)}}`, body };
		},
	},
	{
		kind: "openai project key",
		make: (r) => token("sk-proj-", `${chars(r, URL_SAFE, 58)}T3BlbkFJ${chars(r, URL_SAFE, 58)}`),
	},
	{ kind: "openai key", make: (r) => token("sk-", `${chars(r, BASE62, 20)}T3BlbkFJ${chars(r, BASE62, 20)}`) },
	{ kind: "anthropic key", make: (r) => token("sk-ant-api03-", `${chars(r, URL_SAFE, 93)}AA`) },
	{
		kind: "jwt",
		make: (r) => {
			const body = `${jwtPart(r, '{"sub":"1234567890","name":"dev"}')}.${chars(r, URL_SAFE, 43)}`;
			return { text: `${jwtPart(r, '{"alg":"HS256","typ":"JWT"}')}.${body}`, body: body.slice(body.indexOf(".") - 8) };
		},
	},
	{ kind: "rsa private key", make: (r) => block("RSA PRIVATE KEY", `MII${chars(r, BASE64, 600)}`) },
	{
		kind: "openssh private key",
		make: (r) => block("OPENSSH PRIVATE KEY", `b3BlbnNzaC1rZXktdjEAAAAA${chars(r, BASE64, 400)}`),
	},
	{ kind: "ec private key", make: (r) => block("EC PRIVATE KEY", `MHc${chars(r, BASE64, 160)}`) },
	framed("password in url", "https://deploy:", BASE62, 18, "@git.example.com/repo.git"),
	framed("database password", "postgres://app:", BASE62, 18, "@db.internal:5432/app"),
	framed("mongodb password", "mongodb+srv://admin:", BASE62, 20, "@cluster0.ab1cd.mongodb.net/"),
	{ kind: "npm token", make: (r) => token("npm_", chars(r, BASE62, 36)) },
	{ kind: "npmrc auth token", make: (r) => named("//registry.npmjs.org/:_authToken=", chars(r, BASE62, 36)) },
	{ kind: "linear token", make: (r) => token("lin_api_", chars(r, BASE62, 40)) },
	{
		kind: "sendgrid key",
		make: (r) => {
			const body = `${chars(r, URL_SAFE, 22)}.${chars(r, URL_SAFE, 43)}`;
			return { text: `SG.${body}`, body };
		},
	},
	{ kind: "shopify token", make: (r) => token("shpat_", chars(r, HEX, 32)) },
	{ kind: "huggingface token", make: (r) => token("hf_", chars(r, `${UPPER}${LOWER}`, 34)) },
	{ kind: "digitalocean token", make: (r) => token("dop_v1_", chars(r, HEX, 64)) },
	{ kind: "docker hub token", make: (r) => token("dckr_pat_", chars(r, URL_SAFE, 27)) },
	{ kind: "pypi token", make: (r) => token("pypi-AgEIcHlwaS5vcmc", chars(r, URL_SAFE, 70)) },
	{ kind: "api key assignment", make: (r) => named("STRIPE_API_KEY=", chars(r, BASE62, 32)) },
	{
		kind: "password in JSON",
		make: (r) => {
			const body = chars(r, BASE62, 20);
			return { text: `"password": "${body}"`, body };
		},
	},
	{ kind: "bearer token", make: (r) => named("Authorization: Bearer ", chars(r, BASE62, 40)) },
	{
		kind: "basic auth header",
		make: (r) => {
			const body = Buffer.from(`deploy:${chars(r, BASE62, 24)}`).toString("base64");
			return { text: `Authorization: Basic ${body}`, body };
		},
	},
	// Values longer than 512 characters after a secret name (issue 27): a base64 private key as a CI secret holds it.
	{ kind: "long value after a secret name (800 chars)", make: (r) => named("DEPLOY_SSH_KEY=", keyBase64(r, 800)) },
	{ kind: "long value after a secret name (2,300 chars)", make: (r) => named("DEPLOY_SSH_KEY=", keyBase64(r, 2300)) },
	// URL userinfo: a password with no user (redis's `requirepass` form) and a password holding an unescaped `@`.
	framed("redis url password", "redis://:", BASE62, 24, "@cache.internal:6379/0"),
	{
		kind: "url password holding @",
		make: (r) => url("postgres://app:", `${chars(r, BASE62, 6)}@${chars(r, BASE62, 14)}`, "@db.internal:5432/app"),
	},
	// Flags and their values, as each tool documents them.
	framed("--password flag", "docker login --username ci --password ", PASSWORD, 20, " registry.example.com"),
	framed("--password= flag", "mysqldump --user=backup --password=", PASSWORD, 18, " --single-transaction app"),
	framed("--token flag", "kubectl --server=https://10.0.0.1:6443 --token ", URL_SAFE, 40, " get pods -A"),
	framed("--api-key flag", "pi --provider openrouter --api-key ", BASE62, 40, ' -p "summarize the diff"'),
	framed("mysql -p", "mysql -u root -p", PASSWORD, 16, " -h db.internal app"),
	{
		kind: "sshpass -p",
		make: (r) => {
			const body = chars(r, PASSWORD, 16);
			const quote = r() < 0.5 ? "'" : "";
			return url(`sshpass -p ${quote}`, body, `${quote} ssh deploy@10.0.0.5 uptime`);
		},
	},
	framed("curl -u user:password", "curl -sS -u admin:", PASSWORD, 20, " https://ci.example.com/api/json"),
	{
		kind: "aws configure set",
		make: (r) => named("aws configure set aws_secret_access_key ", chars(r, BASE64, 40)),
	},
	{ kind: "export NAME value", make: (r) => named("export AWS_SECRET_ACCESS_KEY ", chars(r, BASE64, 40)) },
	framed("netrc line", "machine git.example.com login deploy password ", PASSWORD, 24, ""),
	framed(
		"netrc line written by echo",
		'echo "machine api.example.com login ci password ',
		PASSWORD,
		24,
		'" >> ~/.netrc',
	),
	framed("x-api-key header", 'curl -H "x-api-key: ', BASE62, 40, '" https://api.example.com/v1/items'),
	{
		kind: "cookie header",
		make: (r) =>
			url(
				`Cookie: _ga=GA1.1.${chars(r, DIGITS, 10)}.${chars(r, DIGITS, 10)}; sessionid=`,
				chars(r, `${LOWER}${DIGITS}`, 32),
				"; theme=dark",
			),
	},
	framed("set-cookie header", "Set-Cookie: __Host-session=", URL_SAFE, 43, "; Path=/; Secure; HttpOnly; SameSite=Lax"),
	// Vendor shapes: Discord's webhook URL (an id and a 68-character token), Telegram's bot token (a bot id, a colon,
	// 35 characters starting with A: gitleaks' telegram.go), Google's OAuth access token (`ya29.`).
	{
		kind: "discord webhook",
		make: (r) => url(`https://discord.com/api/webhooks/${chars(r, DIGITS, 19)}/`, chars(r, URL_SAFE, 68), ""),
	},
	{
		kind: "telegram bot token in a url",
		make: (r) =>
			url(`curl -s https://api.telegram.org/bot${chars(r, DIGITS, 10)}:`, `AA${chars(r, URL_SAFE, 33)}`, "/getMe"),
	},
	{
		kind: "telegram bot token in code",
		make: (r) => url(`const bot = new Telegraf("${chars(r, DIGITS, 9)}:`, `AA${chars(r, URL_SAFE, 33)}`, '");'),
	},
	{ kind: "google oauth access token", make: (r) => token("ya29.", `a0A${chars(r, URL_SAFE, 170)}`) },
	// Vendor tokens CLIs print bare, each in its documented form: Vault's token docs and gitleaks hashicorp_vault.go;
	// docs.doppler.com "Auth Token Formats"; the rest gitleaks' rule files (cmd/generate/config/rules/<vendor>.go).
	{ kind: "vault service token", make: (r) => token("hvs.", `CAESI${chars(r, URL_SAFE, 90)}`) },
	{ kind: "vault batch token", make: (r) => token("hvb.", `AAAAAQ${chars(r, URL_SAFE, 140)}`) },
	{ kind: "vault legacy token", make: (r) => named("VAULT_TOKEN=s.", chars(r, BASE62, 24)) },
	{ kind: "doppler personal token", make: (r) => token("dp.pt.", chars(r, BASE62, 43)) },
	{ kind: "doppler service token", make: (r) => token("dp.st.prd.", chars(r, BASE62, 43)) },
	{ kind: "heroku token", make: (r) => token("HRKU-AA", chars(r, URL_SAFE, 58)) },
	{ kind: "planetscale password", make: (r) => token("pscale_pw_", chars(r, URL_SAFE, 43)) },
	{ kind: "sentry user token", make: (r) => token("sntryu_", chars(r, HEX, 64)) },
	{
		kind: "sentry org token",
		make: (r) => {
			const claims = Buffer.from(
				`{"iat":1700000000.0,"url":"https://sentry.io","region_url":"https://us.sentry.io","org":"dev"}`,
			);
			const body = chars(r, BASE62, 43);
			return { text: `sntrys_${claims.toString("base64").replace(/=+$/, "")}_${body}`, body };
		},
	},
	{ kind: "grafana service account token", make: (r) => token("glsa_", `${chars(r, BASE62, 32)}_${chars(r, HEX, 8)}`) },
	{ kind: "grafana cloud token", make: (r) => token("glc_", chars(r, BASE62, 48)) },
	{ kind: "gitlab ci job token", make: (r) => token("glcbt-64_", chars(r, BASE62, 20)) },
	{ kind: "stripe webhook secret", make: (r) => token("whsec_", chars(r, BASE62, 32)) },
	{ kind: "postman key", make: (r) => token("PMAK-", `${chars(r, HEX, 24)}-${chars(r, HEX, 34)}`) },
	{ kind: "new relic key", make: (r) => token("NRAK-", chars(r, `${UPPER}${DIGITS}`, 27)) },
	{ kind: "notion token", make: (r) => token("ntn_", `${chars(r, DIGITS, 11)}${chars(r, BASE62, 35)}`) },
	{ kind: "pulumi token", make: (r) => token("pul-", chars(r, HEX, 40)) },
	{ kind: "perplexity key", make: (r) => token("pplx-", chars(r, BASE62, 48)) },
	{ kind: "huggingface org token", make: (r) => token("api_org_", chars(r, `${UPPER}${LOWER}`, 34)) },
	{ kind: "sourcegraph token", make: (r) => token("sgp_", `${chars(r, HEX, 16)}_${chars(r, HEX, 40)}`) },
	{ kind: "brevo key", make: (r) => token("xkeysib-", `${chars(r, HEX, 64)}-${chars(r, BASE62, 16)}`) },
	{ kind: "age secret key", make: (r) => token("AGE-SECRET-KEY-1", chars(r, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)) },
	{ kind: "fly token", make: (r) => token("fo1_", chars(r, URL_SAFE, 43)) },
	{ kind: "fly macaroon", make: (r) => named("FLY_API_TOKEN=FlyV1 fm2_", `lJPE${chars(r, BASE64, 200)}`) },
	{
		kind: "terraform cloud token",
		make: (r) => {
			const body = chars(r, URL_SAFE, 66);
			return { text: `${chars(r, BASE62, 14)}.atlasv1.${body}`, body };
		},
	},
	{ kind: "databricks token", make: (r) => token("dapi", chars(r, HEX, 32)) },
	{ kind: "twilio api key", make: (r) => token("SK", chars(r, HEX, 32)) },
	{ kind: "openshift token", make: (r) => token("sha256~", chars(r, URL_SAFE, 43)) },
	{ kind: "square token", make: (r) => token("sq0csp-", chars(r, URL_SAFE, 43)) },
	{
		kind: "1password secret key",
		make: (r) => {
			const a = `${UPPER}${DIGITS}`;
			const body = `${chars(r, a, 11)}-${chars(r, a, 5)}-${chars(r, a, 5)}-${chars(r, a, 5)}`;
			return { text: `A3-${chars(r, a, 6)}-${body}`, body };
		},
	},
	{ kind: "aws bedrock key", make: (r) => token("ABSKQmVkcm9ja0FQSUtleS", chars(r, BASE64, 120)) },
];

function token(prefix: string, body: string): Omit<Planted, "kind"> {
	return { text: `${prefix}${body}`, body };
}

function named(name: string, body: string): Omit<Planted, "kind"> {
	return { text: `${name}${body}`, body };
}

function slack(random: Random, prefix: string): Omit<Planted, "kind"> {
	const body = chars(random, BASE62, 24);
	return { text: `${prefix}-${chars(random, DIGITS, 11)}-${chars(random, DIGITS, 12)}-${body}`, body };
}

function block(label: string, body: string): Omit<Planted, "kind"> {
	return { text: pem(label, body), body };
}

/** A kind whose secret is `length` characters of `alphabet` between fixed text (a flag, a URL, a header). */
function framed(kind: string, before: string, alphabet: string, length: number, after: string): Kind {
	return { kind, make: (r) => url(before, chars(r, alphabet, length), after) };
}

function url(before: string, body: string, after: string): Omit<Planted, "kind"> {
	return { text: `${before}${body}${after}`, body };
}

/** `length` characters of a private key's base64 (as `base64 -w0 id_ed25519` writes it for a CI secret). */
function keyBase64(random: Random, length: number): string {
	const key = pem("OPENSSH PRIVATE KEY", `b3BlbnNzaC1rZXktdjEAAAAA${chars(random, BASE64, length)}`);
	return Buffer.from(key).toString("base64").slice(0, length);
}

/**
 * How a secret is shown: as it is; in terminal colours and other escapes (COLOURS); behind escaped colour codes;
 * coloured after a name; with a zero-width or format character inside its prefix or right after it; written with
 * JSON `\u` escapes in a JSON string (all, the prefix and the start of the body, or every third character);
 * percent-encoded in a query string (as encodeURIComponent writes it, every character, or every third).
 */
export const FORMS = [
	"plain",
	"coloured",
	"escaped",
	"named and coloured",
	"zero-width split",
	"JSON-escaped",
	"URL-encoded",
] as const;
export type Form = (typeof FORMS)[number];

const ESC = String.fromCharCode(27);
/**
 * Terminal escapes around a secret, as tools print them: a colour and its reset; `tput sgr0`'s reset (ESC ( B ESC [ m)
 * before it; the cursor saved and restored (ESC 7, ESC 8); a window title ended by the string terminator (ESC \\).
 */
const COLOURS: readonly (readonly [string, string])[] = [
	[`${ESC}[32m`, `${ESC}[0m`],
	[`${ESC}(B${ESC}[m`, `${ESC}[1m`],
	[`${ESC}7`, `${ESC}8`],
	[`${ESC}]0;build${ESC}\\`, ""],
];
/** The escaped text forms of ESC, as logs, `sanitize` and JSON show it. */
const ESCAPED = ["\\x1b", "\\u001b", "\\033", "\\e"];
/** Zero-width and format characters a copied token can carry (ZWSP, ZWNJ, word joiner, BOM). */
const ZERO_WIDTH = ["\u200b", "\u200c", "\u2060", "\ufeff"];

/** Where the secret's random part starts in its text (its prefix ends): the PEM kinds wrap the body, so its start. */
function bodyStart(planted: Planted): number {
	return Math.max(0, planted.text.indexOf(planted.body.slice(0, 8)));
}

function u(c: string): string {
	return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** `text` as a JSON string's inside, with the characters `picked` picks written as `\u` escapes. */
function jsonEscaped(text: string, picked: (i: number) => boolean): string {
	let out = "";
	for (let i = 0; i < text.length; i++) {
		const c = text.charAt(i);
		if (picked(i)) out += u(c);
		else if (c === '"' || c === "\\") out += `\\${c}`;
		else if (c === "\n") out += "\\n";
		else if (c.charCodeAt(0) < 0x20) out += u(c);
		else out += c;
	}
	return out;
}

function percent(c: string): string {
	return `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
}

/**
 * `text` percent-encoded as encodeURIComponent does, with the ASCII characters `picked` picks encoded too; read by
 * code points, so a character past U+FFFF is encoded whole (encodeURIComponent throws on half of one).
 */
function urlEncoded(text: string, picked: (i: number) => boolean): string {
	let out = "";
	let i = 0;
	for (const c of text) {
		out += picked(i) && c.charCodeAt(0) < 0x80 ? percent(c) : encodeURIComponent(c);
		i += c.length;
	}
	return out;
}

/** The secret shown in `form`; `n` picks among each form's variants, so every one is used. */
export function shown(planted: Planted, form: Form, n: number): string {
	const text = planted.text;
	if (form === "plain") return text;
	if (form === "coloured") {
		const [before, after] = COLOURS[n % COLOURS.length] ?? ["", ""];
		return `${before}${text}${after}`;
	}
	if (form === "escaped") {
		const esc = ESCAPED[n % ESCAPED.length] ?? "\\x1b";
		return `${esc}[1;31m${text}${esc}[0m`;
	}
	if (form === "named and coloured") return `SECRET_VALUE=${ESC}[1m${text}${ESC}[0m`;
	const start = bodyStart(planted);
	if (form === "zero-width split") {
		// Right after the prefix, or two characters into it (`gh\u200bp_…`); a prefixless token is split inside.
		const at = start === 0 ? 4 : n % 2 === 0 ? start : Math.max(1, start - 2);
		return `${text.slice(0, at)}${ZERO_WIDTH[n % ZERO_WIDTH.length] ?? ""}${text.slice(at)}`;
	}
	if (form === "JSON-escaped") {
		const pick: readonly ((i: number) => boolean)[] = [() => true, (i) => i < start + 6, (i) => i % 3 === 0];
		const picked = pick[n % pick.length] ?? (() => true);
		return `{"type":"text","text":"${jsonEscaped(text, picked)}"}`;
	}
	const pick: readonly ((i: number) => boolean)[] = [() => false, () => true, (i) => i % 3 === 1];
	const picked = pick[n % pick.length] ?? (() => false);
	return `GET /oauth/callback?state=af0ifjsldkj&value=${urlEncoded(text, picked)}&lang=en HTTP/1.1`;
}

/** `perKind` secrets of every kind, from `seed`. */
export function plantedSecrets(seed: number, perKind: number): Planted[] {
	const random = seeded(seed);
	return KINDS.flatMap(({ kind, make }) => Array.from({ length: perKind }, () => ({ kind, ...make(random) })));
}

/** The number of kinds the corpus holds. */
export const SECRET_KINDS = KINDS.length;

/** Zero-width, bidirectional and other format characters, which a reader does not see. */
function invisible(code: number): boolean {
	return (
		code === 0xad ||
		code === 0x180e ||
		(code >= 0x200b && code <= 0x200f) ||
		(code >= 0x202a && code <= 0x202e) ||
		(code >= 0x2060 && code <= 0x2069) ||
		code === 0xfeff
	);
}

function hexAt(text: string, at: number, length: number): number | undefined {
	if (at + length > text.length) return undefined;
	let value = 0;
	for (let i = at; i < at + length; i++) {
		const d = HEX.indexOf(text.charAt(i).toLowerCase());
		if (d < 0) return undefined;
		value = value * 16 + d;
	}
	return value;
}

const JSON_SIMPLE: Readonly<Record<string, string>> = { n: "\n", r: "\r", t: "\t", "/": "/", '"': '"', "\\": "\\" };

/**
 * `output` as a reader would take it: JSON `\u` and simple escapes and percent escapes decoded (percent runs as
 * UTF-8), zero-width and format characters dropped. A secret that survives escaped is read, so it counts as a leak.
 */
export function readable(output: string): string {
	let out = "";
	let bytes: number[] = [];
	const flush = () => {
		if (bytes.length > 0) out += Buffer.from(bytes).toString("utf8");
		bytes = [];
	};
	for (let i = 0; i < output.length; ) {
		const c = output.charAt(i);
		const byte = c === "%" ? hexAt(output, i + 1, 2) : undefined;
		if (byte !== undefined) {
			bytes.push(byte);
			i += 3;
			continue;
		}
		flush();
		const unit = c === "\\" && output.charAt(i + 1) === "u" ? hexAt(output, i + 2, 4) : undefined;
		const simple = c === "\\" ? JSON_SIMPLE[output.charAt(i + 1)] : undefined;
		if (unit !== undefined) {
			if (!invisible(unit)) out += String.fromCharCode(unit);
			i += 6;
		} else if (simple !== undefined) {
			out += simple;
			i += 2;
		} else {
			if (!invisible(output.charCodeAt(i))) out += c;
			i += 1;
		}
	}
	flush();
	return out;
}

/**
 * The first run of `window` characters of the secret's body that still stands in `output` read as a reader reads it
 * (escapes decoded, zero-width characters dropped: see `readable`), if any.
 */
export function leakedPiece(output: string, planted: Planted, window = 12): string | undefined {
	const read = readable(output);
	for (let i = 0; i + window <= planted.body.length; i++) {
		const piece = planted.body.slice(i, i + window);
		if (read.includes(piece)) return piece;
	}
	return undefined;
}

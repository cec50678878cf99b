// The corpus redaction is measured on (test/unit/adapters/redact/corpus.test.ts and `npm run bench`): secrets of many
// kinds GENERATED from a seed when it runs (no token stands in git: each is built from its prefix and a random body),
// each plain, in terminal colours and behind escaped colour codes; and ordinary developer-tool output that holds none.

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
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const BASE62 = `${UPPER}${LOWER}${DIGITS}`;
const BASE64 = `${BASE62}+/`;
const URL_SAFE = `${BASE62}_-`;
const HEX = "0123456789abcdef";
const BASE32 = `${UPPER}234567`;

type Random = () => number;

/** `length` characters of `alphabet`, with at least one digit and one letter (as a generated key has). */
function chars(random: Random, alphabet: string, length: number): string {
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

function pem(label: string, body: string): string {
	const lines = body.match(/.{1,64}/g) ?? [];
	return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----`;
}

/** One generator per kind: the secret's text in context and the random body that must not survive. */
const KINDS: readonly { readonly kind: string; readonly make: (random: Random) => Omit<Planted, "kind"> }[] = [
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
	{ kind: "password in url", make: (r) => url("https://deploy:", chars(r, BASE62, 18), "@git.example.com/repo.git") },
	{ kind: "database password", make: (r) => url("postgres://app:", chars(r, BASE62, 18), "@db.internal:5432/app") },
	{
		kind: "mongodb password",
		make: (r) => url("mongodb+srv://admin:", chars(r, BASE62, 20), "@cluster0.ab1cd.mongodb.net/"),
	},
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

function url(before: string, body: string, after: string): Omit<Planted, "kind"> {
	return { text: `${before}${body}${after}`, body };
}

/** How a secret is shown: as it is, in terminal colours, behind escaped colour codes, coloured after its name. */
export const FORMS = ["plain", "coloured", "escaped", "named and coloured"] as const;
export type Form = (typeof FORMS)[number];

const ESC = String.fromCharCode(27);
/** The escaped text forms of ESC, as logs, `sanitize` and JSON show it. */
const ESCAPED = ["\\x1b", "\\u001b", "\\033", "\\e"];

/** The secret's text shown in `form`; `n` picks the escaped form, so every one is used. */
export function shown(text: string, form: Form, n: number): string {
	if (form === "plain") return text;
	if (form === "coloured") return `${ESC}[32m${text}${ESC}[0m`;
	const esc = ESCAPED[n % ESCAPED.length] ?? "\\x1b";
	if (form === "escaped") return `${esc}[1;31m${text}${esc}[0m`;
	return `SECRET_VALUE=${ESC}[1m${text}${ESC}[0m`;
}

/** `perKind` secrets of every kind, from `seed`. */
export function plantedSecrets(seed: number, perKind: number): Planted[] {
	const random = seeded(seed);
	return KINDS.flatMap(({ kind, make }) => Array.from({ length: perKind }, () => ({ kind, ...make(random) })));
}

/** The number of kinds the corpus holds. */
export const SECRET_KINDS = KINDS.length;

/** The first run of `window` characters of the secret's body that still stands in `output`, if any. */
export function leakedPiece(output: string, planted: Planted, window = 12): string | undefined {
	for (let i = 0; i + window <= planted.body.length; i++) {
		const piece = planted.body.slice(i, i + window);
		if (output.includes(piece)) return piece;
	}
	return undefined;
}

/** Ordinary output of developer tools, written out: paths, flags, git, npm, tsc, vitest, code that names keys. */
const WRITTEN: readonly string[] = [
	"mkdir -p /Users/dev/workspaces/pi-mono/packages/coding-agent/docs",
	"read @packages/coding-agent/src/main.ts and tell me what it does",
	"tsgo --noEmit",
	"npx tsc --noEmit -p tsconfig.build.json",
	"npx biome check --write src/adapters/redact/redactor.ts",
	"import type { ChalkInstance } from 'chalk';",
	"const apiKey = getApiKey(provider);",
	"const apiKey = await resolveApiKey(model.provider, options);",
	"const token = opts.token ?? process.env.GITHUB_TOKEN;",
	"export function getOAuthToken(provider: string): string | undefined {",
	"headers.authorization = `Bearer \u0024{apiKey}`;",
	"if (!apiKey) throw new Error(`No API key for provider: \u0024{provider}`);",
	"token: TokenType;",
	"apiKey?: string;",
	"const secret = this.secretStore;",
	"password: string;",
	"export ANTHROPIC_API_KEY=sk-ant-...",
	"export OPENAI_API_KEY=sk-...",
	"GITHUB_TOKEN=$GITHUB_TOKEN",
	"NPM_TOKEN=\u0024{{ secrets.NPM_TOKEN }}",
	"password: ********",
	"api_key = os.environ['OPENAI_API_KEY']",
	"const key = process.env.API_KEY;",
	"max_tokens: 4096",
	"maxTokens: 32000,",
	"listening on http://localhost:5173",
	"see https://example.com:8443/path?q=1",
	"git clone git@github.com:badlogic/pi-mono.git",
	"remote: Enumerating objects: 1234, done.",
	"On branch main",
	"Your branch is up to date with 'origin/main'.",
	"Changes not staged for commit:",
	'  (use "git add <file>..." to update what will be committed)',
	"\tmodified:   packages/tui/src/components/editor.ts",
	"\tmodified:   packages/coding-agent/src/modes/interactive/interactive-mode.ts",
	"Untracked files:",
	'no changes added to commit (use "git add" and/or "git commit -a")',
	" 3 files changed, 120 insertions(+), 45 deletions(-)",
	"diff --git a/packages/ai/src/stream.ts b/packages/ai/src/stream.ts",
	"index 1507f8b..3c2d4e5 100644",
	"@@ -12,7 +12,9 @@ export function streamSimple(model: Model, context: Context) {",
	"Merge pull request #123 from user/feature/long-context",
	"Author: Mario Zechner <contact@example.com>",
	"Date:   Mon Dec 8 23:22:54 2025 +0100",
	"npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory.",
	"added 412 packages, and audited 413 packages in 9s",
	"found 0 vulnerabilities",
	"npm error code ERESOLVE",
	"npm error ERESOLVE unable to resolve dependency tree",
	"> @mariozechner/pi-coding-agent@0.12.4 build",
	"> tsgo -p tsconfig.build.json && chmod +x dist/cli.js",
	"src/main.ts(12,5): error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.",
	"src/core/agent-session.ts:88:3 - error TS2339: Property 'apiKey' does not exist on type 'ModelConfig'.",
	"Found 3 errors in 2 files.",
	" ✓ test/unit/pass/ledger.test.ts (42 tests) 120ms",
	" ❯ test/unit/adapters/redact/redactor.test.ts (12 tests | 1 failed) 340ms",
	" Test Files  1 failed | 11 passed (12)",
	"      Tests  1 failed | 223 passed (224)",
	"   Duration  62.05s (transform 2.04s, setup 0ms, import 7.60s, tests 11.39s)",
	"AssertionError: expected 'ghost' to be 'ghoul' // Object.is equality",
	"    at Object.<anonymous> (/Users/dev/project/src/index.ts:10:15)",
	"    at processTicksAndRejections (node:internal/process/task_queues:95:5)",
	"Error: ENOENT: no such file or directory, open '/tmp/longhaul-fixture-abc123/session.jsonl'",
	"Could not find the exact text in /Users/dev/pi-mono/packages/coding-agent/src/index.ts",
	"Successfully replaced text in packages/tui/src/tui.ts.",
	"ls -la ~/.pi/agent/sessions/--Users-dev-workspaces-pi-mono--/",
	"cat ~/.pi/agent/models.json",
	"find . -name '*.ts' -not -path './node_modules/*' | xargs wc -l",
	"rg -n 'apiKey|getApiKey' packages/ai/src",
	'grep -rn "authToken" packages/coding-agent/src',
	"sed -n 1,120p packages/coding-agent/src/core/auth-storage.ts",
	"docker run --rm -p 8080:8080 ghcr.io/org/app:1.4.2",
	"kubectl get pods -n kube-system",
	"curl -sS https://registry.npmjs.org/@mariozechner%2fpi-ai | jq .versions",
	"node --max-old-space-size=4096 dist/cli.js --help",
	"Usage: pi [options] [messages...]",
	"  --provider <name>      Provider name (default: anthropic)",
	"  --api-key <key>        API key (defaults to env vars)",
	"  --session-dir <dir>    Directory for session storage",
	"  -c, --continue         Continue previous session",
	"The tokenizer splits words … and then more",
	"vitest v4.1.12: 12 passed (340ms)",
	"commit 1507f8b3c2d4e5f60718293a4b5c6d7e8f901234",
	"ChalkInstance, ThemeColor, getMarkdownTheme, SelectListTheme",
	"export class AuthStorage { private readonly tokens = new Map<string, OAuthCredentials>(); }",
	"type OAuthCredentials = { access: string; refresh: string; expires: number };",
	"const { accessToken, refreshToken } = await refreshAnthropicToken(credentials.refresh);",
	"keybindings: { 'ctrl+k': 'deleteToLineEnd', 'ctrl+p': 'cycleModel' }",
	"sessionKey: `\u0024{cwd}:\u0024{sessionId}`,",
	"cacheKey = hash(model.id + systemPrompt)",
	"primaryKey: 'id',",
	"public_key_fingerprint: SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8",
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl user@host",
	"-----BEGIN PUBLIC KEY-----",
	"KEY_BLOCK_LINES = 250",
	"TOKEN_BUDGET=200000",
	"SECRET_SCAN=true",
	"PASSWORD_MIN_LENGTH=12",
];

/** Random lowercase hex of `length`. */
function hex(random: Random, length: number): string {
	return chars(random, HEX, length);
}

/** Ordinary strings made from random parts: hashes, ids, integrity sums, base64 blobs, paths, counters. */
function generated(random: Random, count: number): string[] {
	const words = ["packages", "src", "core", "tui", "agent", "session", "modes", "utils", "components", "test"];
	const word = () => words[Math.floor(random() * words.length)] ?? "src";
	const makers: readonly (() => string)[] = [
		() => `commit ${hex(random, 40)}`,
		() => `${hex(random, 7)} fix(tui): keep the editor's cursor on resize`,
		() => `Merge: ${hex(random, 7)} ${hex(random, 7)}`,
		() => `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-a${hex(random, 3)}-${hex(random, 12)}`,
		() =>
			`"integrity": "sha512-${Buffer.from(hex(random, 64), "hex").toString("base64")}${Buffer.from(hex(random, 64), "hex").toString("base64").slice(0, 2)}=="`,
		() => `"resolved": "https://registry.npmjs.org/chalk/-/chalk-5.${Math.floor(random() * 9)}.0.tgz"`,
		() => `data:image/png;base64,${Buffer.from(hex(random, 120), "hex").toString("base64")}`,
		() => `/Users/dev/workspaces/pi-mono/${word()}/${word()}/${word()}-${word()}.ts`,
		() =>
			`packages/${word()}/src/${word()}/${word()}.test.ts:${Math.floor(random() * 900)}:${Math.floor(random() * 80)}`,
		() => `sha256:${hex(random, 64)}`,
		() => `"id": "${hex(random, 8)}", "parentId": "${hex(random, 8)}", "timestamp": "2025-12-08T23:22:54.411Z"`,
		() => `toolCallId: "toolu_01${chars(random, BASE62, 22)}"`,
		() => `request-id: req_${chars(random, BASE62, 24)}`,
		() => `etag: W/"${hex(random, 32)}"`,
	];
	return Array.from({ length: count }, (_, i) => (makers[i % makers.length] ?? (() => ""))());
}

/** The ordinary strings: the written ones and `count` made from `seed`. */
export function ordinaryStrings(seed: number, count: number): string[] {
	return [...WRITTEN, ...generated(seeded(seed), count)];
}

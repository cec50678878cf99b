import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../../src/adapters/redact/index.js";

const redactor = createRedactor(true);
const SECRET = "Zq7Yx3Wv9Ut5Rs1Qp8On";
const TOKEN = "ghp_R8tKq2Lm5Nx7Vb3Zc9Wd4Fh6Jp1Sy0Ga2Ue";

/** What the redactor left of a line: the secret must be gone and a marker in its place. */
async function redacted(line: string): Promise<string> {
	return redactor.redact(line);
}

describe("secrets in the forms people write them (issue 27)", () => {
	it.each([
		[
			"a value longer than 512 characters after a secret name",
			`DEPLOY_SSH_KEY=${"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3".repeat(60)}`,
		],
		["a URL password with no user", `redis://:${SECRET}@cache:6379`],
		["a URL password holding @", `postgres://app:p@${SECRET}@db:5432/app`],
		["--password X", `pg_dump --password ${SECRET} app`],
		["--password=X", `tool --password=${SECRET}`],
		["--token X", `gh auth --token ${SECRET}`],
		["--api-key X", `client --api-key ${SECRET}`],
		["mysql -pX", `mysql -u root -p${SECRET} app`],
		["sshpass -p X", `sshpass -p ${SECRET} ssh host`],
		["curl -u admin:X", `curl -u admin:${SECRET} https://api.example.com`],
		["aws configure set", `aws configure set aws_secret_access_key ${SECRET}`],
		["a base64 key that starts with /", `aws_secret_access_key = /${SECRET}Ab3dE6gH9jK2mN5pQ8`],
		["a base64 key that starts with / and holds another", `AWS_SECRET_ACCESS_KEY=/${SECRET}/Ab3dE6gH9jK2mN5p`],
		["export NAME X", `export AWS_SECRET_ACCESS_KEY ${SECRET}`],
		[".netrc", `machine api.example.com login deploy password ${SECRET}`],
		["Cookie:", `Cookie: theme=dark; session=${SECRET}`],
		["Set-Cookie:", `Set-Cookie: sid=${SECRET}; Path=/; HttpOnly`],
		["MYSQL_PWD", `MYSQL_PWD=${SECRET}`],
		["a password in JSON escaped into a prompt", `{\\"password\\": \\"${SECRET}\\"}`],
		[".netrc as a name's value", `SECRET_VALUE=machine api.example.com login deploy password ${SECRET}`],
		[".netrc as a name's value, coloured", `SECRET_VALUE=\u001b[1mmachine h login u password ${SECRET}\u001b[0m`],
		["a password holding three dots after 12 characters", `docker login --password ${SECRET.slice(0, 12)}...wr x`],
		["a netrc password holding three dots", `machine h login u password ${SECRET.slice(0, 14)}...h`],
	])("%s", async (_, line) => {
		const out = await redacted(line);
		expect(out).toContain("[redacted:");
		expect(out).not.toContain(SECRET.slice(0, 12));
		expect(out).not.toContain("QUJDREVGR0hJ");
	});

	it.each([
		[
			"a Discord webhook",
			"https://discord.com/api/webhooks/123456789012345678/Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kL9mN2pQ5sT8vW1yZ4bC7eF0hJ3k",
		],
		["a Telegram bot token", "123456789:AAHk3Qm9XwPq7Rt2LsAb4Cd6Ef8Gh0Ij2Kl"],
		["a Google access token", "ya29.a0AfH6SMBk3Qm9XwPq7Rt2LsAb4Cd6Ef8Gh0Ij2Kl"],
		["a zero-width space inside the prefix", `gh\u200bp_${TOKEN.slice(4)}`],
		["a zero-width space after the prefix", `ghp_\u200b${TOKEN.slice(4)}`],
		["JSON \\u escapes", `\\u0067\\u0068\\u0070_${TOKEN.slice(4)}`],
		["percent escapes", `${TOKEN.slice(0, 3)}%5F${TOKEN.slice(4)}`],
		// What CLIs print bare (vault token create, doppler configs tokens create, heroku auth:token, pscale password
		// create, fly tokens create): forms from Vault's and Doppler's docs and gitleaks' rule files.
		["a Vault service token", `hvs.CAESI${SECRET.repeat(5)}`],
		["a Doppler service token", `dp.st.prd.${SECRET.repeat(2)}Ab3`],
		["a Heroku token", `HRKU-AA${SECRET.repeat(2)}Ab3dE6gH9jK2mN5pQ8`],
		["a PlanetScale password", `pscale_pw_${SECRET.repeat(2)}`],
		["a Fly.io token", `fo1_${SECRET.repeat(2)}Ab3`],
		["a Terraform Cloud token", `Ab3dE6gH9jK2mN.atlasv1.${SECRET.repeat(3)}Ab3dE6`],
	])("%s", async (_, line) => {
		const out = await redacted(`see ${line} here`);
		expect(out).toMatch(/^see \[redacted: [a-z ]+\] here$/);
	});
});

describe("nothing else erased (issue 27)", () => {
	it.each([
		"PWD=/home/dev/project",
		"OLDPWD=/home/dev",
		"HOME=/home/dev",
		"SSH_KEY_PATH=/home/runner/work/MyProject2/deploy_key",
		"GOOGLE_APPLICATION_CREDENTIALS=/home/dev/.config/gcloud/application_default_credentials.json",
		"credentials: 'same-origin',",
		"auth: oauth2-pkce-flow",
		'"auth": "/api/v1/login/callback"',
		"idempotencyKey: 3f2b8c1e-9d4a-4f6b-8e2c-1a7d5b9c0e3f",
		"Cache restored from key: node-cache-Linux-x64-npm-5e3c0a7b9d1f2e4c6a8b0d2f4e6a8c0b2d4f6e8a0c2e4f6a8b0c2d4e6f8a0b2c",
		"PUBLIC_KEY=MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEk3Qm9XwPq7Rt2LsAb4Cd6Ef8Gh0Ij",
		"ssh_public_key: AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
		"docker login --password-stdin",
		"--token abcdef1234567890...",
		"--api-key sk-abc...wxyz",
		"--token sk-ant-api03-...",
		"ANTHROPIC_API_KEY=sk-ant-api03-... and GITHUB_TOKEN=ghp_…",
		"password: Loading...",
		"GET /cb?value=mysql -u root -p&lang=en HTTP/1.1",
		"Usage: --api-key <key>  API key",
		"GET /oauth/callback?state=af0ifjsldkj&value=Cookie%3A%20theme%3Ddark%3B%20lang%3Den&lang=en HTTP/1.1",
		// A file name that holds xoxo- (not a Slack token: a number follows Slack's prefixes) and an Objective-C
		// selector after hf_ (not a Hugging Face token: 34 letters, mixed case at random) — gitleaks' own fp cases.
		"![](https://indieweb.org/images/3/35/2018-250-xoxo-indieweb-1.jpg)",
		"- (id)hf_requiredCharacteristicTypesForDisplayMetadata;",
	])("%s", async (line) => {
		expect(await redacted(line)).toBe(line);
	});

	it("takes a longer piece of a token before a cut mark: a real token cut short", async () => {
		expect(await redacted(`token: ${TOKEN.slice(0, 12)}...`)).toBe("token: [redacted: github token]...");
	});

	it("replaces a found secret's copy only where it stands as a whole token", async () => {
		const [a, b] = await redactor.redactAll([`DB_PASSWORD=${SECRET}`, `x${SECRET}y and ${SECRET}.`]);
		expect(a).toBe("DB_PASSWORD=[redacted: password]");
		expect(b).toBe(`x${SECRET}y and [redacted: password].`);
	});

	// A plain word: the name finder leaves `password sunflower42` alone, so only the netrc finder can find these.
	it("reads a netrc password only with its machine and login in the 300 characters before it", async () => {
		const far = `machine h login u\n${"# note\n".repeat(50)}password sunflower42`;
		const near = `machine h\n  login u\n  password sunflower42`;
		const loginAfter = `machine h password sunflower42 login u`;
		const [a, b, c] = await redactor.redactAll([far, near, loginAfter]);
		expect(a).toBe(far);
		expect(b).toBe("machine h\n  login u\n  password [redacted: password]");
		expect(c).toBe(loginAfter);
	});

	it("reads each of many netrc entries in one text by its own machine and login", async () => {
		const entries = Array.from({ length: 40 }, (_, i) => `machine h${i} login u${i} password sunflower${i}`);
		const out = await redacted([...entries, `${" ".repeat(400)}password sunflower42x`].join("\n"));
		expect(out.split("\n").slice(0, 40)).toEqual(
			entries.map((_, i) => `machine h${i} login u${i} password [redacted: password]`),
		);
		expect(out.split("\n")[40]).toContain(`sunflower42x`);
	});

	it("keeps a path under the working directory whole when env printed PWD", async () => {
		const [env, summary] = await redactor.redactAll([
			"PWD=/home/dev/project\nSHELL=/bin/bash",
			"Modified: /home/dev/project/src/config.ts",
		]);
		expect(env).toBe("PWD=/home/dev/project\nSHELL=/bin/bash");
		expect(summary).toBe("Modified: /home/dev/project/src/config.ts");
	});
});

describe("cost linear in the text (issue 27)", () => {
	it.each([
		["ghp_", "github token"],
		["xoxb-1-", "slack token"],
	])("a 24 KB run of %s is one stretch, redacted once", async (prefix, kind) => {
		const out = await redacted(prefix.repeat(Math.ceil(24_000 / prefix.length)));
		expect(out).toBe(`[redacted: ${kind}]`);
	});

	it("gives the event loop a turn while it works through a large batch", async () => {
		let turns = 0;
		const ticker = setInterval(() => turns++, 0);
		const texts = Array.from({ length: 200 }, (_, i) => `line ${i} `.repeat(4000));
		await redactor.redactAll(texts);
		clearInterval(ticker);
		expect(turns).toBeGreaterThan(0);
	});
});

// The forms the 2026-12-06 measurement still missed or marked (docs/evaluation.md, "Redaction on forms collected
// outside"): PHP's `.=` written without a blank, `??=` and `||=`, a Lua or JS computed key, an XML entity in an
// element's text, an unquoted value cut at `&` or `;`; and a class name, a pagination token and a sentence as values.
describe("secrets in the forms of 2026-12-06", () => {
	it.each([
		["PHP's .= without a blank", `$apiToken.="${SECRET}";`, `$apiToken.="[redacted: token]";`],
		["PHP's and JS's ??=", `$apiToken ??= "${SECRET}";`, `$apiToken ??= "[redacted: token]";`],
		["??= without blanks", `$apiToken??="${SECRET}";`, `$apiToken??="[redacted: token]";`],
		["Ruby's ||=", `@api_token ||= '${SECRET}'`, `@api_token ||= '[redacted: token]'`],
		[
			"a Lua table's computed key",
			`local t = {["api_key"] = "${SECRET}"}`,
			`local t = {["api_key"] = "[redacted: key]"}`,
		],
		[
			"a JS object's computed key",
			`const t = {["api_key"]: "${SECRET}"}`,
			`const t = {["api_key"]: "[redacted: key]"}`,
		],
		["a computed key in single quotes", `t = {['secret']: '${SECRET}'}`, `t = {['secret']: '[redacted: secret]'}`],
		[
			"an XML entity in an element's text",
			`<password>Zq7Yx3&amp;Wv9Ut5Rs1</password>`,
			"<password>[redacted: password]</password>",
		],
		[
			"an element's text holding ; , ( and \\",
			`<apiToken>Zq7Yx3;Wv9,Ut(5)Rs\\1</apiToken>`,
			"<apiToken>[redacted: token]</apiToken>",
		],
		["an unquoted value holding &", `password=Zq7Yx3&Wv9Ut5Rs1Qp8On`, "password=[redacted: password]"],
		["an unquoted value holding ;", `DB_PASSWORD=Zq7Yx3;Wv9Ut5Rs1Qp8On`, "DB_PASSWORD=[redacted: password]"],
		["an unquoted value holding & and ;", `secret: Zq7Yx3&Wv9;Ut5Rs1 # x`, "secret: [redacted: secret] # x"],
	])("%s", async (_, line, expected) => {
		expect(await redacted(line)).toBe(expected);
	});

	it.each([
		// Where `&` or `;` ends an unquoted value: a query's next field, an entity, a statement, a call, a word.
		[`GET /cb?token=${SECRET}&page=2`, "GET /cb?token=[redacted: token]&page=2"],
		[`<a href="/cb?token=${SECRET}&amp;page=2">`, '<a href="/cb?token=[redacted: token]&amp;page=2">'],
		[`Server=db;Password=${SECRET};User Id=sa;`, "Server=db;Password=[redacted: password];User Id=sa;"],
		[`export API_TOKEN=${SECRET}; make`, "export API_TOKEN=[redacted: token]; make"],
		[`API_TOKEN=${SECRET}&&make`, "API_TOKEN=[redacted: token]&&make"],
		[`password=${SECRET}&`, "password=[redacted: password]&"],
	])("ends an unquoted value where what follows & or ; is no part of it: %s", async (line, expected) => {
		expect(await redacted(line)).toBe(expected);
	});
});

describe("nothing else erased (2026-12-06)", () => {
	it.each([
		// A class or member name under a key's or a credential's name (AWS SDK and Azure code, DynamoDB's samples).
		'key = "TableDescription"',
		"credentials: AwsCredentialIdentity,",
		"  setCredentials(credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider): void;",
		"exports.getBearerTokenEnvKey = getBearerTokenEnvKey;",
		"    auth: BetaManagedAgentsMCPOAuthAuthResponse | BetaManagedAgentsStaticBearerAuthResponse;",
		// Pagination tokens: AWS's NextToken, Google's nextPageToken, Azure's continuationToken.
		'"NextToken": "eyJNYXJrZXIiOiBudWxsLCAiYm90b190cnVuY2F0ZV9hbW91bnQiOiAxfQ=="',
		'nextPageToken: "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA"',
		"continuationToken=Zq7Yx3Wv9Ut5Rs1Qp8On",
		"NextContinuationToken: 1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=",
		// A sentence as a password's value: a validation message, a form's label.
		'"password": "Password must be at least 8 characters"',
		"password: Password is required",
		"'password' => 'Passwords must match.',",
		// A type, a call and code after the new operators and keys.
		'const t: {["api_key"]: string} = load()',
		"$apiToken ??= getenv('API_TOKEN');",
		"token ||= fetchToken()",
		"$apiToken.=$suffix;",
		// Minified code: `;` ends a statement, `&` a query's field.
		"var secret=r;return e}",
		"function f(e){var t=e.token;t.secret=n;if(x)}",
		"t.key=e3;n4.push(t)",
	])("%s", async (line) => {
		expect(await redacted(line)).toBe(line);
	});
});

import { describe, expect, it } from "vitest";
import { privateKeySpans, secretSpans } from "../../../../src/pass/secrets/index.js";

/** What the patterns take for secrets in a text: each stretch's kind and its characters. */
const found = (text: string) => secretSpans(text).map((s) => [s.kind, text.slice(s.start, s.end)]);

describe("secretSpans: cookies", () => {
	it("takes each long cookie value of a header, but for short words", () => {
		expect(found("Cookie: theme=dark; session=Zk3Qm9XwPq7Rt2Ls; lang=en")).toEqual([["cookie", "Zk3Qm9XwPq7Rt2Ls"]]);
	});

	it("takes only Set-Cookie's first pair", () => {
		expect(found("Set-Cookie: sid=Zk3Qm9XwPq7Rt2Ls; Path=/; Domain=Ab4Cd6Ef8Gh0Ij2K")).toEqual([
			["cookie", "Zk3Qm9XwPq7Rt2Ls"],
		]);
	});

	it("takes a header on every line, the scan going on after the pairs it read", () => {
		const text = "Cookie: a=Zk3Qm9XwPq7Rt2Ls\nCookie: b=Ab4Cd6Ef8Gh0Ij2K";
		expect(found(text)).toEqual([
			["cookie", "Zk3Qm9XwPq7Rt2Ls"],
			["cookie", "Ab4Cd6Ef8Gh0Ij2K"],
		]);
	});

	it("takes a run of headers on one line as the one value it reads as", () => {
		const run = "cookie:x=".repeat(2000);
		expect(found(run)).toEqual([["cookie", run.slice("cookie:x=".length)]]);
	});
});

describe("secretSpans: passwords in URLs, looked for in the authority only", () => {
	it("takes a password a cut left at a line's end, whatever `@` stands before the URL", () => {
		expect(found("me@x redis://:S3cret99Pass")).toEqual([["password in url", "S3cret99Pass"]]);
		expect(secretSpans("me@x redis://:S3cret99Pass").map((s) => [s.start, s.end])).toEqual([[14, 26]]);
	});

	it("takes a password holding `@` up to the last `@` of the authority, not of the text", () => {
		expect(found("postgres://u:p@ss99word@db/app mail me@x")).toEqual([["password in url", "p@ss99word"]]);
	});

	it("takes no `:` after the authority for a password's start", () => {
		expect(found("see https://example.com/a:b@c and more")).toEqual([]);
	});
});

describe("secretSpans: secrets assigned to names", () => {
	it.each([
		[
			"a bearer token after an Authorization header",
			"Authorization: Bearer Zk3Qm9XwPq7Rt2LsAb4Cd6Ef",
			"token",
			"Zk3Qm9XwPq7Rt2LsAb4Cd6Ef",
		],
		[
			"an env file's AWS secret",
			"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y",
			"secret",
			"wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y",
		],
		[
			"a value holding a name and `=`, one secret",
			"NPM_AUTH=token=Zk3Qm9XwPq7Rt2Ls",
			"token",
			"token=Zk3Qm9XwPq7Rt2Ls",
		],
	])("takes the whole value: %s", (_name, text, kind, value) => {
		expect(found(text)).toEqual([[kind, value]]);
	});

	it("takes no value that a call's parenthesis follows", () => {
		expect(found("const secret = hmacSha256(key, body)")).toEqual([]);
	});

	// A generated password holds the characters that end an unquoted value (1Password's and Bitwarden's generators
	// take symbols; gitleaks cmd/generate/config/rules/freemius.go's sample holds `&` and `$`).
	it.each([
		['DB_PASSWORD="Zq7Yx3#P7r5&@*xC$utE"', "Zq7Yx3#P7r5&@*xC$utE"],
		["password: 'Wv9Ut)X;k2,L[m]{P}a4\\Rs'", "Wv9Ut)X;k2,L[m]{P}a4\\Rs"],
		['{"client_secret": "Zk3Qm9Xw;Pq7Rt2Ls&Ab4"}', "Zk3Qm9Xw;Pq7Rt2Ls&Ab4"],
	])("takes a quoted value whole, to its closing quote: %s", (text, value) => {
		expect(found(text).map(([, v]) => v)).toEqual([value]);
	});

	// Where an unquoted one ends: past a `&` or `;` that a piece of the value follows (since 2026-12-06), not before a
	// word (`Ut`).
	it.each([
		['password="Zq7Yx3Wv9&Ut and more words"', "Zq7Yx3Wv9"],
		['"token": "Zk3Qm9Xw&Pq7Rt2Ls', "Zk3Qm9Xw&Pq7Rt2Ls"],
		["secret = 'Zk3Qm9Xw&Pq7Rt2Ls\nnext'", "Zk3Qm9Xw&Pq7Rt2Ls"],
		["secret = 'Zk3Qm9Xw&page=2 more'", "Zk3Qm9Xw"],
	])(
		"ends a quoted value where an unquoted one ends when a blank, a line break or the text's end comes before its quote: %s",
		(text, value) => {
			expect(found(text).map(([, v]) => v)).toEqual([value]);
		},
	);
});

describe("secretSpans: an unquoted value read on past `&` and `;`", () => {
	it.each([
		["password=Zq7Yx3&Wv9Ut5 x", "Zq7Yx3&Wv9Ut5"],
		["password=Zq7Yx3;Wv9Ut5&Rs1Qp8 x", "Zq7Yx3;Wv9Ut5&Rs1Qp8"],
		["password=Zq7Yx3Wv9&page=2", "Zq7Yx3Wv9"],
		["password=Zq7Yx3Wv9&amp;page=2", "Zq7Yx3Wv9"],
		["password=Zq7Yx3Wv9;Database=app", "Zq7Yx3Wv9"],
		["password=Zq7Yx3Wv9;return x", "Zq7Yx3Wv9"],
		["password=Zq7Yx3Wv9;f3(x)", "Zq7Yx3Wv9"],
		["password=Zq7Yx3Wv9;;x1", "Zq7Yx3Wv9"],
		["password=Zq7Yx3Wv9&&x1", "Zq7Yx3Wv9"],
	])("%s", (text, value) => {
		expect(found(text).map(([, v]) => v)).toEqual([value]);
	});

	// Every `key:` inside is an anchor whose value runs to the same quote, and each is passed over as a label's: read
	// from each, the run cost 83 s for 224 KB; remembered, it costs milliseconds.
	it("reads a run of pieces once, whatever anchors stand inside it", { timeout: 10_000 }, () => {
		expect(found(`key=a1${";key:a1".repeat(32_000)}" value="x"`)).toEqual([]);
	});
});

describe("secretSpans: an element's text to its closing tag", () => {
	it.each([
		["<password>Zq7Yx3&amp;Wv9Ut5</password>", "Zq7Yx3&amp;Wv9Ut5"],
		["<password>\n  Zq7;Yx3,Wv9(Ut5)\n</password>", "Zq7;Yx3,Wv9(Ut5)"],
	])("%s", (text, value) => {
		expect(found(text).map(([, v]) => v)).toEqual([value]);
	});

	it("takes no element whose text a blank splits", () => {
		expect(found("<password>Zq7Yx3&amp; Wv9Ut5</password>")).toEqual([]);
	});
});

describe("secretSpans: secrets given as long flags", () => {
	it.each([
		["--db-password", "password"],
		["--passphrase", "password"],
		["--token", "token"],
		["--secret-token", "token"],
		["--client-secret", "secret"],
		["--api-key", "key"],
		["--access-key", "key"],
	])("names the value of %s a %s", (flag, kind) => {
		expect(found(`tool ${flag} S3cret99 run`)).toEqual([[kind, "S3cret99"]]);
	});

	it.each([
		["of 4 characters", "tool --password Ab1! run", "Ab1!"],
		["starting with digits", "tool --password 99S3cret run", "99S3cret"],
		["holding a dash and letters at its end", "tool --password S3cret-pass run", "S3cret-pass"],
		["of words without digits", "tool --password correct-horse-battery run", "correct-horse-battery"],
		["starting with a dash and holding digits", "tool --password -Zk3Qm9Xw run", "-Zk3Qm9Xw"],
		["in double quotes, blanks and all", 'tool --password "S3cret 99 Pass" run', "S3cret 99 Pass"],
		["in single quotes", "tool --token 'Zk3 Qm9 Xw' run", "Zk3 Qm9 Xw"],
		["in a quote a cut left open, to the line's end", 'tool --password "S3cret 99 Pass\nnext "line"', "S3cret 99 Pass"],
	])("takes a value %s", (_name, text, value) => {
		expect(found(text).map(([, v]) => v)).toEqual([value]);
	});

	it.each([
		["a value of 3 characters", "tool --password Ab1 run"],
		["another long flag", "pg_dump --password --verbose app"],
		["another flag of one dash", "gpg --passphrase -batch run"],
		["a value of one kind of character", "tool --password hunterhunter run"],
		["a relative path", "tool --private-key ./keys/deploy.pem"],
		["a URL without userinfo", "tool --client-secret https://vault.example.com/v1/app"],
		["a double dash inside a word, as in a branch name", "git checkout feature--token Zk3Qm9XwPq7Rt2Ls"],
	])("takes no %s", (_name, text) => {
		expect(found(text)).toEqual([]);
	});
});

describe("secretSpans: passwords in the short flags of the commands that take them", () => {
	it.each([
		["mysql -p attached", "mysql -u root -pS3cret99 app", ["S3cret99"]],
		["sshpass -p and a blank", "sshpass -p S3cret99 ssh host", ["S3cret99"]],
		["sshpass -p and a tab", "sshpass -p\tS3cret99 ssh host", ["S3cret99"]],
		["sshpass -p quoted", "sshpass -p 'S3cret 99' ssh host", ["S3cret 99"]],
		["curl -u user:password", "curl -u admin:S3cret99 https://api.example.com", ["S3cret99"]],
		["curl -u attached", "curl -uadmin:S3cret99 https://api.example.com", ["S3cret99"]],
		["curl --user", "curl --user admin:S3cret99 https://api.example.com", ["S3cret99"]],
		["curl --user=", "curl --user=admin:S3cret99 https://api.example.com", ["S3cret99"]],
		["curl -u with no user", "curl -u :Zk3Qm9XwPq7Rt2Ls https://api.example.com", ["Zk3Qm9XwPq7Rt2Ls"]],
		["every flag on the line", "sshpass -p S3cret99 ssh db 'mysql -u root -pDbPass77'", ["S3cret99", "DbPass77"]],
		[
			"a pipe of two commands, its line read once",
			"mysqldump -u root -pS3cret99 app | mysql -u root -pDbPass77 copy",
			["S3cret99", "DbPass77"],
		],
	])("takes %s", (_name, text, values) => {
		expect(found(text)).toEqual(values.map((v) => ["password", v]));
	});

	it.each([
		["mysql -p and a blank, which asks for the password before the database", "mysql -h db -P 3306 -u root -p prod_db"],
		["curl -u with a user alone, which asks for the password", "curl -u ci-user https://api.example.com"],
		["curl -u with a reference for the password", "curl -u admin:$API_PASSWORD https://api.example.com"],
		["a -p on the line after the command's", "mysql -u root -p app\ndocker run -p8080:80 nginx"],
	])("takes nothing from %s", (_name, text) => {
		expect(found(text)).toEqual([]);
	});
});

describe("secretSpans: a secret name and its value given to a set command", () => {
	it("takes a quoted value whole", () => {
		expect(found('setenv DB_PASSWORD "S3cret 99"')).toEqual([["password", "S3cret 99"]]);
	});

	it.each([
		["a reference for the value", "setenv GITHUB_TOKEN $GITHUB_TOKEN_FROM_VAULT"],
		["a name that holds no secret", "export PATH /usr/local/bin"],
	])("takes nothing for %s", (_name, text) => {
		expect(found(text)).toEqual([]);
	});
});

describe("secretSpans: passwords in URLs", () => {
	it.each([
		["a two-letter scheme at the text's start", "ws://user:S3cret99@host", "S3cret99"],
		["a password of 4 characters", "redis://u:abcd@cache", "abcd"],
		["a password a cut left before blanks at a line's end", "redis://:S3cret99Pass   \nnext", "S3cret99Pass"],
	])("takes %s", (_name, text, pass) => {
		expect(found(text)).toEqual([["password in url", pass]]);
	});

	it.each([
		["a one-letter scheme", "x://user:S3cret99@host"],
		["a password of 3 characters", "redis://u:abc@cache"],
		["an empty password", "redis://u:@cache"],
		["a user without a password", "ssh://deploy@build.example.com"],
		["a placeholder the authority stops at", "postgres://user:<password>@localhost/app"],
		["a name after the host's colon, a path after it", "ssh://github.com:acme-corp/api.git"],
		["a word after the colon and more on the line", "redis://:S3cret99Pass /x"],
	])("takes nothing for %s", (_name, text) => {
		expect(found(text)).toEqual([]);
	});
});

describe("secretSpans: netrc passwords", () => {
	it.each([
		["a default entry", "default login anonymous password S3cret99", "S3cret99"],
		["an entry over aligned lines", "machine api.example.com\n  login    deploy\n  password S3cret99", "S3cret99"],
		["a password of 4 characters", "machine h login u password Pw9!", "Pw9!"],
	])("takes %s", (_name, text, pass) => {
		expect(found(text)).toEqual([["password", pass]]);
	});

	it.each([
		["a password of 3 characters", "machine h login u password Pw9"],
		["a reference for the password", "machine h login u password $NETRC_PASSWORD"],
	])("takes nothing for %s", (_name, text) => {
		expect(found(text)).toEqual([]);
	});
});

describe("secretSpans: more cookies", () => {
	it.each([
		["a value of 8 characters, but not one of 7", "Cookie: sid=Zk3Qm9Xw; b=Zk3Qm9X", ["Zk3Qm9Xw"]],
		[
			"pairs after `;` with any number of blanks",
			"Cookie: a=Zk3Qm9XwPq7Rt2Ls;b=Ab4Cd6Ef8Gh0Ij2K;   c=Qw8Er6Ty4Ui2Op0A",
			["Zk3Qm9XwPq7Rt2Ls", "Ab4Cd6Ef8Gh0Ij2K", "Qw8Er6Ty4Ui2Op0A"],
		],
		["no pair after anything but `;`", "Cookie: a=Zk3Qm9XwPq7Rt2Ls, b=Ab4Cd6Ef8Gh0Ij2K", ["Zk3Qm9XwPq7Rt2Ls"]],
		["a header in curl's -H", "curl -H 'Cookie: sid=Zk3Qm9XwPq7Rt2Ls' https://x.io", ["Zk3Qm9XwPq7Rt2Ls"]],
		["a JSON header", '{"Cookie": "sid=Zk3Qm9XwPq7Rt2Ls"}', ["Zk3Qm9XwPq7Rt2Ls"]],
		["a header whose last pair a `;` ends", "Cookie: sid=Zk3Qm9XwPq7Rt2Ls; ", ["Zk3Qm9XwPq7Rt2Ls"]],
	])("takes %s", (_name, text, values) => {
		expect(found(text)).toEqual(values.map((v) => ["cookie", v]));
	});

	it.each([
		["placeholders", "Cookie: session=<session-id>; id=$SESSION_ID"],
		["words", "Cookie: locale=en-US; consent=analytics-marketing"],
		["a name ending in cookie", "remember_cookie: sid=Zk3Qm9XwPq7Rt2Ls"],
		["a value without a name", "Cookie: Zk3Qm9XwPq7Rt2Ls"],
	])("takes nothing for %s", (_name, text) => {
		expect(found(text)).toEqual([]);
	});
});

describe("privateKeySpans: the key blocks a text may not be cut in", () => {
	it("takes a whole block, and its body back from the end line", () => {
		const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----";
		// The block from its start (5) to its end (5 + 78); the end line's read back stops at the start line's dashes.
		expect(privateKeySpans(`key:\n${key}\nend`)).toEqual([
			{ start: 5, end: 83, kind: "private key" },
			{ start: 36, end: 83, kind: "private key" },
		]);
	});

	it("reads back at most 10,000 characters from an end line", () => {
		const text = `${"A".repeat(10_010)}\n-----END PRIVATE KEY-----`;
		expect(privateKeySpans(text)).toEqual([{ start: 11, end: text.length, kind: "private key" }]);
	});

	it("reads back over base64, backslashes and every character `\\s` takes, and stops at any other", () => {
		const end = "-----END PRIVATE KEY-----";
		const body = /[A-Za-z0-9+/=\s\\]/;
		const wrong: string[] = [];
		for (let code = 0; code <= 0xffff; code++) {
			const c = String.fromCharCode(code);
			if (privateKeySpans(`A${c}A${end}`)[0]?.start !== (body.test(c) ? 0 : 2)) wrong.push(`U+${code.toString(16)}`);
		}
		expect(wrong).toEqual([]);
	});

	it("takes no public key or certificate", () => {
		expect(privateKeySpans("-----BEGIN PUBLIC KEY-----\nMFkwEwYH\n-----END PUBLIC KEY-----")).toEqual([]);
		expect(privateKeySpans("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----")).toEqual([]);
	});
});

describe("secretSpans: assignment forms past `NAME=`", () => {
	// Typed declarations, each in its language's own syntax (the TypeScript, Go, Kotlin, Rust, Swift, C#, Java and
	// Python references); gitleaks cmd/generate/config/utils/generate.go prints Go's `var x string = "…"` too.
	it.each([
		["TypeScript", 'const apiKey: string = "Zq7Yx3Wv9UtXk2LmPa4Rs";', "key"],
		["a TypeScript class field", "private readonly token: string = 'Zq7Yx3Wv9UtXk2LmPa4Rs';", "token"],
		["Go", 'var apiToken string = "Zq7Yx3Wv9UtXk2LmPa4Rs"', "token"],
		["Kotlin", 'val apiKey: String = "Zq7Yx3Wv9UtXk2LmPa4Rs"', "key"],
		["Rust", 'const API_TOKEN: &str = "Zq7Yx3Wv9UtXk2LmPa4Rs";', "token"],
		["Rust with a lifetime", 'static API_TOKEN: &\'static str = "Zq7Yx3Wv9UtXk2LmPa4Rs";', "token"],
		["Swift", 'let apiKey: String = "Zq7Yx3Wv9UtXk2LmPa4Rs"', "key"],
		["C#", 'private const string ApiKey = "Zq7Yx3Wv9UtXk2LmPa4Rs";', "key"],
		["Java", 'String apiKey = "Zq7Yx3Wv9UtXk2LmPa4Rs";', "key"],
		["Python with a subscripted type", 'api_key: Optional[str] = "Zq7Yx3Wv9UtXk2LmPa4Rs"', "key"],
	])("takes the value of a typed declaration in %s", (_language, text, kind) => {
		expect(found(text)).toEqual([[kind, "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
	});

	it.each([
		["a return type", "function getToken(): string {"],
		["a field's type with no value", "token: string;"],
		["a Go parameter's type", "func (c *Client) SetToken(token string) error {"],
		["a Go struct field with its tag", 'Token string `json:"token"`'],
		["a reference to the environment", "password: string = process.env.DB_PASSWORD"],
		["a call", "const token: string = readToken(path)"],
		["a comparison", "if token string == other {"],
		["an expression, not a literal", "var key any = testRSAPrivateKey"],
		["an optional field's type", "apiKey?: UserIdentityApiKey | null | undefined;"],
		["an optional field's type with a digit in it", "privateKey?: Uint8Array | string;"],
		["a computed key's type", '["api-key"]: ApiKeyAuthSchema,'],
		["a Python block's next line", "if password:\n    ciphername = _DEFAULT_CIPHER"],
	])("takes nothing from a typed name with no secret value: %s", (_name, text) => {
		expect(found(text)).toEqual([]);
	});

	// Go raw strings and JavaScript template literals (go.dev/ref/spec#String_literals, MDN "Template literals").
	it("takes a value in backticks, in Go and in JavaScript", () => {
		expect(found("apiToken := `Zq7Yx3Wv9UtXk2LmPa4Rs`")).toEqual([["token", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
		expect(found("const token = `Zq7Yx3Wv9UtXk2LmPa4Rs`;")).toEqual([["token", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
	});

	it("takes nothing from minified code's backtick strings and appended expressions", () => {
		expect(found("{key:`mutationScoreBasedOnCoveredCode`}")).toEqual([]);
		expect(found("x?this._password+=M:this._username+=M")).toEqual([]);
		expect(found("    password += string.digits")).toEqual([]);
		expect(found('portfolio_share_token += "-principals"')).toEqual([]);
	});

	it("takes nothing from a template literal that builds the value", () => {
		expect(found("const token = `Zq7Yx3Wv9UtXk2$" + "{suffix}`;")).toEqual([]);
		expect(found("const auth = `Zq7Yx3Wv9UtXk2Lm $" + "{user}`;")).toEqual([]);
	});

	// GNU make manual "Setting Variables" / "Appending" (`?=`, `+=`, `::=`, `:::=`); PHP's `.=` string operator.
	it.each([
		["API_TOKEN ?= Zq7Yx3Wv9UtXk2LmPa4Rs"],
		["API_TOKEN += Zq7Yx3Wv9UtXk2LmPa4Rs"],
		["API_TOKEN ::= Zq7Yx3Wv9UtXk2LmPa4Rs"],
		["API_TOKEN :::= Zq7Yx3Wv9UtXk2LmPa4Rs"],
		['$apiToken .= "Zq7Yx3Wv9UtXk2LmPa4Rs";'],
	])("takes the value after Make's and PHP's assignment operators: %s", (text) => {
		expect(found(text)).toEqual([["token", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
	});

	// Python os.environ, Ruby ENV, Node process.env, Java System.setProperty, Go os.Setenv (each language's library docs).
	it.each([
		['os.environ["API_TOKEN"] = "Zq7Yx3Wv9UtXk2LmPa4Rs"'],
		["ENV['API_TOKEN'] = 'Zq7Yx3Wv9UtXk2LmPa4Rs'"],
		['process.env.API_TOKEN = "Zq7Yx3Wv9UtXk2LmPa4Rs";'],
		['os.environ.setdefault("API_TOKEN", "Zq7Yx3Wv9UtXk2LmPa4Rs")'],
		['System.setProperty("api.token", "Zq7Yx3Wv9UtXk2LmPa4Rs");'],
		['os.Setenv("API_TOKEN", "Zq7Yx3Wv9UtXk2LmPa4Rs")'],
		['ENV.fetch("API_TOKEN", "Zq7Yx3Wv9UtXk2LmPa4Rs")'],
	])("takes a value set under a name given as an index or a call's first argument: %s", (text) => {
		expect(found(text)).toEqual([["token", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
	});

	it.each([
		["a list", 'fields = ["token", "Zq7Yx3Wv9UtXk2LmPa4Rs"]'],
		["a tuple", "    ('OAUTH2_CLIENT_SECRET', 'oauth2ClientSecret'),"],
		["a call that sets no setting", "@field_serializer('password', 'password_bytes', when_used='json')"],
		["a config reader's section and option", "port = config.get('Credentials', 'gs_iamcredentials_port', None)"],
		["an indexed assignment of a variable", 'data["password"] = service_account_creds'],
	])("takes nothing from names listed or an expression assigned: %s", (_name, text) => {
		expect(found(text)).toEqual([]);
	});

	// Maven settings.xml (maven.apache.org/settings.html, `<server><password>`), on one line or pretty-printed.
	it("takes an XML element's text under a secret's name, on its line or on its own", () => {
		expect(found("<password>Zq7Yx3Wv9UtXk2LmPa4Rs</password>")).toEqual([["password", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
		expect(found("<apiKey>\n    Zq7Yx3Wv9UtXk2LmPa4Rs\n</apiKey>")).toEqual([["key", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
	});

	it.each([
		["an element holding words", "<password>not set yet</password>"],
		["a property reference", "<password>$" + "{env.MAVEN_PASSWORD}</password>"],
		["a generic type", "const keys: Array<ApiKey> = [];"],
		["a usage line", "usage: login <password>"],
	])("takes nothing from an element that holds no secret: %s", (_name, text) => {
		expect(found(text)).toEqual([]);
	});

	// NuGet.config packageSourceCredentials (learn.microsoft.com/nuget/reference/nuget-config-file).
	it("takes the value attribute, not the label, of a key and value pair", () => {
		const text = '<add key="ClearTextPassword" value="Zq7Yx3Wv9UtXk2LmPa4Rs" />';
		expect(found(text)).toEqual([["password", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
		expect(found('<entry name="apiToken" value="Zq7Yx3Wv9UtXk2LmPa4Rs"/>')).toEqual([
			["token", "Zq7Yx3Wv9UtXk2LmPa4Rs"],
		]);
	});

	// Kubernetes container env (kubernetes.io/docs/tasks/inject-data-application/define-environment-variable-container),
	// an ECS task definition's environment and AWS tags (docs.aws.amazon.com), an Info.plist (developer.apple.com).
	it.each([
		["a Kubernetes env list", "env:\n  - name: API_TOKEN\n    value: Zq7Yx3Wv9UtXk2LmPa4Rs", "token"],
		["an ECS task definition", '{"name": "DB_PASSWORD", "value": "Zq7Yx3Wv9UtXk2LmPa4Rs"}', "password"],
		["an AWS tag list", '{"Key": "API_TOKEN", "Value": "Zq7Yx3Wv9UtXk2LmPa4Rs"}', "token"],
		["a property list", "<key>API_TOKEN</key>\n\t<string>Zq7Yx3Wv9UtXk2LmPa4Rs</string>", "token"],
	])("takes the value an entry's name labels: %s", (_name, text, kind) => {
		expect(found(text)).toEqual([[kind, "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
	});

	it.each([
		["a plain env name", "  - name: LOG_LEVEL\n    value: Zq7Yx3Wv9UtXk2LmPa4Rs"],
		["a value taken from a Secret", "  - name: API_TOKEN\n    valueFrom:\n      secretKeyRef:"],
		["a plain plist key", "<key>CFBundleName</key>\n<string>Zq7Yx3Wv9UtXk2LmPa4Rs</string>"],
		["a list of names", "API_TOKEN, value: Zq7Yx3Wv9UtXk2LmPa4Rs"],
	])("takes nothing from an entry whose name labels no secret: %s", (_name, text) => {
		expect(found(text)).toEqual([]);
	});

	// HashiCorp Vault's CLI prints a secret's fields as a two-column table (developer.hashicorp.com/vault/docs/commands/kv/get).
	it("takes the value column of a table row under a secret's name, as `vault kv get` prints it", () => {
		const text =
			"====== Data ======\nKey         Value\n---         -----\npassword    Zq7Yx3Wv9UtXk2LmPa4Rs\nttl         768h";
		expect(found(text)).toEqual([["password", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
	});

	it.each([
		["a help line's description", "  token       The token to send (Zq7Yx3Wv9UtXk2LmPa4Rs)"],
		["a name after other words", "the token    Zq7Yx3Wv9UtXk2LmPa4Rs"],
		["a row of a name of no secret", "token_duration    768h"],
		["a Go struct's field and its type", "\tkey  *rsa.PrivateKey"],
		["a docstring's aligned words", "  google_calendar_auth         jwks_uri:"],
	])("takes nothing from a line that is no name and value row: %s", (_name, text) => {
		expect(found(text)).toEqual([]);
	});

	// Dockerfile reference, ENV: "ENV <key> <value>" is the older form, still read.
	it("takes the value of a Dockerfile's older ENV form, but no path", () => {
		expect(found("ENV API_TOKEN Zq7Yx3Wv9UtXk2LmPa4Rs")).toEqual([["token", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
		expect(found("ENV PATH /usr/local/bin:$PATH")).toEqual([]);
	});

	it.each([
		["a reference", '<add key="ClearTextPassword" value="%FEED_PASSWORD%" />'],
		["a sample spelling its label", '<add key="Password" value="SamplePassword7" />'],
		["a label that names no secret", '<add key="packageSourceMapping" value="Zq7Yx3Wv9UtXk2LmPa4Rs" />'],
		["a page's anti-forgery token", '<input type="hidden" name="authenticity_token" value="Zq7Yx3Wv9UtXk2LmPa4Rs">'],
	])("takes nothing from a pair that holds no credential: %s", (_name, text) => {
		expect(found(text)).toEqual([]);
	});
});

describe("secretSpans: the edges of each assignment form", () => {
	// GNU make manual "Setting Variables": `?=` written with no blank, and `+=` on a makefile's later line.
	it.each([
		["`?=` with no blank around it", "API_TOKEN?=Zq7Yx3Wv9UtXk2LmPa4Rs"],
		["`+=` at the start of a later line", "CFLAGS = -O2\nAPI_TOKEN += Zq7Yx3Wv9UtXk2LmPa4Rs"],
	])("takes a makefile's value after %s", (_name, text) => {
		expect(found(text)).toEqual([["token", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
	});

	// Swift's older style puts a blank before a type's colon (swift.org "The Basics", Type Annotations).
	it("takes a typed declaration's value with a blank before the type's colon", () => {
		expect(found('let apiKey : String = "Zq7Yx3Wv9UtXk2LmPa4Rs"')).toEqual([["key", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
	});

	// PHP manual, String Operators: `.=` appends.
	it.each([['    password += "_backup2"'], ['$password .= "_backup2";']])(
		"takes no piece appended to a password that does not look random: %s",
		(text) => {
			expect(found(text)).toEqual([]);
		},
	);

	it("takes a password that spells its own name outside markup", () => {
		expect(found("MYSQL_PASSWORD=mysql_password_2024")).toEqual([["password", "mysql_password_2024"]]);
	});

	// RFC 6749 section 4.2.2: the implicit grant's redirect carries the token in a fragment of `&`-joined pairs.
	it("ends an unquoted value at the next pair of a query string", () => {
		const text = "https://app.example.com/cb#access_token=Zq7Yx3Wv9UtXk2LmPa4Rs&state=xyz&expires_in=3600";
		expect(found(text)).toEqual([["token", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
	});

	it("takes a lone `key`'s value, and a longer name's before a `value` key, as no label", () => {
		expect(found('key = "Zq7Yx3Wv9UtXk2LmPa4Rs"')).toEqual([["key", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
		expect(found("api_key: Zq7Yx3Wv9UtXk2LmPa4Rs\nvalue: 8443")).toEqual([["key", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
		expect(found("keystorePassword: Zq7Yx3Wv9UtXk2LmPa4Rs\nvalue: 8443")).toEqual([
			["password", "Zq7Yx3Wv9UtXk2LmPa4Rs"],
		]);
	});

	it("takes a value in backticks whatever template literal stands later on the line", () => {
		expect(found("const token = `Zq7Yx3Wv9UtXk2LmPa4Rs`; const url = `$" + "{base}/v1`;")).toEqual([
			["token", "Zq7Yx3Wv9UtXk2LmPa4Rs"],
		]);
	});

	// Maven settings.xml (maven.apache.org/settings.html), pretty-printed: the element stands far into the text.
	it("takes a pretty-printed element's text deep in a file", () => {
		const text =
			"<settings>\n  <servers>\n    <server>\n      <id>nexus-releases</id>\n      <username>deploy</username>\n" +
			"      <password>\n        Zq7Yx3Wv9UtXk2LmPa4Rs\n      </password>\n    </server>\n  </servers>\n</settings>";
		expect(found(text)).toEqual([["password", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
	});

	it("takes no element whose name an unquoted attribute gives, not a tag", () => {
		expect(found("<label for=password>Passphrase:</label>")).toEqual([]);
	});

	// A log line's timestamp stands first: a form that holds no value must not read one from the text's start.
	it.each([
		["an indexed assignment of a variable", 'data["password"] = service_account_creds'],
		["a list of names", "DB_PASSWORD, value: Zq7Yx3Wv9UtXk2LmPa4Rs"],
		["a plist key holding more than the name", "<key>Old DB_PASSWORD</key>\n<string>Zq7Yx3Wv9UtXk2LmPa4Rs</string>"],
		["a call that sets no setting", "@field_serializer('password', 'password_bytes')"],
		["an attribute's value before `>`", "<label for=password>Passphrase:</label>"],
		["an element holding a call", "<password>getPassword()</password>"],
	])("reads nothing from a logged line's start for %s", (_name, line) => {
		expect(found(`[2026-12-05T20:45:58Z] ${line}`)).toEqual([]);
	});
});

describe("secretSpans: the edges of a table row", () => {
	// `column -t` pads with two blanks (util-linux column(1)); Vault prints CRLF on Windows.
	it.each([
		["two blanks between, at the text's start and end", "password  Zq7Yx3Wv9UtXk2LmPa4Rs"],
		["two blanks between, on a later line at the text's end", "user      admin\npassword  Zq7Yx3Wv9UtXk2LmPa4Rs"],
		["lines ending in CRLF", "Key         Value\r\npassword    Zq7Yx3Wv9UtXk2LmPa4Rs\r\nttl         768h"],
	])("takes the value column of a row: %s", (_name, text) => {
		expect(found(text)).toEqual([["password", "Zq7Yx3Wv9UtXk2LmPa4Rs"]]);
	});
});

describe("secretSpans: the edges of flags, URLs and cookies", () => {
	it("takes curl's --user after any number of blanks", () => {
		expect(found("curl --user  admin:S3cret99 https://api.example.com")).toEqual([["password", "S3cret99"]]);
	});

	it("takes every -p of a command deep in its line", () => {
		const text = "cd /srv/app/releases/current && sshpass -p S3cret99 ssh db 'mysql -u root -pDbPass77'";
		expect(found(text)).toEqual([
			["password", "S3cret99"],
			["password", "DbPass77"],
		]);
	});

	// RFC 3986 section 3.1: a scheme starts with a letter, and here is at least two characters.
	it.each([
		["a one-letter scheme after other words", "see x://user:S3cret99@host"],
		["a scheme starting with a digit", "see 9p://user:S3cret99@host"],
	])("takes no password from %s", (_name, text) => {
		expect(found(text)).toEqual([]);
	});

	it("ends a cookie value at the text's end", () => {
		expect(secretSpans("Cookie: sid=Zk3Qm9XwPq7Rt2Ls").map((s) => [s.start, s.end])).toEqual([[12, 28]]);
	});

	// The value ends at `;`, a quote, a comma, `&` and every blank JavaScript's `\s` knows, and at nothing else; but
	// U+FEFF, a blank to `\s`, is an invisible character the view drops before any finder reads the text.
	it("ends a cookie value at exactly `; \" ' , &` and the blanks, of all 65,536 code units", () => {
		const value = "Zk3Qm9XwPq7Rt2Ls";
		const ends: number[] = [];
		for (let code = 0; code <= 0xffff; code++) {
			const text = `Cookie: sid=${value}${String.fromCharCode(code)}Ab4Cd6Ef8Gh0Ij2K`;
			if (found(text)[0]?.[1] === value) ends.push(code);
		}
		const blanks = [...Array(0x10000).keys()].filter(
			(code) => code !== 0xfeff && /[;\s"',&]/.test(String.fromCharCode(code)),
		);
		expect(ends).toEqual(blanks);
	});
});

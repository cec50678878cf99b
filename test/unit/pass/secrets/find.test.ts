import { describe, expect, it } from "vitest";
import { secretSpans, secretValueKind } from "../../../../src/pass/secrets/index.js";

describe("secretValueKind: a value whose text is a secret", () => {
	it("is named by its own text when it carries a vendor prefix, whole or cut", () => {
		expect(secretValueKind("token", "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6")).toBe("github token");
		expect(secretValueKind("deploy token", "ghp_aB3dE6gH9j")).toBe("github token");
	});

	it("is named by the assignment its name makes, where the text alone looks like any random string", () => {
		expect(secretValueKind("AWS secret access key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y")).toBe("secret");
		expect(secretValueKind("database password", "s3cretPassw0rd")).toBe("password");
	});

	it("is not any harmless value: a port, a hash, a version, a count, a key's name", () => {
		for (const [name, value] of [
			["dev server port", "5173"],
			["commit", "1507f8b"],
			["node version", "v20.19.4"],
			["tests", "12 passed"],
			["api key variable", "STRIPE_API_KEY"],
			["token budget", "4096"],
		])
			expect(secretValueKind(name ?? "", value ?? "")).toBeUndefined();
	});
});

/** What the patterns take for secrets in a text: each stretch's kind and its characters. */
const found = (text: string) => secretSpans(text).map((s) => [s.kind, text.slice(s.start, s.end)]);

describe("secretSpans: vendor tokens", () => {
	const token = "ghp_aB3dE6gH9jK2mN5pQ8";

	it("finds a token with words after it", () => {
		expect(found(`${token} is mine`)).toEqual([["github token", token]]);
	});

	it("finds a token after a JSON-escaped line break, as in a prompt's encoded lines", () => {
		expect(found(`line\\n${token}`)).toEqual([["github token", token]]);
	});

	it("finds no token inside a longer word, nor a prefix with too short a body", () => {
		expect(found(`my${token}`)).toEqual([]);
		expect(found("sk-learn is a library")).toEqual([]);
	});
});

describe("secretSpans: private keys", () => {
	it("takes a whole key block", () => {
		const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----";
		expect(found(`key:\n${key}\nend`)).toContainEqual(["private key", key]);
	});

	it("takes the end of a block whose start a cut took away, back to the cut", () => {
		const tail = "\nqL0xWw+ZbV9\n-----END PRIVATE KEY-----";
		expect(found(`cut…${tail} ok`)).toContainEqual(["private key", tail]);
	});
});

describe("secretSpans: passwords in URLs", () => {
	it("takes only the password of scheme://user:password@", () => {
		expect(found("postgres://admin:s3cret99@db.local/app")).toEqual([["password in url", "s3cret99"]]);
		expect(found("redis://u:99s3cret@cache")).toEqual([["password in url", "99s3cret"]]);
		expect(found("ftp://u:xsecret9@files")).toEqual([["password in url", "xsecret9"]]);
	});

	it("takes no port, reference or mask for a password", () => {
		for (const url of [
			"redis://u:12345678@cache",
			"postgres://u:$DB_PASS@db",
			"postgres://u:aaaaaaa@db",
			"postgres://u:****@db",
			"postgres://u:****-****@db",
		])
			expect(found(url)).toEqual([]);
	});
});

describe("secretSpans: no piece beside a cut mark is guessed at", () => {
	it("takes no path, flag or word beside …", () => {
		for (const text of [
			"mkdir -p /Users/…/pi-mono/packages/coding-agent/docs",
			"read @packages/coding-agent/src/main.ts… and then",
			"tsgo --noEmit …",
			"ChalkInstance… and Zk3Qm9Xw…Pq7Rt2Ls",
		])
			expect(found(text)).toEqual([]);
	});
});

describe("secretSpans: code that names a key without holding one", () => {
	it("takes no call, member path, type or identifier for a key's or token's value", () => {
		for (const text of [
			"const apiKey = getApiKey(provider);",
			"const apiKey = await resolveApiKey(model, options);",
			"headers.authorization = config.authToken;",
			"token: TokenType;",
			"const secret = this.secretStore;",
			"api_key = os.environ['OPENAI_API_KEY']",
		])
			expect(found(text)).toEqual([]);
	});

	it("still takes a random value under the same names", () => {
		expect(found("const apiKey = 'Zk3Qm9XwPq7Rt2LsAb4Cd6Ef';")).toEqual([["key", "Zk3Qm9XwPq7Rt2LsAb4Cd6Ef"]]);
	});
});

describe("secretSpans: terminal escapes are no word boundary", () => {
	const token = "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6";

	it("finds a token in colour codes, raw or as escaped text", () => {
		for (const esc of ["\u001b", "\\x1b", "\\u001b", "\\033", "\\e"]) {
			const text = `${esc}[32m${token}${esc}[0m and GITHUB_TOKEN=${esc}[1m${token}`;
			expect(
				found(text)
					.filter(([kind]) => kind === "github token")
					.map(([, t]) => t),
			).toEqual([token, token]);
		}
	});

	it("finds a token whose first letter is an escape's final byte", () => {
		expect(found(`\\x1b[${token}`).map(([, t]) => t)).toContain(token);
	});
});

describe("secretValueKind: what the name of a value makes of it", () => {
	it("takes a random-looking value under any *_KEY name for a key, from 16 characters", () => {
		expect(secretValueKind("build key", "a8Fk2LmQ9zXw3RtY")).toBe("key");
		expect(secretValueKind("BUILD KEY", "a8fk2lmq9zxw3rty")).toBe("key");
		expect(secretValueKind("build key", "a8Fk2LmQ9zXw3Rt")).toBeUndefined();
	});

	it("takes no value of one kind of character or a repetitive one under a *_KEY name, nor a random value under any other name", () => {
		expect(secretValueKind("build key", "qwertyuiopasdfgh")).toBeUndefined();
		expect(secretValueKind("build key", "abababab12121212")).toBeUndefined();
		expect(secretValueKind("build id", "a8Fk2LmQ9zXw3RtY")).toBeUndefined();
	});

	it("asks more randomness of a key without digits than of one with them", () => {
		expect(secretValueKind("build key", "aAbBcC12aAbBcC12")).toBe("key");
		expect(secretValueKind("build key", "aAbBcCdDaAbBcCdD")).toBeUndefined();
	});

	it("takes a password of 8 characters or more, of two kinds of character at least", () => {
		expect(secretValueKind("database password", "hunter2hunter")).toBe("password");
		expect(secretValueKind("database password", "pa55word")).toBe("password");
		expect(secretValueKind("database password", "correctHorseBattery")).toBe("password");
		expect(secretValueKind("database password", "hunter$2hunter")).toBe("password");
		expect(secretValueKind(" database password ", "s3cretPassw0rd")).toBe("password");
	});

	it("takes no short password, nor one of a single kind of character", () => {
		expect(secretValueKind("database password", "pa55wd")).toBeUndefined();
		expect(secretValueKind("database password", "correcthorse")).toBeUndefined();
		expect(secretValueKind("database password", "CORRECTHORSE")).toBeUndefined();
	});

	it("takes no reference to a secret kept elsewhere, blanks around it or not", () => {
		expect(secretValueKind("token", " $GITHUB_TOKEN ")).toBeUndefined();
	});

	it("names the kind by the end of a strong name", () => {
		expect(secretValueKind("key credentials", "x9Fk2LmQ9zXw")).toBe("credential");
	});

	it("does not take a value for a secret by the pieces a cut left in it alone", () => {
		expect(secretValueKind("note", "Abcdefgh…Pq7Rt2Ls")).toBeUndefined();
	});
});

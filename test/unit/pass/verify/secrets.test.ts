import { describe, expect, it } from "vitest";
import { secretSpans, secretValueKind } from "../../../../src/pass/verify/secrets.js";

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

describe("secretSpans: pieces a cut left beside …", () => {
	it("takes the key-like piece on each side of the mark, with or without a blank between", () => {
		expect(found("the key Zk3Qm9Xw…Pq7Rt2Ls done")).toEqual([
			["cut secret", "Zk3Qm9Xw"],
			["cut secret", "Pq7Rt2Ls"],
		]);
		expect(found("the key Zk3Qm9Xw … Pq7Rt2Ls done")).toEqual([
			["cut secret", "Zk3Qm9Xw"],
			["cut secret", "Pq7Rt2Ls"],
		]);
		expect(found("the key Zk3Qm9Xw …Pq7Rt2Ls done")).toEqual([
			["cut secret", "Zk3Qm9Xw"],
			["cut secret", "Pq7Rt2Ls"],
		]);
	});

	it("takes a piece at the very start or end of the text", () => {
		expect(found("Abcdefgh1…")).toEqual([["cut secret", "Abcdefgh1"]]);
		expect(found("…Pq7Rt2Ls")).toEqual([["cut secret", "Pq7Rt2Ls"]]);
	});

	it("takes a piece of 8 characters of two kinds, or of 12 of one, ending in digits or not", () => {
		for (const piece of ["Abcdefgh", "Abcdefgh12", "ghijklmnopqr", "ghijklmnopqa"])
			expect(found(`was ${piece}… cut`)).toEqual([["cut secret", piece]]);
	});

	it("takes no number, no lowercase hex hash, no short word beside the mark", () => {
		for (const piece of ["12345678", "deadbeefcafe", "Abc1", "Abcdefg", "abcdefghijk"])
			expect(found(`was ${piece}… cut`)).toEqual([]);
		expect(found("Zk3Qm9Xw…ab")).toEqual([["cut secret", "Zk3Qm9Xw"]]);
	});

	it("takes at most 512 characters of a piece", () => {
		const long = "Ab1".repeat(200);
		expect(found(`…${long}`)).toEqual([["cut secret", long.slice(0, 512)]]);
	});
});

describe("secretValueKind: what the name of a value makes of it", () => {
	it("takes a random-looking value under any *_KEY name for a key, from 16 characters", () => {
		expect(secretValueKind("cache key", "a8Fk2LmQ9zXw3RtY")).toBe("key");
		expect(secretValueKind("CACHE KEY", "a8fk2lmq9zxw3rty")).toBe("key");
		expect(secretValueKind("cache key", "a8Fk2LmQ9zXw3Rt")).toBeUndefined();
	});

	it("takes no value of one kind of character or a repetitive one under a *_KEY name, nor a random value under any other name", () => {
		expect(secretValueKind("cache key", "qwertyuiopasdfgh")).toBeUndefined();
		expect(secretValueKind("cache key", "abababab12121212")).toBeUndefined();
		expect(secretValueKind("build id", "a8Fk2LmQ9zXw3RtY")).toBeUndefined();
	});

	it("asks more randomness of a key without digits than of one with them", () => {
		expect(secretValueKind("cache key", "aAbBcC12aAbBcC12")).toBe("key");
		expect(secretValueKind("cache key", "aAbBcCdDaAbBcCdD")).toBeUndefined();
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

import { describe, expect, it } from "vitest";
import {
	classes,
	isCodeName,
	isPath,
	isPlaceholder,
	isPlainUrl,
	isPlainValue,
	isWords,
	looksRandom,
} from "../../../../src/pass/secrets/values.js";

/** A path of one part after the root: judged as base64 or not by that part's letters and digits alone. */
const rooted = (part: string) => `/${part}`;

describe("classes: the kinds of character a text has", () => {
	it("counts lower case, upper case, digits and the rest", () => {
		expect([classes("abc"), classes("aBc"), classes("aB3"), classes("aB3-"), classes("")]).toEqual([1, 2, 3, 4, 0]);
		expect(classes("\u043a\u043b\u044e\u0447")).toBe(1);
	});
});

describe("isPath: a path at a root, a home or a relative dot", () => {
	it("takes a path from the root, a home, . or .., and a Windows drive", () => {
		for (const path of ["/home/dev/project", "./bin/run", "../lib/index.ts", "~/.ssh/config", "C:\\Users\\dev"])
			expect(isPath(path)).toBe(true);
	});

	it("takes nothing that does not start at one of them", () => {
		for (const value of ["src/main.ts", "home/dev", ".hidden/x", "C:/Users"]) expect(isPath(value)).toBe(false);
	});

	it("takes no value holding + or =", () => {
		expect(isPath("/usr/lib/c++/v1")).toBe(false);
		expect(isPath("/a/b=c")).toBe(false);
	});

	it("takes parts of up to 64 characters, and no longer", () => {
		expect(isPath(rooted("a".repeat(64)))).toBe(true);
		expect(isPath(rooted("a".repeat(65)))).toBe(false);
		expect(isPath(`/home/${"a".repeat(65)}/x`)).toBe(false);
	});
});

describe("isPath: a value that reads as base64 is no path", () => {
	it("takes 20 letters and digits of three kinds that change kind often for base64", () => {
		expect(isPath("/Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7")).toBe(false);
		expect(isPath("/Zq7Yx3Wv9U/t5Rs1Qp8On2Ml4Kj6")).toBe(false);
	});

	it("takes a name and words between slashes for a path", () => {
		expect(isPath("/home/runner/work/MyProject2/deploy_key")).toBe(true);
	});

	it("reads as base64 only text of letters and digits alone, 20 or more of them", () => {
		expect(isPath("./Ab3dE6gH9jK2mN5pQ8sT1vW")).toBe(true);
		expect(isPath("/Ab3dE6gH9jK2mN5pQ8sT1vW.txt")).toBe(true);
		expect(isPath("/aB1/cD2")).toBe(true);
		expect(isPath(rooted("Ab3dE6gH9jK2mN5pQ8s"))).toBe(true);
		expect(isPath(rooted("Ab3dE6gH9jK2mN5pQ8sT"))).toBe(false);
	});

	it("reads as base64 only text with upper case, lower case and digits", () => {
		expect(isPath(rooted("a1b2c3d4e5f6g7h8i9j0k1"))).toBe(true);
		expect(isPath(rooted("AbCdEfGhIjKlMnOpQrStUv"))).toBe(true);
	});

	it("reads as base64 text that changes kind at one character in five or more", () => {
		// 20 characters, 4 changes (lower to upper, upper to digit, digit to upper, upper to lower): base64.
		expect(isPath(rooted("aaaaaaaaaaaaaaaaA1Ba"))).toBe(false);
		// 20 characters, 3 changes: a name.
		expect(isPath(rooted("aaaaaaaaaaaaaaAAaaa1"))).toBe(true);
	});

	it("tells digits, upper case and lower case apart, each from each", () => {
		// Each alternates two kinds 16 times: base64 whichever two kinds alternate.
		expect(isPath(rooted("A1A1A1A1A1A1A1A1aaaa"))).toBe(false);
		expect(isPath(rooted("9A9A9A9A9A9A9A9Aaaaa"))).toBe(false);
		expect(isPath(rooted("AaAaAaAaAaAaAaAa1111"))).toBe(false);
		expect(isPath(rooted("ZaZaZaZaZaZaZaZa1111"))).toBe(false);
		expect(isPath(rooted("a1a1a1a1a1a1a1a1AAAA"))).toBe(false);
	});
});

describe("isPlaceholder: a reference, a mask, an elided example, a placeholder", () => {
	it("takes a reference to a secret kept elsewhere, and our marker", () => {
		for (const value of [
			"$GITHUB_TOKEN",
			"\u0024{{ secrets.NPM_TOKEN }}",
			"%API_KEY%",
			"process.env.API_KEY",
			"os.environ['KEY']",
			"env.TOKEN",
			"<your-api-key>",
			"{{ api_key }}",
			"[redacted: token]",
		])
			expect(isPlaceholder(value)).toBe(true);
	});

	it("takes a mask of four stars or three dots, and no single one inside a value", () => {
		expect(isPlaceholder("sk-****abcd")).toBe(true);
		expect(isPlaceholder("abc\u2022\u2022\u2022")).toBe(true);
		expect(isPlaceholder("p*ssw0rd!")).toBe(false);
		expect(isPlaceholder("p***w0rd!")).toBe(false);
		expect(isPlaceholder("pass\u2022word1")).toBe(false);
		expect(isPlaceholder("pa\u2022\u2022word1")).toBe(false);
	});

	it("takes one character repeated, and a mask of stars, x, dots and dashes whole", () => {
		expect(isPlaceholder("aaaaaaaa")).toBe(true);
		expect(isPlaceholder("xxxx-xxxx-xxxx")).toBe(true);
		expect(isPlaceholder("XXXX.XXXX")).toBe(true);
		expect(isPlaceholder("Zq7Yx3Wv9UtX")).toBe(false);
		expect(isPlaceholder("x9Fk2LmQ")).toBe(false);
	});

	it("takes an ellipsis mark anywhere", () => {
		expect(isPlaceholder("abcdefghijklmnop\u2026xyz")).toBe(true);
	});

	it("takes three dots after fewer than 12 characters, or at the end, for an elided example", () => {
		expect(isPlaceholder("...abcdef123")).toBe(true);
		expect(isPlaceholder("sk-ant-api03-...")).toBe(true);
		expect(isPlaceholder("abc...xyz")).toBe(true);
		expect(isPlaceholder("abcdefghijk...wr")).toBe(true);
		expect(isPlaceholder("bCt_49rdwAHpFA8...wr")).toBe(false);
		expect(isPlaceholder("bCt_49rdwAHp...wr")).toBe(false);
		expect(isPlaceholder("bCt_49rdwAHpFA8....")).toBe(true);
		expect(isPlaceholder("bCt_49rdwAHpFA8")).toBe(false);
	});
});

describe("looksRandom: a generated key's mark", () => {
	it("asks 16 characters or more, of two kinds or more", () => {
		expect(looksRandom("a8Fk2LmQ9zXw3RtY")).toBe(true);
		expect(looksRandom("a8Fk2LmQ9zXw3Rt")).toBe(false);
		expect(looksRandom("qwertyuiopasdfgh")).toBe(false);
	});

	it("asks more randomness of a value without digits", () => {
		expect(looksRandom("aAbBcC12aAbBcC12")).toBe(true);
		expect(looksRandom("aAbBcCdDaAbBcCdD")).toBe(false);
	});
});

describe("isCodeName: code that names a secret without holding one", () => {
	it("takes a member path of two names or more", () => {
		for (const value of ["config.apiKey", "this.token", "this.config.apiKey", "$scope.auth_token", "_env.KEY2"])
			expect(isCodeName(value)).toBe(true);
	});

	it("takes no member path that starts with a digit, nor an address around one", () => {
		expect(isCodeName("2fa.token")).toBe(false);
		expect(isCodeName("jane.doe@example.com")).toBe(false);
		expect(isCodeName("config.")).toBe(false);
		expect(isCodeName("config.2fa")).toBe(false);
	});

	it("takes a word of letters alone that does not look random", () => {
		for (const value of ["getApiKey", "TokenType", "string", "x"]) expect(isCodeName(value)).toBe(true);
	});

	it("takes no random-looking letters, nor a value with digits or other characters", () => {
		expect(isCodeName("ZqYxWvUtRsQpOnMlKjIhGfEd")).toBe(false);
		expect(isCodeName("sunflower42")).toBe(false);
		expect(isCodeName("12345678")).toBe(false);
		expect(isCodeName("same-origin")).toBe(false);
	});
});

describe("isWords: short words joined by dashes, dots or underscores", () => {
	it("takes words of letters, each with up to two digits after it", () => {
		for (const value of ["same-origin", "oauth2-pkce-flow", "include", "grpc-http2", "cache.v12_final"])
			expect(isWords(value)).toBe(true);
	});

	it("takes no word of more than 12 letters or more than two digits", () => {
		expect(isWords("abcdefghijklm")).toBe(false);
		expect(isWords("grpc-http123")).toBe(false);
		expect(isWords("Zq7Yx3Wv9Ut5")).toBe(false);
	});
});

describe("isPlainUrl: a URL without userinfo", () => {
	it("takes a URL of any scheme with no @ in it", () => {
		for (const value of ["https://example.com/a?b=c", "git+ssh://example.com/repo.git", "s3://bucket/key"])
			expect(isPlainUrl(value)).toBe(true);
	});

	it("takes no URL with userinfo, and no text that is more than a URL", () => {
		expect(isPlainUrl("https://user:pw@example.com")).toBe(false);
		expect(isPlainUrl("go to https://example.com")).toBe(false);
		expect(isPlainUrl("https://example.com and then more")).toBe(false);
		expect(isPlainUrl("9p://host/share")).toBe(false);
	});
});

describe("isPlainValue: no secret by its name alone", () => {
	it("takes a path, a UUID, a plain URL", () => {
		expect(isPlainValue("/home/dev/project")).toBe(true);
		expect(isPlainValue("3f2b8c1e-9d4a-4f6b-8e2c-1a7d5b9c0e3f")).toBe(true);
		expect(isPlainValue("https://example.com/callback")).toBe(true);
	});

	it("takes a hash: hex in one case, or a named digest", () => {
		for (const value of [
			"1507f8b",
			"1507F8B",
			"5e3c0a7b9d1f2e4c6a8b0d2f4e6a8c0b",
			"sha256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
			"sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR",
		])
			expect(isPlainValue(value)).toBe(true);
	});

	it("takes no hex too short or of both cases, nor hex with more before or after it", () => {
		for (const value of ["1507f8", "1507f8B", "xyz1507f8b3c", "1507f8bZq9"]) expect(isPlainValue(value)).toBe(false);
	});

	it("takes a cache key of words and a hash, with nothing before or after it", () => {
		expect(isPlainValue("node-cache-Linux-x64-npm-5e3c0a7b9d1f2e4c")).toBe(true);
		expect(isPlainValue("+build-5e3c0a7b9d1f")).toBe(false);
		expect(isPlainValue("build-5e3c0a7bXq9Zk2")).toBe(false);
	});

	it("takes words and numbers", () => {
		for (const value of ["same-origin", "4096", "1.2.3", "12:30", "1,000"]) expect(isPlainValue(value)).toBe(true);
		for (const value of ["4096 tokens", "v4096x", "Zq7Yx3Wv9Ut5Rs1Qp8On"]) expect(isPlainValue(value)).toBe(false);
	});
});

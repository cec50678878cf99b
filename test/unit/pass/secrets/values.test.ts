import { describe, expect, it } from "vitest";
import {
	classes,
	isCodeName,
	isIdentifier,
	isMemberPath,
	isPath,
	isPlaceholder,
	isPlainUrl,
	isPlainValue,
	isVersionedName,
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

	it("takes a word in square brackets, as a command's documentation writes a placeholder", () => {
		// `curl --user admin:[ADMIN_PASSWORD]`, as READMEs write a value to fill in (gitleaks rules/curl.go keeps it too).
		for (const value of ["[DB_PASSWORD]", "[your password]", "[API_TOKEN]", "[api-key]"])
			expect(isPlaceholder(value)).toBe(true);
		for (const value of ["[Zq7Yx3Wv9U]", "[abc]def", "x[DB_PASSWORD]"]) expect(isPlaceholder(value)).toBe(false);
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

	it("takes the member paths of real code, whatever its names' case, digits or length", () => {
		for (const value of [
			// Node, Deno, Vite and browser code.
			"process.env.API_KEY",
			"process.env.AZURE_STORAGE_CONNECTION_STRING",
			"import.meta.env.VITE_SUPABASE_ANON_KEY",
			"this.configService.getOrThrow",
			"self.oauth2Client.credentials.accessToken",
			"window.localStorage.getItem",
			"utils.hmacSha256Base64Url",
			// Python.
			"os.environ.get",
			"settings.secrets.github",
			"app.config.JWT_SECRET_KEY",
			// Terraform references.
			"var.db_password",
			"data.vault_generic_secret.x.data",
			"module.x.y",
			"random_password.db.result",
			"aws_iam_access_key.ci.encrypted_secret",
			"data.aws_secretsmanager_secret_version.db_credentials.secret_string",
			// Helm's values, GitHub Actions' contexts, Java packages.
			"Values.secret.key",
			"secrets.NPM_TOKEN",
			"steps.get_token.outputs.token",
			"settings.AWS_S3_BUCKET_2FA_KEY_V2",
			"org.springframework.security.oauth2.jwt",
			"session.credentials.x509Certificate",
			"ctx.XMLHttpRequestUpload",
		]) {
			expect(isMemberPath(value)).toBe(true);
			expect(isCodeName(value)).toBe(true);
		}
	});

	it("takes no dotted token for code: a random segment, or a vendor's dotted shape", () => {
		for (const value of [
			// Doppler's service token, dp.st.<environment>.<40 characters> (Doppler docs, "Token formats").
			"dp.st.prd.Zq7Yx3Wv9UtXk2LmPa4Rs8Tb6Nc1Qd5Ef0Gh3Jk7L",
			"dp.pt.ZqYxWvUtXkLmPaRsTbNcQdEfGhJkLmNpQrStUv",
			// Vault's legacy service token, s.<24 characters>, and its hvs. form (Vault docs, "Tokens").
			"s.Zq7Yx3Wv9UtXk2LmPa4Rs8Tb",
			// One with few capitals and two digits, as one random token in a hundred or so is (the bench plants them).
			"s.ab7cdWefgh2ijklmnopqrstu",
			"hvs.CAESIZqYxWvUtXkLmPaRsTbNcQdEfGhJkLmNp",
			// Dynatrace's dt0c01.<24>.<64> (Dynatrace docs, "Access tokens"; gitleaks rules/dynatrace.go).
			"dt0c01.ZQ7YX3WV9UTXK2LMPA4RS8TB.Q7YX3WV9UTXK2LMPA4RS8TB6NC1QD5EF0GH3JK7LM2NP4QR6ST8UV0WX2YZ4AB6CD8E",
			// Terraform Cloud's <14>.atlasv1.<long> (gitleaks rules/hashicorp.go).
			"Zq7Yx3Wv9UtXk2.atlasv1.Lm4Pa8Rs2Tb6Nc1Qd5Ef0Gh3Jk7LmZq7Yx3Wv9UtXk2LmPa4Rs8Tb6Nc1Qd5Ef0Gh3J",
			// Harness' pat.<account>.<24 hex>.<20> (gitleaks rules/harness.go).
			"pat.Zq7Yx3Wv9UtXk2LmPa4Rs8.5e3c0a7b9d1f2e4c6a8b0d2f.Zq7Yx3Wv9UtXk2LmPa4R",
		]) {
			expect(isMemberPath(value)).toBe(false);
			expect(isCodeName(value)).toBe(false);
		}
	});

	it("reads a segment as random by its digits between letters or its many capitals, not by its randomness alone", () => {
		// Random-looking, but a name: one or two digits inside, or few capitals.
		expect(isMemberPath("config.base64ToUtf8String")).toBe(true);
		expect(isMemberPath("config.NEXT_PUBLIC_FIREBASE_API_KEY")).toBe(true);
		// Three digits between letters, or a capital in three letters.
		expect(isMemberPath("config.abcdefgh1ijk2lmn3opq")).toBe(false);
		expect(isMemberPath("config.ZqYxWvUtRsQpOnMlKjIh")).toBe(false);
		// Too short to look random, whatever its shape.
		expect(isMemberPath("config.Zq7Yx3Wv9Ut")).toBe(true);
	});

	it("takes no random-looking letters, nor a value with digits or other characters", () => {
		expect(isCodeName("ZqYxWvUtRsQpOnMlKjIhGfEd")).toBe(false);
		expect(isCodeName("sunflower42")).toBe(false);
		expect(isCodeName("12345678")).toBe(false);
		expect(isCodeName("same-origin")).toBe(false);
	});
});

describe("isIdentifier: letters that read as a camelCase or PascalCase name", () => {
	it("takes the class and member names of real code, random-looking as they are", () => {
		// AWS SDK, DynamoDB's samples, Anthropic's SDK, TypeScript's compiler, Node's code (node_modules, 2026-12-06).
		for (const value of [
			"TableDescription",
			"AwsCredentialIdentity",
			"getBearerTokenEnvKey",
			"BetaManagedAgentsMCPOAuthAuthResponse",
			"EqualsGreaterThanToken",
			"oldCoverageTestKeysByMutantKey",
			"AWS_CONTAINER_AUTHORIZATION_TOKEN",
			"ClientSecret$inboundSchema",
		]) {
			expect(looksRandom(value)).toBe(true);
			expect(isIdentifier(value)).toBe(true);
			expect(isCodeName(value)).toBe(true);
		}
	});

	it("takes no random letters: a capital in three or more, a one-letter hump, humps without vowels", () => {
		for (const value of [
			"ZqYxWvUtRsQpOnMlKjIhGfEd",
			"qwrtzpsdfghjklmnbvcxQWRTZP",
			"abcdefgHijklmnoPQrstuvw",
			"bcdfgHjklmNpqrsTvwxz",
			"QXZRTPLMNW_KJHGFDSBV",
		])
			expect(isIdentifier(value)).toBe(false);
	});

	it("takes nothing but letters, `_` and `$`", () => {
		expect(isIdentifier("TableDescription2")).toBe(false);
		expect(isIdentifier("Table-Description")).toBe(false);
		expect(isIdentifier("")).toBe(false);
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

describe("isVersionedName: words and a version", () => {
	it("takes an artifact's or a release's name: words, then a version of two to four numbers", () => {
		// A Maven artifact and version as a dependency report prints them; an S3 object named with a version.
		for (const value of ["jackson-databind-2.15.3", "YearlyReport-3.1", "core@v2.4", "release_2024.05.1"])
			expect(isVersionedName(value)).toBe(true);
	});

	it("takes no version alone, no single number after the words, and no random text before a version", () => {
		for (const value of ["1.2.3", "release-2", "Zq7Yx3Wv9UtXk2LmPa4R-1.2", "abc-1.2.3.4.5"])
			expect(isVersionedName(value)).toBe(false);
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

	it("takes words and a version", () => {
		expect(isPlainValue("YearlyReport-3.1")).toBe(true);
	});

	it("takes words and numbers", () => {
		for (const value of ["same-origin", "4096", "1.2.3", "12:30", "1,000"]) expect(isPlainValue(value)).toBe(true);
		for (const value of ["4096 tokens", "v4096x", "Zq7Yx3Wv9Ut5Rs1Qp8On"]) expect(isPlainValue(value)).toBe(false);
	});
});

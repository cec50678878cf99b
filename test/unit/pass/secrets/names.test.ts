import { describe, expect, it } from "vitest";
import { assignedKind, isPlainByFirstWord, nameStrength, nameWords } from "../../../../src/pass/secrets/names.js";

/** A random-looking value of upper case, lower case and digits: a secret under any secret's name. */
const RANDOM = "Zq7Yx3Wv9Ut5Rs1Qp8On";

describe("nameWords: a name split into lower-case words", () => {
	it("splits at _ - . / and blanks, and at camelCase humps", () => {
		expect(nameWords("AWS_SECRET_ACCESS_KEY")).toEqual(["aws", "secret", "access", "key"]);
		expect(nameWords("apiKey")).toEqual(["api", "key"]);
		expect(nameWords("x-api-key")).toEqual(["x", "api", "key"]);
		expect(nameWords("db.password")).toEqual(["db", "password"]);
		expect(nameWords("OAuth2Token")).toEqual(["oauth2", "token"]);
	});

	it("keeps no empty word for separators at either end or side by side", () => {
		expect(nameWords("__init__")).toEqual(["init"]);
		expect(nameWords("--db--pass")).toEqual(["db", "pass"]);
		expect(nameWords("")).toEqual([]);
	});

	it("splits at ASCII's signs past `z` too (`{ | } ~`)", () => {
		expect(nameWords("a{b|c}d~e")).toEqual(["a", "b", "c", "d", "e"]);
	});

	it("reads a name with other letters the slow way: the Kelvin sign is a `k`, and the humps still split it", () => {
		expect(nameWords("\u212aeyToken")).toEqual(["key", "token"]);
		expect(nameWords("cl\u00e9ApiKey")).toEqual(["cl", "api", "key"]);
		expect(nameWords("\u212a\u212a")).toEqual(["kk"]);
	});
});

describe("nameStrength: passwords", () => {
	it("takes a last word ending in password, passwd or passphrase", () => {
		for (const name of ["password", "DB_PASSWORD", "dbPassword", "MYSQL_ROOT_PASSWD", "gpg_passphrase", "userpassword"])
			expect(nameStrength(name)).toBe("password");
	});

	it("takes no last word that only holds one of them inside it", () => {
		expect(nameStrength("PASSWORDLESS")).toBeUndefined();
		expect(nameStrength("password_policy")).toBeUndefined();
	});

	it("takes PWD, PW and PASS for a password after another word, and not alone (the shell's PWD)", () => {
		for (const name of ["DB_PWD", "MYSQL_PWD", "db-pass", "--db-pass", "ROOT_PW"])
			expect(nameStrength(name)).toBe("password");
		for (const name of ["PWD", "pw", "pass"]) expect(nameStrength(name)).toBeUndefined();
	});

	it("takes no word that only starts or ends with pass", () => {
		expect(nameStrength("USER_PASSPORT")).toBeUndefined();
		expect(nameStrength("allow_bypass")).toBeUndefined();
	});

	it("takes a word ending in pwd for a password, but for the shell's OLDPWD", () => {
		expect(nameStrength("MYSQLPWD")).toBe("password");
		expect(nameStrength("OLDPWD")).toBeUndefined();
		expect(nameStrength("pwdfile")).toBeUndefined();
	});

	it("takes no name of no words", () => {
		expect(nameStrength("")).toBeUndefined();
		expect(nameStrength("__")).toBeUndefined();
	});
});

describe("nameStrength: secrets, tokens and keys", () => {
	it("takes a last word ending in secret, token, apikey, authorization, credential(s) or creds as strong", () => {
		for (const name of [
			"CLIENT_SECRET",
			"GITHUB_TOKEN",
			"accessToken",
			"OPENAI_APIKEY",
			"authorization",
			"credential",
			"GOOGLE_CREDENTIALS",
			"aws_creds",
			"auth",
		])
			expect(nameStrength(name)).toBe("strong");
	});

	it("takes no last word that only starts with one of them", () => {
		expect(nameStrength("TOKENIZER")).toBeUndefined();
		expect(nameStrength("secretary")).toBeUndefined();
		expect(nameStrength("author")).toBeUndefined();
		expect(nameStrength("username")).toBeUndefined();
	});

	it("takes a key after a word that makes it a secret's as strong", () => {
		for (const name of ["API_KEY", "accessKey", "private-key", "SSH_KEY", "deploy_key", "LICENSE_KEY", "app_key"])
			expect(nameStrength(name)).toBe("strong");
	});

	it("takes no last word of no secret after a word that would make a key a secret's", () => {
		for (const name of ["api_version", "ssh_host", "access_level", "private_repo"])
			expect(nameStrength(name)).toBeUndefined();
	});

	it("takes a key after any other word, or alone, as weak", () => {
		for (const name of ["BUILD_KEY", "key", "application_key", "myapi_key"]) expect(nameStrength(name)).toBe("weak");
	});

	it("takes no name with a word of a key that is no secret", () => {
		for (const name of ["PUBLIC_KEY", "idempotencyKey", "cache_key", "s3_key", "api_key_path", "TOKEN_BUDGET"])
			expect(nameStrength(name)).toBeUndefined();
		// A bucket's key names an object in it (boto3's `Bucket=`/`Key=`, Airflow's S3 operators' `bucket_key`).
		expect(nameStrength("bucket_key")).toBeUndefined();
	});

	it("takes a key's word glued to the one that makes it a secret's as strong", () => {
		// Sumo Logic's `SUMO_ACCESSKEY`-style names (gitleaks rules/sumologic.go reads `accesskey` as one word).
		for (const name of ["SUMOLOGIC_ACCESSKEY", "AWS_SECRETKEY", "privatekey", "clientKey_x_signingkey", "licensekey"])
			expect(nameStrength(name)).toBe("strong");
		for (const name of ["hotkey", "monkey", "turnkey", "PUBLICKEY_PATH"]) expect(nameStrength(name)).not.toBe("strong");
	});

	it("takes a token or a secret whatever plain word stands before it, but next to it", () => {
		// Flutterwave's keys as an app names them (gitleaks rules/flutterwave.go): public, secret and encryption keys.
		for (const name of ["flutterwavePubKeyToken", "PUBLIC_KEY_SECRET", "cache_upload_token", "s3_upload_secret"])
			expect(nameStrength(name)).toBe("strong");
		// The word next to it says the token is published or no credential (Plaid's and Mapbox's public tokens).
		for (const name of ["publicToken", "PUBLIC_TOKEN", "pub_secret", "id_token", "cache_token"])
			expect(nameStrength(name)).toBeUndefined();
	});

	it("takes no pagination token: a place in a list of results that every caller pages with", () => {
		// AWS's NextToken and S3's NextContinuationToken, Google's nextPageToken, Azure's continuationToken, Twitter's
		// pagination_token, Google Calendar's syncToken, MongoDB's resumeToken.
		for (const name of [
			"NextToken",
			"nextToken",
			"NextContinuationToken",
			"nextPageToken",
			"prevPageToken",
			"continuationToken",
			"pagination_token",
			"cursorToken",
			"syncToken",
			"resumeToken",
		])
			expect(nameStrength(name)).toBeUndefined();
		// Another word before `token`, or a page's token that no pagination word names (Facebook's page tokens).
		for (const name of ["refreshToken", "next_auth_token", "PAGE_TOKEN", "pageToken", "NextSecret"])
			expect(nameStrength(name)).toBe("strong");
	});

	it("keeps a key's name that a plain word makes one of no secret, wherever the word stands", () => {
		for (const name of ["PUBLIC_KEY", "publishableKey", "STRIPE_PUBLISHABLE_KEY", "mapbox_public_api_key"])
			expect(nameStrength(name)).toBeUndefined();
	});
});

describe("isPlainByFirstWord: a name made one of no secret by its first word", () => {
	it("takes a key's name that opens with a plain word", () => {
		for (const name of ["PUBLIC_KEY", "cache_key", "publishableKey", "PUBLIC_TOKEN"])
			expect(isPlainByFirstWord(name)).toBe(true);
	});

	it("takes no name that holds a secret whatever its first word, nor one of no key", () => {
		for (const name of ["pub_key_token", "PUBLIC_KEY_SECRET", "API_KEY", "public_url", "url"])
			expect(isPlainByFirstWord(name)).toBe(false);
	});
});

describe("assignedKind: the kind a value under a name is", () => {
	it("names the kind by the name's words: password, token, secret, key, or credential", () => {
		expect(assignedKind("DB_PASSWORD", RANDOM)).toBe("password");
		expect(assignedKind("GITHUB_TOKEN", RANDOM)).toBe("token");
		expect(assignedKind("access_token", RANDOM)).toBe("token");
		expect(assignedKind("auth", RANDOM)).toBe("token");
		expect(assignedKind("CLIENT_SECRET", RANDOM)).toBe("secret");
		expect(assignedKind("SSH_DEPLOY_KEY", RANDOM)).toBe("key");
		expect(assignedKind("GOOGLE_CREDENTIALS", RANDOM)).toBe("credential");
		expect(assignedKind("BUILD_KEY", RANDOM)).toBe("key");
	});

	it("takes no value under a name of no secret", () => {
		expect(assignedKind("USERNAME", RANDOM)).toBeUndefined();
	});

	it("takes no value shorter than 8 characters, a placeholder, or a number", () => {
		expect(assignedKind("DB_PASSWORD", "aB3dE6g")).toBeUndefined();
		expect(assignedKind("DB_PASSWORD", "aB3dE6gH")).toBe("password");
		expect(assignedKind("GITHUB_TOKEN", "$GITHUB_TOKEN")).toBeUndefined();
		expect(assignedKind("API_TOKEN", "1234567890123456")).toBeUndefined();
	});

	it("judges a value on its head: a mask or a number of 256 characters is one whatever follows", () => {
		expect(assignedKind("DB_PASSWORD", `${"x".repeat(256)}${RANDOM}`)).toBeUndefined();
		expect(assignedKind("API_TOKEN", `${"1234567890".repeat(26)}${RANDOM}`)).toBeUndefined();
		expect(assignedKind("API_TOKEN", `${"1234567890".repeat(25)}${RANDOM}`)).toBe("token");
	});

	it("takes no path or plain URL for a secret", () => {
		expect(assignedKind("DB_PASSWORD", "/etc/mysql/password.txt")).toBeUndefined();
		expect(assignedKind("AUTH_TOKEN", "https://auth.example.com/token")).toBeUndefined();
	});

	it("takes a password of two kinds of character, or of one if it looks random", () => {
		expect(assignedKind("DB_PASSWORD", "sunflower42")).toBe("password");
		expect(assignedKind("DB_PASSWORD", "sunflowerfield")).toBeUndefined();
	});

	it("takes no code that names a secret under a strong or weak name", () => {
		expect(assignedKind("API_TOKEN", "config.apiToken")).toBeUndefined();
		expect(assignedKind("API_TOKEN", "getApiToken")).toBeUndefined();
		expect(assignedKind("AWS_SECRET", "config.secretAccessKey")).toBeUndefined();
		expect(assignedKind("BUILD_KEY", "BuildKeyFactory")).toBeUndefined();
	});

	it("takes a dotted token under a strong or weak name, and no member path of code", () => {
		// Doppler (docs, "Token formats"), Vault (docs, "Tokens"), Dynatrace (docs, "Access tokens"), Terraform
		// Cloud's credentials file and Harness (gitleaks rules/hashicorp.go, rules/harness.go).
		expect(assignedKind("DOPPLER_TOKEN", "dp.st.prd.Zq7Yx3Wv9UtXk2LmPa4Rs8Tb6Nc1Qd5Ef0Gh3Jk7L")).toBe("token");
		expect(assignedKind("VAULT_TOKEN", "s.Zq7Yx3Wv9UtXk2LmPa4Rs8Tb")).toBe("token");
		expect(assignedKind("token", "Zq7Yx3Wv9UtXk2.atlasv1.Lm4Pa8Rs2Tb6Nc1Qd5Ef0Gh3Jk7LmZq7Yx3Wv9UtX")).toBe("token");
		expect(assignedKind("DT_API_TOKEN", "dt0c01.ZQ7YX3WV9UTXK2LMPA4RS8TB.Q7YX3WV9UTXK2LMPA4RS8TB6NC")).toBe("token");
		expect(assignedKind("harnessToken", "pat.Zq7Yx3Wv9UtXk2LmPa4Rs8.5e3c0a7b9d1f2e4c6a8b0d2f.Zq7Yx")).toBe("token");
		expect(assignedKind("DEPLOY_KEY", "dp.st.prd.Zq7Yx3Wv9UtXk2LmPa4Rs8Tb6Nc1Qd5Ef0Gh3Jk7L")).toBe("key");
		for (const value of ["process.env.API_KEY", "settings.secrets.github", "os.environ.get", "secrets.NPM_TOKEN"])
			expect(assignedKind("API_TOKEN", value)).toBeUndefined();
	});

	it("takes no member path that reads a password from elsewhere, and takes dotted words that may be a passphrase", () => {
		// Terraform's azurerm_mssql_server takes `administrator_login_password`, often from a variable or a resource.
		expect(assignedKind("administrator_login_password", "var.sql_admin_pw")).toBeUndefined();
		expect(assignedKind("password", "random_password.db.result")).toBeUndefined();
		expect(assignedKind("DB_PASSWORD", "self.password")).toBeUndefined();
		expect(assignedKind("DB_PASSWORD", "correct.Horse.battery")).toBe("password");
		expect(assignedKind("DB_PASSWORD", "s.Zq7Yx3Wv9UtXk2LmPa4Rs8Tb")).toBe("password");
	});

	it("takes no artifact's name and version under a strong name", () => {
		// A dependency list that names `io.jsonwebtoken:jjwt-api` reads `…token:` as a name and the version as its value.
		expect(assignedKind("io.jsonwebtoken", "jjwt-api-0.12.5")).toBeUndefined();
		expect(assignedKind("io.jsonwebtoken", "jjwt-Zq7Yx3Wv9UtXk2L")).toBe("token");
	});

	it("names a key's kind by a last word ending in key", () => {
		expect(assignedKind("SUMOLOGIC_ACCESSKEY", RANDOM)).toBe("key");
	});

	it("takes a value under a weak name only when it looks random and is no plain value", () => {
		expect(assignedKind("BUILD_KEY", "a8Fk2LmQ9zXw3RtY")).toBe("key");
		expect(assignedKind("BUILD_KEY", "aB3dE6gH9jK2")).toBeUndefined();
		expect(assignedKind("BUILD_KEY", "5e3c0a7b9d1f2e4c6a8b0d2f4e6a8c0b")).toBeUndefined();
	});

	it("takes no words under a strong name", () => {
		expect(assignedKind("credentials", "same-origin")).toBeUndefined();
		expect(assignedKind("auth", "oauth2-pkce-flow")).toBeUndefined();
	});

	it("takes a value of two kinds of character under a strong name, and none of one kind that is not random", () => {
		expect(assignedKind("API_TOKEN", "abcd1234")).toBe("token");
		expect(assignedKind("API_TOKEN", "\u043a\u043b\u044e\u0447\u0441\u0435\u043a\u0440\u0435\u0442")).toBeUndefined();
	});
});

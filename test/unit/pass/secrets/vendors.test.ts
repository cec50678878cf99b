// Token forms from the vendors' documentation and the published rule sets (gitleaks' rules, secretlint's recommended
// preset in node_modules/@secretlint), not from the finder's table.
import { describe, expect, it } from "vitest";
import { vendorSpans } from "../../../../src/pass/secrets/vendors.js";

/** What the finder takes in a text: each token's kind and its characters. */
const found = (text: string) => vendorSpans(text).map((s) => [s.kind, text.slice(s.start, s.end)]);

const MIXED = "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kL9mN2pQ5sT8vW1yZ4bC7eF0hJ3k";
const LOWER_HEX = "3f2b8c1e9d4a4f6b8e2c1a7d5b9c0e3f";
const LETTERS_ONLY = "aBcDeFgHiJkLmNoPqRsTuVwXyZqWeRtYuIoPaSdF";

/** The first `n` characters of `alphabet` repeated: a body of a given length and character set. */
const of = (alphabet: string, n: number) => alphabet.repeat(Math.ceil(n / alphabet.length)).slice(0, n);

/** A JWT's parts (jwt.io's example token). */
const JWT_HEADER = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9";
const JWT_PAYLOAD = "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ";
const JWT_SIGNATURE = "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const TELEGRAM_BODY = "AAHk3Qm9XwPq7Rt2LsAb4Cd6Ef8Gh0Ij2Kl";

describe("vendorSpans: each vendor's token, in its documented form", () => {
	it.each([
		["github token", `ghp_${of(MIXED, 36)}`],
		["github token", `gho_${of(MIXED, 36)}`],
		["github token", `ghu_${of(MIXED, 36)}`],
		["github token", `ghs_${of(MIXED, 36)}`],
		["github token", `ghr_${of(MIXED, 36)}`],
		["github token", `github_pat_11${of(MIXED, 20)}_${of(MIXED, 59)}`],
		["anthropic key", `sk-ant-api03-${of(MIXED, 93)}AA`],
		["openai key", `sk-proj-${of(MIXED, 74)}T3BlbkFJ${of(MIXED, 74)}`],
		["openai key", `sk-svcacct-${of(MIXED, 58)}T3BlbkFJ${of(MIXED, 58)}`],
		["openai key", `sk-admin-${of(MIXED, 58)}T3BlbkFJ${of(MIXED, 58)}`],
		["openai key", `sk-${of(MIXED, 20)}T3BlbkFJ${of(MIXED, 20)}`],
		["slack token", `xoxb-123456789012-1234567890123-${of(MIXED, 24)}`],
		["slack token", `xoxp-123456789012-123456789012-123456789012-${of(MIXED, 32)}`],
		["slack token", `xapp-1-A0123456789-1234567890123-${of(MIXED, 64)}`],
		["slack webhook", `https://hooks.slack.com/services/T01ABCDEF/B02GHIJKL/${of(MIXED, 24)}`],
		["discord webhook", `https://discord.com/api/webhooks/123456789012345678/${of(MIXED, 68)}`],
		["discord webhook", `https://discordapp.com/api/webhooks/123456789012345678/${of(MIXED, 68)}`],
		["npm token", `npm_${of(MIXED, 36)}`],
		["linear token", `lin_api_${of(MIXED, 40)}`],
		["shopify token", `shpat_${LOWER_HEX}`],
		["shopify token", `shpss_${LOWER_HEX}`],
		["sendgrid key", `SG.${of(MIXED, 22)}.${of(MIXED, 43)}`],
		["1password token", `ops_eyJzaWduSW5BZGRyZXNzIjoibXkuMXBhc3N3b3JkLmNvbSIsInVzZXJBdXRoIjp7Im1ldGhvZCI6IlNSUGcifQ==`],
		["aws access key id", "AKIAIOSFODNN7EXAMPLE"],
		["aws access key id", "ASIAIOSFODNN7EXAMPLE"],
		["aws access key id", "A3TXIOSFODNN7EXAMPLE"],
		["gitlab token", `glpat-${of(MIXED, 20)}`],
		["stripe key", `sk_live_${of(MIXED, 24)}`],
		["stripe key", `rk_test_${of(MIXED, 24)}`],
		["google api key", `AIza${of(MIXED, 35)}`],
		["google access token", `ya29.a0AfH6SMBk3Qm9XwPq7Rt2LsAb4Cd6Ef8Gh0Ij2Kl`],
		["huggingface token", `hf_${of(LETTERS_ONLY, 34)}`],
		["digitalocean token", `dop_v1_${LOWER_HEX}${LOWER_HEX}`],
		["docker token", `dckr_pat_${of(MIXED, 27)}`],
		["pypi token", `pypi-AgEIcHlwaS5vcmc${of(MIXED, 60)}`],
		["jwt", `${JWT_HEADER}.${JWT_PAYLOAD}.${JWT_SIGNATURE}`],
		["telegram bot token", `123456789:${TELEGRAM_BODY}`],
	])("finds a %s whole among words", (kind, token) => {
		expect(found(`here: ${token} (end)`)).toEqual([[kind, token]]);
	});

	// Each form from the vendor's documentation or gitleaks' rule file (cmd/generate/config/rules/<file>.go) named.
	it.each([
		// Vault's token docs and gitleaks hashicorp_vault.go: hvs./hvr. 90 or more, hvb. 138 or more, legacy s. and 24.
		["vault token", `hvs.CAESI${of(MIXED, 91)}`],
		["vault token", `hvr.${of(MIXED, 90)}`],
		["vault token", `hvb.AAAAAQ${of(MIXED, 140)}`],
		["vault token", `s.${of(MIXED, 24)}`],
		// docs.doppler.com "Auth Token Formats": 40-44 letters and digits; a service token may name its config.
		["doppler token", `dp.pt.${of(MIXED, 43)}`],
		["doppler token", `dp.ct.${of(MIXED, 40)}`],
		["doppler token", `dp.sa.${of(MIXED, 44)}`],
		["doppler token", `dp.scim.${of(MIXED, 43)}`],
		["doppler token", `dp.audit.${of(MIXED, 43)}`],
		["doppler token", `dp.st.prd.${of(MIXED, 43)}`],
		["doppler token", `dp.st.${of(MIXED, 43)}`],
		["heroku token", `HRKU-AA${of(MIXED, 58)}`], // gitleaks heroku.go
		["planetscale token", `pscale_pw_${of(MIXED, 43)}`], // gitleaks planetscale.go
		["planetscale token", `pscale_tkn_${of(MIXED, 32)}`],
		["planetscale token", `pscale_oauth_${of(MIXED, 64)}`],
		// gitleaks sentry.go (and Sentry's RFC 0091): an org token is base64 of its claims, `_`, 43 base64.
		["sentry token", `sntrys_eyJpYXQiOjE3M${of(MIXED, 60)}_${of(MIXED, 43)}`],
		["sentry token", `sntryu_${LOWER_HEX}${LOWER_HEX}`],
		["grafana token", `glsa_${of(MIXED, 32)}_${LOWER_HEX.slice(0, 8)}`], // gitleaks grafana.go
		["grafana token", `glc_${of(MIXED, 48)}==`],
		["grafana token", `eyJrIjoi${of(MIXED, 72)}`],
		["gitlab token", `glcbt-64_${of(MIXED, 20)}`], // gitleaks gitlab.go
		["gitlab token", `gloas-${of(MIXED, 64)}`],
		["gitlab token", `glffct-${of(MIXED, 20)}`],
		["gitlab token", `GR1348941${of(MIXED, 20)}`],
		["stripe webhook secret", `whsec_${of(MIXED, 32)}`], // Stripe's webhook docs
		["stripe key", `sk_prod_${of(MIXED, 24)}`], // gitleaks stripe.go
		["postman key", `PMAK-${LOWER_HEX.slice(0, 24)}-${LOWER_HEX}ab`], // gitleaks postman.go
		["new relic key", `NRAK-${of(MIXED, 27)}`], // gitleaks newrelic.go
		["new relic key", `NRJS-${LOWER_HEX.slice(0, 19)}`],
		["new relic key", `NRII-${of(MIXED, 32)}`],
		["notion token", `ntn_40417361827${of(MIXED, 35)}`], // gitleaks notion.go
		["pulumi token", `pul-${LOWER_HEX}12345678`], // gitleaks pulumi.go
		["perplexity key", `pplx-${of(MIXED, 48)}`], // gitleaks perplexity.go
		["huggingface token", `api_org_${of(LETTERS_ONLY, 34)}`], // gitleaks huggingface.go
		["sourcegraph token", `sgp_${LOWER_HEX.slice(0, 16)}_${LOWER_HEX}12345678`], // gitleaks sourcegraph.go
		["sourcegraph token", `sgp_local_${LOWER_HEX}12345678`],
		["sourcegraph token", `sgp_${LOWER_HEX}12345678`],
		["brevo key", `xkeysib-${LOWER_HEX}${LOWER_HEX}-${of(MIXED, 16)}`], // gitleaks sendinblue.go
		["age secret key", `AGE-SECRET-KEY-1${of("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)}`], // age's spec; gitleaks age.go
		["fly token", `fo1_${of(MIXED, 43)}`], // fly.io/docs/security/tokens; gitleaks flyio.go
		["fly token", `fm2_${of(MIXED, 120)}==`],
		["fly token", `fm1r_${of(MIXED, 110)}`],
		["terraform token", `Ab3dE6gH9jK2mN.atlasv1.${of(MIXED, 66)}`], // gitleaks hashicorp.go
		["databricks token", `dapi${LOWER_HEX}`], // gitleaks databricks.go
		["databricks token", `dapi${LOWER_HEX}-2`],
		["twilio api key", `SK${LOWER_HEX}`], // gitleaks twilio.go
		["openshift token", `sha256~${of(MIXED, 43)}`], // gitleaks openshift.go
		["square token", `sq0atp-${of(MIXED, 22)}`], // gitleaks square.go
		["square token", `sq0csp-${of(MIXED, 43)}`],
		["1password secret key", "A3-Q7ZK2M-W9X4RT8LP3N-5VB2C-8DF6G-H1JK4"], // gitleaks 1password.go
		["1password secret key", "A3-Q7ZK2M-W9X4RT-8LP3N-5VB2C-8DF6G-H1JK4"],
		["aws bedrock key", `ABSKQmVkcm9ja0FQSUtleS${of(MIXED, 110)}=`], // gitleaks aws.go
		["aws bedrock key", `bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t${of(MIXED, 40)}`],
	])("finds a %s whole among words: %s", (kind, token) => {
		expect(found(`here: ${token} (end)`)).toEqual([[kind, token]]);
	});
});

describe("vendorSpans: a token's bounds", () => {
	it("finds no token inside a longer word", () => {
		expect(found(`my${"ghp_"}${of(MIXED, 36)}`)).toEqual([]);
		expect(found("xAKIAIOSFODNN7EXAMPLE")).toEqual([]);
		expect(found(`Basic${`AIza${of(MIXED, 35)}`}`)).toEqual([]);
	});

	it("finds no token whose body runs on into a longer word", () => {
		expect(found("AKIAIOSFODNN7EXAMPLEx")).toEqual([]);
		expect(found(`hf_${of(LETTERS_ONLY, 34)}2`)).toEqual([]);
		expect(found(`dop_v1_${LOWER_HEX}${LOWER_HEX}g`)).toEqual([]);
	});

	it("finds no body too short for its vendor, nor one of the wrong characters", () => {
		expect(found("ghp_abc is not a token")).toEqual([]);
		expect(found(`glpat-${of(MIXED, 19)}`)).toEqual([]);
		expect(found(`sk_live_${of(MIXED, 15)}`)).toEqual([]);
		expect(found(`hf_${of(LETTERS_ONLY, 33)}`)).toEqual([]);
		expect(found(`dop_v1_${LOWER_HEX}${LOWER_HEX.slice(1)}`)).toEqual([]);
		expect(found(`dop_v1_${LOWER_HEX.toUpperCase()}${LOWER_HEX.toUpperCase()}`)).toEqual([]);
		expect(found("AKIAiosfodnn7example")).toEqual([]);
	});

	it("finds a body of exactly the vendor's least length, and none a character shorter", () => {
		expect(found(`glpat-${of(MIXED, 20)}`)).toEqual([["gitlab token", `glpat-${of(MIXED, 20)}`]]);
		expect(found("AKIAIOSF7EXA")).toEqual([["aws access key id", "AKIAIOSF7EXA"]]);
		expect(found("AKIAIOSF7EX")).toEqual([]);
	});

	it("finds no body longer than its vendor's fixed length", () => {
		expect(found(`AIza${of(MIXED, 34)}`)).toEqual([]);
		expect(found(`AIza${of(MIXED, 36)}`)).toEqual([]);
		expect(found(`${"AKIAIOSFODNN7EXAMPLE"}Q`)).toEqual([]);
		expect(found(`dop_v1_${LOWER_HEX}${LOWER_HEX}0`)).toEqual([]);
	});

	it("takes the longest prefix: a token is the vendor's whose prefix it starts with", () => {
		expect(found(`sk-ant-${of(MIXED, 4)} x`)).toEqual([["anthropic key", `sk-ant-${of(MIXED, 4)}`]]);
	});

	it("takes a token whole, and no prefix inside it for another token", () => {
		const slack = "xoxb-12345-xoxp-67890";
		expect(found(`${slack} ok`)).toEqual([["slack token", slack]]);
		const github = `ghp_${of(MIXED, 10)}_ghp_${of(MIXED, 10)}`;
		expect(found(github)).toEqual([["github token", github]]);
	});

	it("finds each of several tokens in one text", () => {
		const a = `ghp_${of(MIXED, 36)}`;
		const b = "AKIAIOSFODNN7EXAMPLE";
		expect(found(`${a} and ${b}`)).toEqual([
			["github token", a],
			["aws access key id", b],
		]);
	});
});

describe("vendorSpans: the bare sk- key", () => {
	it("asks 16 characters or more, one of them a digit", () => {
		expect(found(`sk-${of(MIXED, 16)}`)).toEqual([["openai key", `sk-${of(MIXED, 16)}`]]);
		expect(found(`sk-${of(MIXED, 15)}`)).toEqual([]);
		expect(found("sk-abcdefghijklmnopqrstuvwx")).toEqual([]);
	});

	it("looks for the digit in the key itself, not in the text after it", () => {
		expect(found("sk-abcdefghijklmnopqrstuvwx is 42 characters")).toEqual([]);
	});
});

describe("vendorSpans: npm tokens and words after npm_", () => {
	it("takes no lower-case word after npm_ for a token", () => {
		expect(found("run npm_installation again")).toEqual([]);
	});

	it("takes a body with a digit or a capital", () => {
		expect(found("npm_installation9")).toEqual([["npm token", "npm_installation9"]]);
		expect(found("npm_Installation")).toEqual([["npm token", "npm_Installation"]]);
	});
});

describe("vendorSpans: elided examples and cut tokens", () => {
	it("takes no elided example: a few characters, then ... or …", () => {
		expect(found("ANTHROPIC_API_KEY=sk-ant-api03-...")).toEqual([]);
		expect(found("GITHUB_TOKEN=ghp_ab12...")).toEqual([]);
		expect(found("GITHUB_TOKEN=ghp_abc123\u2026")).toEqual([]);
	});

	it("takes a short piece with no cut mark after it, and a longer piece before one", () => {
		expect(found("ghp_abcd")).toEqual([["github token", "ghp_abcd"]]);
		expect(found("ghp_abc123 ..")).toEqual([["github token", "ghp_abc123"]]);
		expect(found("ghp_abc1234...")).toEqual([["github token", "ghp_abc1234"]]);
		expect(found("ghp_abc1234\u2026")).toEqual([["github token", "ghp_abc1234"]]);
	});
});

describe("vendorSpans: SendGrid keys", () => {
	it("takes a key cut after its first part, without the words after it", () => {
		expect(found(`SG.${of(MIXED, 22)} was revoked`)).toEqual([["sendgrid key", `SG.${of(MIXED, 22)}`]]);
	});

	it("takes a first part of 8 characters or more", () => {
		expect(found("SG.aB3dE6gH")).toEqual([["sendgrid key", "SG.aB3dE6gH"]]);
		expect(found("SG.aB3dE6g")).toEqual([]);
	});
});

describe("vendorSpans: JWTs", () => {
	const token = `${JWT_HEADER}.${JWT_PAYLOAD}.${JWT_SIGNATURE}`;

	it("takes header, payload and signature, and no text after them", () => {
		expect(found(`Authorization: Bearer ${token}, next`)).toEqual([["jwt", token]]);
	});

	it("takes nothing without a payload that is JSON too, or without a signature", () => {
		expect(found(`${JWT_HEADER}.${JWT_SIGNATURE}.${JWT_SIGNATURE}`)).toEqual([]);
		expect(found(`${JWT_HEADER}.${JWT_PAYLOAD}`)).toEqual([]);
		expect(found(`${JWT_HEADER}.${JWT_PAYLOAD} ${JWT_SIGNATURE}`)).toEqual([]);
		expect(found(`${JWT_HEADER}.${JWT_PAYLOAD}.`)).toEqual([]);
		expect(found(`${JWT_HEADER}.${JWT_PAYLOAD}.abc`)).toEqual([]);
		expect(found(`${JWT_HEADER} ${JWT_PAYLOAD}.${JWT_SIGNATURE}`)).toEqual([]);
		expect(found(`${JWT_HEADER}.x${JWT_PAYLOAD}.${JWT_SIGNATURE}`)).toEqual([]);
	});

	it("asks a header of 11 characters or more, a payload of 11 or more and a signature of 16 or more", () => {
		const header = "eyJhbGciOiJ";
		const payload = "eyJzdWIiOiI";
		const signature = "SflKxwRJSMeKKF2Q";
		const least = `${header}.${payload}.${signature}`;
		expect(found(`Bearer ${least}`)).toEqual([["jwt", least]]);
		expect(found(`Bearer ${header.slice(0, -1)}.${payload}.${signature}`)).toEqual([]);
		expect(found(`Bearer ${header}.${payload.slice(0, -1)}.${signature}`)).toEqual([]);
		expect(found(`Bearer ${header}.${payload}.${signature.slice(0, -1)}`)).toEqual([]);
	});
});

describe("vendorSpans: Telegram bot tokens", () => {
	it("takes the bot's id with the token, in a bot API URL too", () => {
		const token = `123456789:${TELEGRAM_BODY}`;
		expect(found(`https://api.telegram.org/bot${token}/getMe`)).toEqual([["telegram bot token", token]]);
	});

	it("asks an id of 5 to 16 digits", () => {
		expect(found(`12345:${TELEGRAM_BODY}`)).toEqual([["telegram bot token", `12345:${TELEGRAM_BODY}`]]);
		expect(found(`id 1234:${TELEGRAM_BODY}`)).toEqual([]);
		const long = `1234567890123456:${TELEGRAM_BODY}`;
		expect(found(long)).toEqual([["telegram bot token", long]]);
		expect(found(`1${long}`)).toEqual([]);
	});

	it("takes no id inside a longer word other than the API's bot", () => {
		expect(found(`x123456789:${TELEGRAM_BODY}`)).toEqual([]);
	});

	it("asks exactly 35 characters after the colon", () => {
		expect(found(`123456789:${TELEGRAM_BODY.slice(0, -1)}`)).toEqual([]);
		expect(found(`123456789:${TELEGRAM_BODY}x`)).toEqual([]);
	});
});

describe("vendorSpans: Hugging Face tokens and identifiers after hf_", () => {
	// gitleaks huggingface.go: hf_ and exactly 34 letters; a real token's letters are upper and lower case at random.
	it("takes hf_ and 34 letters of mixed case", () => {
		expect(found(`hf_${of(LETTERS_ONLY, 34)}`)).toEqual([["huggingface token", `hf_${of(LETTERS_ONLY, 34)}`]]);
	});

	it("takes no Objective-C selector after hf_: longer than 34 letters, or a camelCase name of few capitals", () => {
		expect(found("- (id)hf_requiredCharacteristicTypesForDisplayMetadata;")).toEqual([]);
		expect(found("[self hf_setShouldRequireAuthenticationFor:x]")).toEqual([]);
		expect(found(`hf_${"abcdefghij".repeat(4).slice(0, 34)}`)).toEqual([]);
	});
});

describe("vendorSpans: Slack tokens and words after xox", () => {
	// Slack's token types (api.slack.com/authentication/token-types): a number follows the prefix.
	it("takes no word after a Slack prefix: a file name in a URL, a placeholder", () => {
		expect(found("https://indieweb.org/images/3/35/2018-250-xoxo-indieweb-1.jpg")).toEqual([]);
		expect(found("SLACK_BOT_TOKEN=xoxb-your-bot-token")).toEqual([]);
	});

	it("takes a token whose prefix a number follows", () => {
		const token = `xoxo-1234-5678-9012-${LOWER_HEX}`;
		expect(found(`${token} x`)).toEqual([["slack token", token]]);
		expect(found("xoxe-1-Ab3dE6gH9jK2")).toEqual([["slack token", "xoxe-1-Ab3dE6gH9jK2"]]);
	});

	it("takes a legacy workspace token of 8 to 48 letters and digits after xoxa- or xoxr-", () => {
		expect(found(`xoxr-${of(MIXED, 30)}`)).toEqual([["slack token", `xoxr-${of(MIXED, 30)}`]]);
		expect(found("xoxa-abcdefghij")).toEqual([]);
	});
});

describe("vendorSpans: short or word-like prefixes ask the body's exact length and alphabet", () => {
	it.each([
		"a pul-request",
		`pul-${LOWER_HEX}1234567`,
		"see dapi_docs and dapi-reference",
		`dapi${LOWER_HEX.slice(1)}`,
		"SKIP the SKU SK-42",
		`SK${LOWER_HEX}0`,
		"A3-sized paper, A3-ABCDEF-12345",
		"s.getElementsByClassName() and this.s.x",
		// Go's crypto/tls reads a handshake with such calls (src/vendor/golang.org/x/crypto/cryptobyte in Go's tree).
		"if !s.ReadUint16LengthPrefixed(&body) {",
		"f := s.ReadUint16LengthPrefixed",
		`s.${"abcdefghij".repeat(3).slice(0, 24)}`,
		`sha256~${of(MIXED, 42)}`,
		"dp.st.dev.short",
		`dp.st.Prd.${of(MIXED, 43)}`,
		`dp.pt.${of(MIXED, 45)}`,
		"NRAK-1234",
		`ntn_1234${of(MIXED, 42)}`,
		`fo1_${of(MIXED, 42)}`,
		`x.atlasv1.${of(MIXED, 66)}`,
		`Ab3dE6gH9jK2mN.atlasv1.${of(MIXED, 59)}`,
	])("takes nothing in %s", (text) => {
		expect(found(text)).toEqual([]);
	});

	it("reads a Terraform token back from .atlasv1. even where its 14 characters end in s", () => {
		const token = `Ab3dE6gH9jK2ms.atlasv1.${of(MIXED, 66)}`;
		expect(found(`"token": "${token}"`)).toEqual([["terraform token", token]]);
	});

	it("takes no Terraform token whose first part is longer than 14", () => {
		expect(found(`Ab3dE6gH9jK2mNx.atlasv1.${of(MIXED, 66)}`)).toEqual([]);
	});
});

describe("vendorSpans: a random body, not a placeholder", () => {
	// Grafana's cloud token (gitleaks grafana.go: glc_ and 32-400 base64) asks only a random body with a digit.
	it.each([
		["a run of five in a body of 64", `glc_${of(MIXED, 59)}AAAAA`],
		["a run of six in a body of 65 (base64 of binary)", `glc_${of(MIXED, 59)}AAAAAA`],
		["a run of fifteen in a body of 65", `glc_${of(MIXED, 50)}${"A".repeat(15)}`],
		["eight distinct characters", `glc_${of("abcdefg1", 32)}`],
	])("takes %s", (_, token) => {
		expect(found(`${token} x`)).toEqual([["grafana token", token]]);
	});

	it.each([
		["a run of six in a body of 64", `glc_${of(MIXED, 58)}AAAAAA`],
		["a run of six at the body's start", `glc_AAAAAA${of(MIXED, 30)}`],
		["a run of sixteen in a body of 65", `glc_${of(MIXED, 49)}${"A".repeat(16)}`],
		["seven distinct characters", `glc_${of("abcdef1", 32)}`],
		["AWS's documentation's EXAMPLE", `glc_${of(MIXED, 30)}EXAMPLE`],
	])("takes nothing for %s", (_, token) => {
		expect(found(`${token} x`)).toEqual([]);
	});
});

describe("vendorSpans: Hugging Face's mixed case", () => {
	const UPPER = "QWERTYUIOPASDFGHJKLZXCVBNM";
	const LOWER = UPPER.toLowerCase();

	it.each([
		["5 capitals", `${of(UPPER, 5)}${of(LOWER, 29)}`, true],
		["4 capitals", `${of(UPPER, 4)}${of(LOWER, 30)}`, false],
		["5 lower-case letters", `${of(UPPER, 29)}${of(LOWER, 5)}`, true],
		["4 lower-case letters", `${of(UPPER, 30)}${of(LOWER, 4)}`, false],
	])("asks 5 or more of each case: %s", (_, body, taken) => {
		expect(found(`hf_${body}`)).toEqual(taken ? [["huggingface token", `hf_${body}`]] : []);
	});
});

describe("vendorSpans: npm's body", () => {
	it("looks for the digit or capital in the first 40 characters only", () => {
		expect(found(`npm_${"abcdefghij".repeat(4)}9`)).toEqual([]);
	});
});

describe("vendorSpans: Vault's legacy s. token", () => {
	const token = `s.${of(MIXED, 24)}`;

	it("takes a token a parenthesis closes, or the text ends, but none called", () => {
		expect(found(`(${token})`)).toEqual([["vault token", token]]);
		expect(found(`token ${token}`)).toEqual([["vault token", token]]);
		expect(found(`${token}(x)`)).toEqual([]);
	});

	it.each([
		["no digit", "AbCdEfGhJkMnPqRsTuVwXyZa"],
		["no capital", "ab3de6gh9jk2mn5pq8st1vw4"],
		["no lower-case letter", "AB3DE6GH9JK2MN5PQ8ST1VW4"],
		["6 capitals of 21 letters and 3 digits (camelCase)", "Ab3cDeFg7hJkMnpq9Rstuvwx"],
	])("takes none with %s", (_, body) => {
		expect(found(`s.${body}`)).toEqual([]);
	});

	it.each([
		["7 capitals of 21 letters", "Ab3cDeFg7hJkMnPq9Rstuvwx"],
		["4 digits", "Ab3cDeFgh7jkMnpq9rst2uvw"],
	])("takes a body with %s", (_, body) => {
		expect(found(`s.${body}`)).toEqual([["vault token", `s.${body}`]]);
	});
});

describe("vendorSpans: a body's pieces", () => {
	it.each([
		// gitleaks 1password.go: 6, 11 (or 6-5), 5, 5, 5.
		["a piece too many", "A3-Q7ZK2M-W9X4RT8LP3N-5VB2C-8DF6G-H1JK4-"],
		["pieces of other lengths", "A3-Q7ZK2M-W9X4RT8LP3N5-VB2C-8DF6G-H1JK4"],
		// gitleaks sourcegraph.go: 40 hex, not 41.
		["41 hex after sgp_", `sgp_${LOWER_HEX}12345678a`],
	])("takes nothing for %s", (_, text) => {
		expect(found(`${text} x`)).toEqual([]);
	});
});

describe("vendorSpans: Slack's lengths", () => {
	it("asks 4 characters or more after the prefix", () => {
		expect(found("xoxb-1-ab")).toEqual([["slack token", "xoxb-1-ab"]]);
		expect(found("xoxb-1-a")).toEqual([]);
	});

	it("takes a legacy workspace token that a number follows whole", () => {
		expect(found("xoxa-2-1234-Ab3dE6")).toEqual([["slack token", "xoxa-2-1234-Ab3dE6"]]);
	});

	it.each([
		["8", `xoxr-${of(MIXED, 8)}`, true],
		["7", `xoxr-${of(MIXED, 7)}`, false],
		["48", `xoxr-${of(MIXED, 48)}`, true],
		["49", `xoxr-${of(MIXED, 49)}`, false],
	])("asks 8 to 48 letters and digits of a legacy workspace token: %s", (_, token, taken) => {
		expect(found(token)).toEqual(taken ? [["slack token", token]] : []);
	});

	it("takes no legacy workspace token running into a word, nor one whose digit is after it", () => {
		expect(found(`xoxr-${of(MIXED, 8)}_x`)).toEqual([]);
		expect(found("xoxa-abcdefghij 42")).toEqual([]);
	});
});

describe("vendorSpans: Doppler's service token", () => {
	// docs.doppler.com "Auth Token Formats": dp.st., an optional config name and ., then 40-44 letters and digits.
	const config = of("prd_stg-config", 35);

	it.each([
		["a config of 2", `dp.st.pr.${of(MIXED, 43)}`],
		["a config of 35 and a token of 44 (80 in all)", `dp.st.${config}.${of(MIXED, 44)}`],
		["a token of 40", `dp.st.${of(MIXED, 40)}`],
		["a token of 44", `dp.st.${of(MIXED, 44)}`],
	])("takes %s", (_, token) => {
		expect(found(`${token} x`)).toEqual([["doppler token", token]]);
	});

	it.each([
		["a config of 1", `dp.st.p.${of(MIXED, 43)}`],
		["a config of 36 and a token of 44 (81 in all)", `dp.st.${config}p.${of(MIXED, 44)}`],
		["a token of 39", `dp.st.${of(MIXED, 39)}`],
		["a token of 45", `dp.st.${of(MIXED, 45)}`],
		["a token holding a -", `dp.st.prd.${of(MIXED, 20)}-${of(MIXED, 22)}`],
		["a token of seven distinct characters", `dp.st.${of("Ab3De6G", 43)}`],
	])("takes nothing for %s", (_, token) => {
		expect(found(`${token} x`)).toEqual([]);
	});
});

describe("vendorSpans: Sentry's org token", () => {
	// gitleaks sentry.go: sntrys_eyJ, base64 claims, _, then 43 base64 characters.
	it("asks 19 characters of claims or more after eyJ", () => {
		const token = `sntrys_eyJ${of(MIXED, 19)}_${of(MIXED, 43)}`;
		expect(found(`${token} x`)).toEqual([["sentry token", token]]);
		expect(found(`sntrys_eyJ${of(MIXED, 18)}_${of(MIXED, 43)} x`)).toEqual([]);
	});

	it.each([
		["44 characters after the _", `sntrys_eyJ${of(MIXED, 30)}_${of(MIXED, 44)}`],
		["a _ in the last 43", `sntrys_eyJ${of(MIXED, 30)}_${of(MIXED, 20)}_${of(MIXED, 22)}`],
		["a run of six in the last 43", `sntrys_eyJ${of(MIXED, 30)}_AAAAAA${of(MIXED, 37)}`],
	])("takes nothing for %s", (_, token) => {
		expect(found(`${token} x`)).toEqual([]);
	});
});

describe("vendorSpans: Terraform's and Databricks' bodies", () => {
	const terraform = (body: string) => `Ab3dE6gH9jK2mN.atlasv1.${body}`;

	// gitleaks hashicorp.go: 60 to 70 after .atlasv1.
	it.each([
		["60", terraform(of(MIXED, 60)), true],
		["70", terraform(of(MIXED, 70)), true],
		["71", terraform(of(MIXED, 71)), false],
		["60 with a run of six", terraform(`${of(MIXED, 54)}AAAAAA`), false],
	])("asks 60 to 70 random characters after .atlasv1.: %s", (_, token, taken) => {
		expect(found(`${token} x`)).toEqual(taken ? [["terraform token", token]] : []);
	});

	// gitleaks databricks.go: dapi, 32 lower-case hex, an optional -<digit>.
	it("asks 32 random hex digits after dapi", () => {
		expect(found(`dapi${of("3f2b8c1", 32)} x`)).toEqual([]);
		expect(found(`dapi${LOWER_HEX.slice(0, 26)}000000 x`)).toEqual([]);
	});

	it("takes a - after a Databricks token only with a digit", () => {
		expect(found(`dapi${LOWER_HEX}-x`)).toEqual([["databricks token", `dapi${LOWER_HEX}`]]);
		expect(found(`dapi${LOWER_HEX}:1`)).toEqual([["databricks token", `dapi${LOWER_HEX}`]]);
	});
});

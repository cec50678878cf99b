import { describe, expect, it } from "vitest";
import { lintSecrets } from "../../../../src/adapters/redact/secretlint.js";

const key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y";
const password = "Zk3Qm9XwPq7Rt2";

/** What lintSecrets finds in `content`, as the stretches it covers, with their kinds. */
async function finds(content: string): Promise<[string, string][]> {
	return (await lintSecrets(content)).map((s) => [content.slice(s.start, s.end), s.kind]);
}

describe("lintSecrets", () => {
	it.each([
		[
			"an AWS secret key after its name (a credentials file)",
			`aws_secret_access_key = ${key}`,
			key,
			"aws secret access key",
		],
		["an AWS access key id", "AKIAZ3MHQ7EXAMPLE123 is the id", "AKIAZ3MHQ7EXAMPLE123", "aws access key id"],
		[
			"an npm token in an .npmrc",
			"//registry.npmjs.org/:_authToken=npm_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6",
			"npm_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6",
			"npm token",
		],
		[
			"a GitHub token",
			"GITHUB_TOKEN=ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6",
			"ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6",
			"github token",
		],
		[
			"a Slack webhook in a curl command",
			"curl -X POST https://hooks.slack.com/services/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",
			"https://hooks.slack.com/services/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",
			"slack webhook",
		],
	])("finds %s, where it stands, named by its kind", async (_, content, secret, kind) => {
		expect(await finds(content)).toEqual([[secret, kind]]);
	});

	it.each([
		["a Postgres URL in an env file", `DATABASE_URL=postgres://deploy:${password}@db.internal:5432/app`],
		["a MySQL URL", `mysql://root:${password}@127.0.0.1:3306/shop`],
		["a MongoDB SRV URL", `mongodb+srv://deploy:${password}@cluster0.example.net/app`],
		["a MongoDB URL with its scheme in capitals", `MONGODB://deploy:${password}@cluster0.example.net/app`],
		["an https URL in a curl command", `curl https://deploy:${password}@api.example.com/v1/items`],
	])("takes only the password of %s", async (_, content) => {
		expect(await finds(content)).toEqual([[password, "password in url"]]);
	});

	it("places the secret at its own message, not at an earlier copy of it", async () => {
		const content = `${key}\naws_secret_access_key = ${key}`;
		// The key alone on the first line is no find of the rule; the one after the name starts at 41 + 24.
		expect(await lintSecrets(content)).toEqual([{ start: 65, end: 105, kind: "aws secret access key" }]);
	});

	it("is not switched off by a secretlint-disable comment in the text it reads", async () => {
		expect(await finds(`# secretlint-disable\naws_secret_access_key = ${key}`)).toEqual([
			[key, "aws secret access key"],
		]);
	});

	it.each([
		["an AWS account id, which is no secret", "sso_account_id = 123456789012"],
		["a URL whose password is a variable", `postgres://deploy:\${DB_PASSWORD}@db/app`],
		["a URL with the documentation's placeholder credentials", "https://user:password@example.com"],
		["a URL with a port and no credentials", "listening on https://localhost:8443/health"],
		["a git commit hash", "commit 1507f8b3c2d4e5f60718293a4b5c6d7e8f901234"],
		["no text", ""],
	])("finds nothing in %s", async (_, content) => {
		expect(await lintSecrets(content)).toEqual([]);
	});
});

describe("lintSecrets over a long session", () => {
	// secretlint 11's profiler marks every lint and every rule on the global performance timeline, and its observer
	// keeps each mark and scans them all at every end mark: memory without bound and a cost quadratic in the lints
	// of the process (secretlint/secretlint#1633, #1653).
	it("leaves no performance mark behind, however many lints it runs", async () => {
		const before = performance.getEntriesByType("mark").length;
		for (let i = 0; i < 5; i++) await lintSecrets(`GITHUB_TOKEN=ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ${i}`);
		expect(performance.getEntriesByType("mark").length).toBe(before);
	});
});

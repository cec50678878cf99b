import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { rules } from "@secretlint/secretlint-rule-preset-recommend";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { SecretSpan } from "../../pass/secrets/index.js";

// secretlint 11 profiles every lint whether or not anyone reads the profile (secretlint/secretlint#1633, #1653): a
// lint puts about 60 marks on the process's performance timeline, and the observer its profiler starts at load keeps
// every mark and scans them all at each end mark. Over a long session that is memory without bound and a cost that
// grows with every lint before it, on pi's thread. Its marks are turned off where secretlint is loaded, before any
// lint (secretlint 13 has `setEnabled(false)` for this).
secretLintProfiler.mark = () => undefined;

/** secretlint's message ids, as a marker names them; an id not listed here is named by the rule it came from. */
const KINDS: Readonly<Record<string, string>> = {
	GITHUB_TOKEN: "github token",
	PackageJSON_xOauthToken: "github token",
	AWSSecretAccessKey: "aws secret access key",
	AWSAccessKeyID: "aws access key id",
	AWSAccountID: "aws account id",
	PrivateKey: "private key",
	PrivateKeyJSON: "private key",
	NPM_ACCESS_TOKEN: "npm token",
	Npmrc_authToken: "npm token",
	SLACK_TOKEN: "slack token",
	IncomingWebhook: "slack webhook",
	BasicAuth: "password in url",
	OPENAI_TOKEN: "openai key",
	ANTHROPIC_API_KEY: "anthropic key",
	LINEAR_API_TOKEN: "linear token",
	SENDGRID_KEY: "sendgrid key",
	SHOPIFY_KEY: "shopify token",
	OPS_TOKEN: "1password token",
	MongoDBConnection: "password in url",
	MySQLConnection: "password in url",
	PostgreSQLConnection: "password in url",
};

type CoreConfig = Parameters<typeof lintSource>[0]["options"]["config"];

/** The preset's rules but the comment filter: text we lint is untrusted, and `secretlint-disable` in it must not hide a secret. */
const CONFIG: CoreConfig = {
	rules: rules
		.filter((rule) => rule.meta.id !== "@secretlint/secretlint-rule-filter-comments")
		.map((rule) => ({
			id: rule.meta.id,
			rule,
			// The AWS rule finds access key ids only when asked; an id beside its secret is worth hiding too.
			options: rule.meta.id === "@secretlint/secretlint-rule-aws" ? { enableIDScanRule: true } : {},
		})),
};

/** The fields a message's `data` may carry the secret in, by rule. */
const DataCodec = t.partial({
	KEY: t.string,
	TOKEN: t.string,
	ID: t.string,
	URI: t.string,
	URL: t.string,
	CREDENTIAL: t.string,
});

/** The password part of `scheme://user:password@host`, where secretlint reports the whole URL. */
function urlPassword(url: string): string | undefined {
	return /^[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:(?<pass>[^\s@/]+)@/i.exec(url)?.groups?.pass;
}

function secretOf(messageId: string, data: unknown): string | undefined {
	const decoded = DataCodec.decode(data);
	if (E.isLeft(decoded)) return undefined;
	const d = decoded.right;
	const text = d.KEY ?? d.TOKEN ?? d.ID ?? d.URI ?? d.URL ?? d.CREDENTIAL;
	if (text === undefined || text === "") return undefined;
	return KINDS[messageId] === "password in url" ? urlPassword(text) : text;
}

/**
 * The secrets secretlint's recommended preset finds in `content`, where they stand in it. A message's secret is
 * found by its text at or before the message's range, never by the range alone: some rules report a range that does
 * not cover the secret (the AWS secret key's starts at its name).
 */
export async function lintSecrets(content: string): Promise<SecretSpan[]> {
	if (content === "") return [];
	const result = await lintSource({
		source: { content, filePath: "redact.txt", ext: ".txt", contentType: "text" },
		options: { config: CONFIG, noPhysicFilePath: true },
	});
	return result.messages.flatMap((m) => {
		// An AWS account id is no secret (AWS's own docs say so): `sso_account_id = 123456789012` stays.
		const found = m.messageId === "AWSAccountID" ? undefined : secretOf(m.messageId, m.data);
		if (found === undefined) return [];
		const start = content.indexOf(found, Math.max(0, m.range[0] - found.length));
		if (start < 0) return [];
		return [
			{ start, end: start + found.length, kind: KINDS[m.messageId] ?? m.ruleId.replace(/^.*secretlint-rule-/, "") },
		];
	});
}

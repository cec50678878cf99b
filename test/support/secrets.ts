import fc from "fast-check";

/** A secret of one kind as it stands in text, and the random part that must never be seen again. */
export interface Planted {
	readonly kind: string;
	/** How it stands: `AWS_SECRET_ACCESS_KEY=…`, a token, a URL with a password, a key block. */
	readonly text: string;
	/** The random part: no 12 characters of it in a row may survive redaction. */
	readonly body: string;
}

const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const BASE64 = `${BASE62}+/`;
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function chars(alphabet: string, length: number): fc.Arbitrary<string> {
	return fc.array(fc.constantFrom(...alphabet), { minLength: length, maxLength: length }).map((cs) => cs.join(""));
}

/** A PEM block around a random base64 body that starts as DER does (`MII`), in 64-character lines. */
function pem(body: string): string {
	const lines = `MII${body}`.match(/.{1,64}/g) ?? [];
	return `-----BEGIN RSA PRIVATE KEY-----\n${lines.join("\n")}\n-----END RSA PRIVATE KEY-----`;
}

/** One arbitrary per supported kind, named by the marker the redactor must give it. */
export const plantedKinds: { readonly [kind: string]: fc.Arbitrary<Planted> } = {
	"github token": chars(BASE62, 36).map((b) => ({ kind: "github token", text: `ghp_${b}`, body: b })),
	"github fine-grained token": chars(BASE62, 82).map((b) => ({
		kind: "github token",
		text: `github_pat_${b}`,
		body: b,
	})),
	"aws secret access key": chars(BASE64, 40).map((b) => ({
		kind: "aws secret access key",
		text: `AWS_SECRET_ACCESS_KEY=${b}`,
		body: b,
	})),
	"aws access key id": chars(BASE32, 16).map((b) => ({ kind: "aws access key id", text: `AKIA${b}`, body: b })),
	"private key": chars(BASE64, 600).map((b) => ({ kind: "private key", text: pem(b), body: b })),
	"npm token": chars(BASE62, 36).map((b) => ({ kind: "npm token", text: `npm_${b}`, body: b })),
	"slack token": fc
		.tuple(chars("0123456789", 11), chars("0123456789", 12), chars(BASE62, 24))
		.map(([a, b, c]) => ({ kind: "slack token", text: `xoxb-${a}-${b}-${c}`, body: c })),
	"slack webhook": fc.tuple(chars(BASE62, 10), chars(BASE62, 10), chars(BASE62, 24)).map(([a, b, c]) => ({
		kind: "slack webhook",
		text: `https://hooks.slack.com/services/T${a}/B${b}/${c}`,
		body: c,
	})),
	"password in url": chars(BASE62, 18).map((b) => ({
		kind: "password in url",
		text: `https://deploy:${b}@git.example.com/repo.git`,
		body: b,
	})),
	"database password": chars(BASE62, 18).map((b) => ({
		kind: "password in url",
		text: `postgres://app:${b}@db.internal:5432/app`,
		body: b,
	})),
	"openai key": fc
		.tuple(chars(BASE62, 58), chars(BASE62, 58))
		.map(([a, b]) => ({ kind: "openai key", text: `sk-proj-${a}T3BlbkFJ${b}`, body: `${a}T3BlbkFJ${b}` })),
	"anthropic key": chars(BASE62, 93).map((b) => ({ kind: "anthropic key", text: `sk-ant-api03-${b}AA`, body: b })),
	"linear token": chars(BASE62, 40).map((b) => ({ kind: "linear token", text: `lin_api_${b}`, body: b })),
	"sendgrid key": fc
		.tuple(chars(BASE62, 22), chars(BASE62, 43))
		.map(([a, b]) => ({ kind: "sendgrid key", text: `SG.${a}.${b}`, body: `${a}.${b}` })),
	"shopify token": chars(BASE62, 32).map((b) => ({ kind: "shopify token", text: `shpat_${b}`, body: b })),
	"api key assignment": chars(BASE62, 32).map((b) => ({ kind: "key", text: `STRIPE_API_KEY=${b}`, body: b })),
	"password in JSON": chars(BASE62, 20).map((b) => ({ kind: "password", text: `"password": "${b}"`, body: b })),
	"bearer token": chars(BASE62, 40).map((b) => ({ kind: "token", text: `Authorization: Bearer ${b}`, body: b })),
};

/** Any supported kind. */
export const anyPlanted: fc.Arbitrary<Planted> = fc.oneof(...Object.values(plantedKinds));

/** The first run of `window` characters of the secret's body that still stands in `output`, if any. */
export function leakedPiece(output: string, planted: Planted, window = 12): string | undefined {
	const body = planted.body;
	for (let i = 0; i + window <= body.length; i++) {
		const piece = body.slice(i, i + window);
		if (output.includes(piece)) return piece;
	}
	return undefined;
}

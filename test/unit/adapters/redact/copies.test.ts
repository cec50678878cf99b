import { describe, expect, it } from "vitest";
import { copiesOf, MIN_COPY_CHARS } from "../../../../src/adapters/redact/copies.js";
import { findAll } from "../../../../src/pass/secrets/span.js";

const password = "Zk3Qm9XwPq7Rt2";
const found = new Map([[password, "password"]]);

/** The copies of `found`'s secrets in `text`, as the stretches of text they cover, with their kinds. */
function copies(text: string, secrets: ReadonlyMap<string, string> = found): [string, string][] {
	return findAll(copiesOf(secrets), text)
		.sort((a, b) => a.start - b.start)
		.map((s) => [text.slice(s.start, s.end), s.kind]);
}

describe("copiesOf", () => {
	it("is twelve characters: a shorter copy could be a word", () => {
		expect(MIN_COPY_CHARS).toBe(12);
	});

	it.each([
		["a whole token", `the password was ${password} yesterday`],
		["a token before a closing full stop", `the password was ${password}.`],
		["a quoted token", `{"password": "${password}"}`],
		["a token in brackets, before a comma", `args: [${password}, --verbose]`],
		["a token before a semicolon", `let p = (${password});`],
		["the value after a name's first =", `PGPASSWORD=${password}`],
		["the value after a = at a token's start", `PGPASSWORD =${password}`],
		["what follows a token's last colon (a .pgpass line)", `localhost:5432:app:deploy:${password}`],
		["what precedes a token's first @", `${password}@db.internal`],
		["the value after a name's = before a full stop", `set PGPASSWORD=${password}.`],
	])("finds a copy standing as %s", (_, text) => {
		expect(copies(text)).toEqual([[password, "password"]]);
	});

	it("takes a secret with = in it whole after the first =, as base64 padding stands", () => {
		const secret = "dGhpcyBpcyBhIHNlY3JldA==";
		expect(copies(`export TOKEN=${secret}`, new Map([[secret, "token"]]))).toEqual([[secret, "token"]]);
	});

	it("finds every copy in a text, each with the kind it was found as", () => {
		const key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y";
		const secrets = new Map([
			[password, "password"],
			[key, "aws secret access key"],
		]);
		expect(copies(`${key}\n${password} ${password}`, secrets)).toEqual([
			[key, "aws secret access key"],
			[password, "password"],
			[password, "password"],
		]);
	});

	it.each([
		["inside a longer token", `x${password}x`],
		["as the start of a path", `/srv/${password}/data`],
		["with another piece after it in its token", `${password}-old`],
	])("finds no copy %s", (_, text) => {
		expect(copies(text)).toEqual([]);
	});

	it("finds a secret exactly twelve characters long, as a whole token and as a part", () => {
		const secret = "Qm9XwPq7Rt2z";
		const secrets = new Map([[secret, "password"]]);
		expect(copies(`${secret} PASS=${secret}`, secrets)).toEqual([
			[secret, "password"],
			[secret, "password"],
		]);
	});

	it("takes no part shorter than twelve characters, even of a secret it was given", () => {
		const short = "Qm9XwPq7Rt2";
		const secrets = new Map([[short, "password"]]);
		expect(copies(`${short} PASS=${short} ${short}@host`, secrets)).toEqual([]);
	});

	it("reads one token a step, and takes no step when no secret was found", () => {
		const steps = (secrets: ReadonlyMap<string, string>, text: string) => {
			let n = 0;
			for (const it = copiesOf(secrets)(text, []); !it.next().done; ) n++;
			return n;
		};
		expect(steps(found, "git push origin main")).toBe(4);
		expect(steps(new Map(), "git push origin main")).toBe(0);
	});
});

import { describe, expect, it } from "vitest";
import { secretSpans } from "../../../../src/pass/secrets/index.js";

/** What the patterns take for secrets in a text: each stretch's kind and its characters. */
const found = (text: string) => secretSpans(text).map((s) => [s.kind, text.slice(s.start, s.end)]);

describe("secretSpans: cookies", () => {
	it("takes each long cookie value of a header, but for short words", () => {
		expect(found("Cookie: theme=dark; session=Zk3Qm9XwPq7Rt2Ls; lang=en")).toEqual([["cookie", "Zk3Qm9XwPq7Rt2Ls"]]);
	});

	it("takes only Set-Cookie's first pair", () => {
		expect(found("Set-Cookie: sid=Zk3Qm9XwPq7Rt2Ls; Path=/; Domain=Ab4Cd6Ef8Gh0Ij2K")).toEqual([
			["cookie", "Zk3Qm9XwPq7Rt2Ls"],
		]);
	});

	it("takes a header on every line, the scan going on after the pairs it read", () => {
		const text = "Cookie: a=Zk3Qm9XwPq7Rt2Ls\nCookie: b=Ab4Cd6Ef8Gh0Ij2K";
		expect(found(text)).toEqual([
			["cookie", "Zk3Qm9XwPq7Rt2Ls"],
			["cookie", "Ab4Cd6Ef8Gh0Ij2K"],
		]);
	});

	it("takes a run of headers on one line as the one value it reads as", () => {
		const run = "cookie:x=".repeat(2000);
		expect(found(run)).toEqual([["cookie", run.slice("cookie:x=".length)]]);
	});
});

describe("secretSpans: passwords in URLs, looked for in the authority only", () => {
	it("takes a password a cut left at a line's end, whatever `@` stands before the URL", () => {
		expect(found("me@x redis://:S3cret99Pass")).toEqual([["password in url", "S3cret99Pass"]]);
		expect(secretSpans("me@x redis://:S3cret99Pass").map((s) => [s.start, s.end])).toEqual([[14, 26]]);
	});

	it("takes a password holding `@` up to the last `@` of the authority, not of the text", () => {
		expect(found("postgres://u:p@ss99word@db/app mail me@x")).toEqual([["password in url", "p@ss99word"]]);
	});

	it("takes no `:` after the authority for a password's start", () => {
		expect(found("see https://example.com/a:b@c and more")).toEqual([]);
	});
});

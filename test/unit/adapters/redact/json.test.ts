import { describe, expect, it } from "vitest";
import { createRedactor, type Redactor, redactJson } from "../../../../src/adapters/redact/index.js";
import { mapStrings } from "../../../../src/adapters/redact/json.js";

/** A redactor that records each batch it is given and brackets every text, so what went where can be read back. */
function recording(): { redactor: Redactor; batches: string[][] } {
	const batches: string[][] = [];
	const redactAll = async (texts: readonly string[]) => {
		batches.push([...texts]);
		return texts.map((text) => `<${text}>`);
	};
	return { redactor: { redactAll, redact: async (text) => (await redactAll([text]))[0] ?? text }, batches };
}

describe("mapStrings", () => {
	it("passes every string, however deep, through the function and keeps the shape and the keys", () => {
		const config = {
			name: "deploy",
			env: { DATABASE_URL: "postgres://app@db/app", replicas: 3 },
			args: ["--token", "abc", ["nested"]],
		};
		expect(mapStrings(config, (s) => s.toUpperCase())).toStrictEqual({
			name: "DEPLOY",
			env: { DATABASE_URL: "POSTGRES://APP@DB/APP", replicas: 3 },
			args: ["--TOKEN", "ABC", ["NESTED"]],
		});
	});

	it.each([
		["a number", 5173],
		["a boolean", true],
		["null", null],
		["undefined", undefined],
	])("leaves %s as it is", (_, value) => {
		expect(mapStrings(value, () => "changed")).toBe(value);
	});

	it("keeps null, numbers and booleans inside objects and arrays", () => {
		expect(mapStrings({ a: null, b: [false, 0, null], c: "x" }, () => "y")).toStrictEqual({
			a: null,
			b: [false, 0, null],
			c: "y",
		});
	});

	it("walks a value in one fixed order: object fields as they stand, array items first to last, depth first", () => {
		const seen: string[] = [];
		mapStrings({ a: "1", b: ["2", { c: "3" }, "4"], d: "5" }, (s) => {
			seen.push(s);
			return s;
		});
		expect(seen).toEqual(["1", "2", "3", "4", "5"]);
	});

	it("gives a new value and leaves the one it was given as it was", () => {
		const value = { text: "a", list: ["b"] };
		const out = mapStrings(value, () => "z");
		expect(value).toStrictEqual({ text: "a", list: ["b"] });
		expect(out).toStrictEqual({ text: "z", list: ["z"] });
	});
});

describe("redactJson", () => {
	it("redacts every string of the value in one batch, in the walk's order, and puts each back where it stood", async () => {
		const { redactor, batches } = recording();
		const out = await redactJson(redactor, {
			command: "curl",
			headers: ["Authorization: Bearer x", { cookie: "sid=1" }],
			timeout: 30,
		});
		expect(batches).toEqual([["curl", "Authorization: Bearer x", "sid=1"]]);
		expect(out).toStrictEqual({
			command: "<curl>",
			headers: ["<Authorization: Bearer x>", { cookie: "<sid=1>" }],
			timeout: 30,
		});
	});

	it("leaves a string as it was when the redactor gives back no text for it", async () => {
		const short: Redactor = { redactAll: async () => ["only one"], redact: async (text) => text };
		expect(await redactJson(short, ["first", "second"])).toStrictEqual(["only one", "second"]);
	});

	it("finds a secret in a tool call's decoded arguments and replaces a copy of it in another field", async () => {
		const token = `ghp_${"aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"}`;
		const args = {
			command: `GITHUB_TOKEN=${token} gh release create v1.2.0`,
			description: "publish the release",
			env: { TOKEN_COPY: token },
		};
		expect(await redactJson(createRedactor(true), args)).toStrictEqual({
			command: "GITHUB_TOKEN=[redacted: github token] gh release create v1.2.0",
			description: "publish the release",
			env: { TOKEN_COPY: "[redacted: github token]" },
		});
	});
});

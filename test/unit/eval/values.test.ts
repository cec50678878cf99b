import { describe, expect, it } from "vitest";
import { holdsValue, valuesIn } from "../../../src/eval/values.js";

const texts = (text: string) => valuesIn(text).map((v) => `${v.kind}:${v.text}`);

describe("facts' values", () => {
	it("finds numbers with units, ports, hashes, versions and file paths", () => {
		const found = texts(
			"Tests 3 failed | 41 passed in 2.31s (117ms); listening on http://localhost:5173/ and port 8080; " +
				"[main a1b2c3d] done; node v20.11.1; wrote src/eval/values.ts",
		);
		expect(found).toEqual(
			expect.arrayContaining([
				"quantity:3 failed",
				"quantity:41 passed",
				"quantity:2.31s",
				"quantity:117ms",
				"port:5173",
				"port:8080",
				"hash:a1b2c3d",
				"version:v20.11.1",
				"path:src/eval/values.ts",
			]),
		);
	});

	it("leaves out what is shorter than 3 characters, hex without a digit, URLs' paths and four-part numbers", () => {
		const found = texts("took 5s; the word defaced; 1234567; see https://example.com/a/b.js; ip 127.0.0.1; and/or");
		expect(found).toEqual([]);
	});

	it("a value is held only where it stands alone, and a quantity with or without its space", () => {
		expect(holdsValue("commit a1b2c3d.", { kind: "hash", text: "a1b2c3d" })).toBe(true);
		expect(holdsValue("commit a1b2c3de", { kind: "hash", text: "a1b2c3d" })).toBe(false);
		expect(holdsValue("port 51730", { kind: "port", text: "5173" })).toBe(false);
		expect(holdsValue("it took 2.31 s", { kind: "quantity", text: "2.31s" })).toBe(true);
		expect(holdsValue("it took 2.31s", { kind: "quantity", text: "2.31 s" })).toBe(true);
	});

	it("a path is held as the same file: ./ and a/../ normalised away, or a longer path ending in it segment by segment", () => {
		const path = { kind: "path" as const, text: "./src/adapters/cli/main.ts" };
		expect(holdsValue("see src/adapters/cli/main.ts", path)).toBe(true);
		expect(holdsValue("see src/pass/../adapters/cli/main.ts", path)).toBe(true);
		expect(holdsValue("see /home/u/proj/src/adapters/cli/main.ts", path)).toBe(true);
		expect(holdsValue("see cli/main.ts", path)).toBe(true);
		expect(holdsValue("see lib/src/adapters/cli/main.tsx", path)).toBe(false);
		expect(holdsValue("see other/adapters/cli2/main.ts", path)).toBe(false);
		expect(holdsValue("see main.ts", path)).toBe(false);
		expect(holdsValue("see a/b/d.ts", { kind: "path", text: "./a//b/./c/../d.ts" })).toBe(true);
	});
});

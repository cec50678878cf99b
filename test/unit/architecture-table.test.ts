import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/shared.js";

// docs/architecture.md's table of where each behaviour of how-it-works.md lives names files: each must exist, so
// the table cannot outlive a move.
const doc = readFileSync(join(repoRoot, "docs/architecture.md"), "utf8");
const table = doc.slice(
	doc.indexOf("### Where each behaviour of how-it-works.md lives"),
	doc.indexOf("## Data flow of a read"),
);
const paths = [...table.matchAll(/`((?:src|bench|test)\/[^`]+\.ts)`/g)].map((m) => m[1] ?? "");

describe("docs/architecture.md's table of behaviours", () => {
	it("names the files of at least every step of a pass", () => {
		expect(paths.length).toBeGreaterThanOrEqual(20);
	});

	it("names only files that exist", () => {
		expect(paths.filter((path) => !existsSync(join(repoRoot, path)))).toEqual([]);
	});
});

import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { setup, teardown } from "../support/run-temp-root.js";

// The test run's one temp folder (test/support/run-temp-root.ts): what a test makes in `tmpdir()` lies below it,
// and the run's end removes it with all it holds.

describe("the run's temp folder", () => {
	it("a test's temp dir lies in the folder the run's global setup made", () => {
		const dir = mkdtempSync(join(tmpdir(), "longhaul-probe-"));
		expect(basename(dirname(dir))).toMatch(/^longhaul-test-run-/);
	});

	it("teardown removes the folder setup made, with what a test left in it", () => {
		const before = process.env.TMPDIR;
		try {
			setup();
			const root = tmpdir();
			const left = mkdtempSync(join(root, "longhaul-left-"));
			writeFileSync(join(left, "session.jsonl"), "{}\n");
			teardown();
			expect([root === before, existsSync(left), existsSync(root)]).toEqual([false, false, false]);
		} finally {
			if (before === undefined) delete process.env.TMPDIR;
			else process.env.TMPDIR = before;
		}
	});
});

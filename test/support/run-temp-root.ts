import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// vitest's global setup (vitest.config.ts, vitest.in-pi.config.ts): one temp folder a run, removed when the run
// ends. TMPDIR is set before the workers start, so every `tmpdir()` of a test, of pi and of what they spawn (git,
// npm, the CLI) lies below it, and a run leaves nothing in the system's temp folder, whatever a test cleans.

let root: string | undefined;

export function setup(): void {
	root = mkdtempSync(join(tmpdir(), "longhaul-test-run-"));
	process.env.TMPDIR = root;
}

export function teardown(): void {
	if (root !== undefined) rmSync(root, { recursive: true, force: true });
}

import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** `../shared/fixtures/transcripts` beside the project; absent on a user's clone. */
export const sharedTranscripts = resolve(repoRoot, "../shared/fixtures/transcripts");

/** True where the shared fixtures exist; tests that need them report themselves skipped elsewhere. */
export const hasShared = existsSync(join(sharedTranscripts, "before-compaction.jsonl"));

/** Copies a shared transcript into a fresh temp dir (the originals are never opened for writing). */
export function copyShared(name: string): string {
	const dir = mkdtempSync(join(tmpdir(), "longhaul-fixture-"));
	const path = join(dir, name);
	copyFileSync(join(sharedTranscripts, name), path);
	return path;
}

import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";

/** The repository's root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** `../shared/fixtures/transcripts` beside the project; absent on a user's clone. */
export const sharedTranscripts = resolve(repoRoot, "../shared/fixtures/transcripts");

/** True where the shared fixtures exist; tests that need them report themselves skipped elsewhere. */
export const hasShared = existsSync(join(sharedTranscripts, "before-compaction.jsonl"));

/** Why a group that reads the real transcripts does not run here, in one line. */
export const SHARED_ABSENT = `skipped: it reads real pi sessions from ${sharedTranscripts}, which only the project's own checkout has (they may not be committed)`;

/**
 * A group of tests on the real transcripts in ../shared. Where they are absent (a user's clone), the group is one
 * skipped test that says why, on the console and as its skip note, instead of tests that skip without a word.
 */
export function describeShared(title: string, body: () => void): void {
	if (hasShared) {
		describe(title, body);
		return;
	}
	describe(title, () => {
		it("needs the real transcripts in ../shared", (context) => {
			console.warn(`${title}: ${SHARED_ABSENT}`);
			context.skip(SHARED_ABSENT);
		});
	});
}

/** Copies a shared transcript into a fresh temp dir (the originals are never opened for writing). */
export function copyShared(name: string): string {
	const dir = mkdtempSync(join(tmpdir(), "longhaul-fixture-"));
	const path = join(dir, name);
	copyFileSync(join(sharedTranscripts, name), path);
	return path;
}

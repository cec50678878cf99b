import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { readSessionFile, startsWithSessionHeader } from "../../../../src/adapters/cli/session-file.js";
import { place, transcriptText } from "../../../support/transcript.js";
import { user, v1Text } from "../../../support/v1-transcript.js";

function temp(name: string, text: string): string {
	const path = join(mkdtempSync(join(tmpdir(), "longhaul-session-file-")), name);
	writeFileSync(path, text);
	return path;
}

describe("a session file", () => {
	it("a v3 and a v1 transcript start with pi's session header and are read whole", () => {
		for (const text of [transcriptText(place([{ kind: "user", text: "hi" }])), v1Text([user("hi")])]) {
			expect(startsWithSessionHeader(text)).toBe(true);
			expect(readSessionFile(temp("s.jsonl", text))).toEqual(E.right(text));
		}
	});

	it("a first line that is not pi's header (empty, junk, another type, no string id) is no session", () => {
		const lines = [
			"",
			"\n",
			"not json",
			"{}",
			'{"type":"message","id":"a"}',
			'{"type":"session"}',
			'{"type":"session","id":7}',
			"[]",
		];
		for (const first of lines) {
			expect(startsWithSessionHeader(`${first}\n{"type":"session","id":"late"}\n`)).toBe(false);
			expect(readSessionFile(temp("bad.jsonl", first))).toEqual(
				E.left("not a pi session (its first line is no session header)"),
			);
		}
	});

	it("a directory, a device and a pipe are not regular files, and none is opened", () => {
		const dir = mkdtempSync(join(tmpdir(), "longhaul-session-dir-"));
		mkdirSync(join(dir, "x.jsonl"));
		const fifo = join(dir, "pipe.jsonl");
		execFileSync("mkfifo", [fifo]);
		for (const path of [join(dir, "x.jsonl"), "/dev/null", fifo]) {
			expect(readSessionFile(path)).toEqual(E.left("not a regular file"));
		}
	});

	it("a missing file says it cannot be read, with the system's code", () => {
		expect(readSessionFile("/nonexistent/x.jsonl")).toEqual(E.left("cannot read (ENOENT)"));
	});
});

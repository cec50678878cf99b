import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { transcriptFacts } from "../../../../src/adapters/eval/facts.js";
import { runFactsCli } from "../../../../src/adapters/eval/facts-cli.js";
import { repoRoot } from "../../../support/shared.js";
import { assistant, compaction, result, user, v1Text } from "./v1-transcript.js";

/** A session where a port, a hash, a timing and a version show up before a compaction; `summary` is its summary. */
function session(summary: string, details?: object) {
	const compact = { ...compaction(summary, 5), ...(details === undefined ? {} : { details }) };
	return v1Text([
		user("what port, and is it still v1.2.3?"),
		assistant("", [["c1", "bash", { command: "npm run dev" }]]),
		result("c1", "bash", "listening on localhost:8787, HEAD a1b2c3d, ready in 3.2s, v1.2.3"),
		assistant("It listens on 8787."),
		user("ok, next"),
		assistant("Next I build on a1b2c3d."),
		compact,
		user("start it again"),
		assistant("", [["c2", "bash", { command: "sleep 1" }]]),
		result("c2", "bash", "ready in 3.2s"),
		assistant("", [["c3", "bash", { command: "curl localhost:8787/health; git show a1b2c3d; echo 3.2s v1.2.3" }]]),
		result("c3", "bash", "ok"),
	]);
}

const texts = (values: readonly { readonly text: string }[]) => values.map((v) => v.text);

describe("facts", () => {
	it("finds a value first seen in the span's tool output and used after the compaction, kept when the summary holds it", () => {
		const [kept] = transcriptFacts(session("The dev server listens on port 8787."));
		expect(kept?.compactor).toBe("pi");
		expect(texts(kept?.reused ?? [])).toEqual(["8787"]);
		expect(texts(kept?.kept ?? [])).toEqual(["8787"]);
		const [lost] = transcriptFacts(session("The dev server was started."));
		expect(texts(lost?.reused ?? [])).toEqual(["8787"]);
		expect(lost?.kept).toEqual([]);
	});

	it("leaves out values the kept window shows, a later tool result shows again, or the user typed first", () => {
		// a1b2c3d is in the kept window, 3.2s is shown again before its use, v1.2.3 came from the user.
		const [facts] = transcriptFacts(session("a1b2c3d 3.2s v1.2.3 8787"));
		expect(texts(facts?.reused ?? [])).toEqual(["8787"]);
	});

	it("names Longhaul's compactions by their details", () => {
		const details = { stateFormat: 1, longhaul: true, span: 1, events: [] };
		const [facts] = transcriptFacts(session("- port: 8787 (C1)", details));
		expect(facts?.compactor).toBe("longhaul");
	});

	it("prints a table per compactor over v1 files and leaves their bytes as they were", () => {
		const dir = mkdtempSync(join(tmpdir(), "longhaul-facts-"));
		const pi = join(dir, "pi.jsonl");
		const longhaul = join(dir, "longhaul.jsonl");
		writeFileSync(pi, session("Nothing about ports."));
		writeFileSync(longhaul, session("- port: 8787 (C1)", { stateFormat: 1, longhaul: true, span: 1, events: [] }));
		const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
		const before = [sha(pi), sha(longhaul)];
		const out = runFactsCli([pi, longhaul], { root: repoRoot });
		expect(out.code).toBe(0);
		expect(out.stdout).toMatch(/^pi +1 +1 +0 +0% +20$/m);
		expect(out.stdout).toMatch(/^longhaul +1 +1 +1 +100% +17$/m);
		expect(out.stdout).toMatch(/^other +0 +0 +0 +- +-$/m);
		expect(out.stdout).not.toContain(dir);
		expect([sha(pi), sha(longhaul)]).toEqual(before);
	});

	it("a missing file is named by its hash and exits 2", () => {
		const out = runFactsCli(["/nonexistent/secret-name.jsonl"], { root: repoRoot });
		expect(out.code).toBe(2);
		expect(out.stderr).toMatch(/^[0-9a-f]{8}: cannot read \(ENOENT\)\n$/);
		expect(out.stderr).not.toContain("secret-name");
	});
});

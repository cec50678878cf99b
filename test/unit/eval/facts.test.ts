import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { comparedFacts, transcriptFacts } from "../../../src/eval/facts.js";
import { runFactsCli } from "../../../src/eval/facts-cli.js";
import { command } from "../../support/events.js";
import { repoRoot } from "../../support/shared.js";
import { assistant, compaction, result, user, v1Text } from "../../support/v1-transcript.js";

/** A session where a port, a hash, a timing and a version show up before a compaction; `summary` is its summary. */
function session(summary: string, details?: object, keptLine = 5) {
	const compact = { ...compaction(summary, keptLine), ...(details === undefined ? {} : { details }) };
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

const LONGHAUL = { stateFormat: 1, longhaul: true, span: 1, events: [] };

/** The stored event of the session's `npm run dev` as C1. */
const npmRunDev = {
	seq: 1,
	event: command("C1", "npm run dev", 0, 1, "c1"),
};

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

	it("prints one table per transcript, never pooled, and leaves the files' bytes as they were", () => {
		const dir = mkdtempSync(join(tmpdir(), "longhaul-facts-"));
		const pi = join(dir, "pi.jsonl");
		const longhaul = join(dir, "longhaul.jsonl");
		writeFileSync(pi, session("Nothing about ports."));
		writeFileSync(longhaul, session("- port: 8787 (C1)", LONGHAUL));
		const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
		const before = [sha(pi), sha(longhaul)];
		const out = runFactsCli([pi, longhaul], { root: repoRoot });
		expect(out.code).toBe(0);
		const [first, second] = out.stdout.split(/^transcript /m).slice(1);
		expect(first).toMatch(/^pi +1 +0\/1 +0\/3 +0\/3 +20$/m);
		expect(first).not.toMatch(/^longhaul/m);
		expect(second).toMatch(/^longhaul +1 +1\/1 +1\/3 +1\/3 +17$/m);
		expect(second).not.toMatch(/^pi /m);
		expect(out.stdout).not.toContain(dir);
		expect([sha(pi), sha(longhaul)]).toEqual(before);
	});

	it("reused wide counts every value first seen in the span's tool output and used after, the kept window's too", () => {
		const [facts] = transcriptFacts(session("a1b2c3d and 8787"));
		expect(texts(facts?.reused ?? [])).toEqual(["8787"]);
		expect(texts(facts?.wide ?? []).sort()).toEqual(["3.2s", "8787", "a1b2c3d"]);
		expect(texts(facts?.keptWide ?? []).sort()).toEqual(["8787", "a1b2c3d"]);
	});

	it("reachable adds what one longhaul_recall of an id the summary shows returns: C1 gives back what it printed", () => {
		const [shown] = transcriptFacts(session("Ran C1.", { ...LONGHAUL, events: [npmRunDev] }));
		expect(shown?.keptWide).toEqual([]);
		expect(texts(shown?.reachable ?? []).sort()).toEqual(["3.2s", "8787", "a1b2c3d"]);
		const [unshown] = transcriptFacts(session("Ran the dev server.", { ...LONGHAUL, events: [npmRunDev] }));
		expect(unshown?.reachable).toEqual([]);
	});

	it("compares a replay with its recording at the same cuts, judging both on the recording's values", () => {
		const recorded = session("The dev server listens on port 8787.");
		const replayed = session("- port: 8787 (C1)", LONGHAUL);
		const compared = comparedFacts(recorded, replayed);
		expect(E.isRight(compared)).toBe(true);
		if (E.isLeft(compared)) return;
		expect(compared.right.recorded.map((f) => [f.compactor, texts(f.kept)])).toEqual([["pi", ["8787"]]]);
		expect(compared.right.replayed.map((f) => [f.compactor, texts(f.kept), f.summaryChars])).toEqual([
			["longhaul", ["8787"], 17],
		]);
	});

	it("refuses a comparison where the replay keeps from another place than the recording", () => {
		const recorded = session("The dev server listens on port 8787.");
		const moved = session("- port: 8787 (C1)", LONGHAUL, 4);
		expect(comparedFacts(recorded, moved)).toEqual(
			E.left(
				"compaction 1: the replay keeps from u1+3 (assistant) where the recording keeps from u2; facts compares compactors only at the same cut",
			),
		);
		const dir = mkdtempSync(join(tmpdir(), "longhaul-facts-"));
		writeFileSync(join(dir, "rec.jsonl"), recorded);
		writeFileSync(join(dir, "rep.jsonl"), moved);
		const out = runFactsCli([join(dir, "rec.jsonl"), "--replayed", join(dir, "rep.jsonl")], { root: repoRoot });
		expect(out.code).toBe(2);
		expect(out.stdout).toBe("");
		expect(out.stderr).toMatch(
			/^[0-9a-f]{8} against [0-9a-f]{8}: compaction 1: the replay keeps from u1\+3 .*same cut\n$/,
		);
	});

	it("a missing file is named by its hash and exits 2", () => {
		const out = runFactsCli(["/nonexistent/secret-name.jsonl"], { root: repoRoot });
		expect(out.code).toBe(2);
		expect(out.stderr).toMatch(/^[0-9a-f]{8}: cannot read \(ENOENT\)\n$/);
		expect(out.stderr).not.toContain("secret-name");
	});
});

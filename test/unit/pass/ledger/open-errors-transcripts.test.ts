import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_EVERY } from "../../../../src/eval/replay-cli.js";
import { renderSummary } from "../../../../src/projections/index.js";
import type { State } from "../../../../src/reducers/index.js";
import { compactedAtScorePoints } from "../../../support/pass-points.js";
import { copyShared, describeShared } from "../../../support/shared.js";

// Issue 20, Show: both real transcripts compacted by Longhaul at `score`'s points (pi's recorded cuts in
// before-compaction.jsonl, one every 20 user turns in large-session.jsonl), then one pass keeping as little as pi
// allows. What is open then is pinned by ledger ids, command ids and exit codes only (the transcripts' words may not
// be committed); docs/evaluation.md says why each one stands.

const pinned: Record<
	string,
	{ readonly passes: number; readonly open: readonly (readonly [string, string, number])[] }
> = {
	"before-compaction.jsonl": {
		passes: 3,
		open: [
			["E7", "C133", 1],
			["E8", "C134", 1],
		],
	},
	"large-session.jsonl": {
		passes: 5,
		open: [
			["E1", "C10", 2],
			["E2", "C11", 2],
			["E3", "C22", 2],
			["E4", "C140", 1],
			["E5", "C181", 1],
			["E6", "C187", 1],
		],
	},
};

const states = new Map<string, Promise<{ state: State; passes: number }>>();
function compacted(name: string): Promise<{ state: State; passes: number }> {
	const known = states.get(name);
	if (known !== undefined) return known;
	const fresh = compactedAtScorePoints(readFileSync(copyShared(name), "utf8"), DEFAULT_EVERY);
	states.set(name, fresh);
	return fresh;
}

const open = (state: State) => state.errors.filter((e) => e.fixedBy === null);

describeShared("open errors of the real transcripts after Longhaul's compactions at score's points", () => {
	for (const [name, expected] of Object.entries(pinned)) {
		describe(name, () => {
			it("lists as open only the pinned failed commands, by id, command and exit code", async () => {
				const { state, passes } = await compacted(name);
				expect(passes).toBe(expected.passes);
				const exit = new Map(state.commands.map((c) => [c.id, c.exitCode]));
				expect(open(state).map((e) => [e.id, e.command, exit.get(e.command ?? "")])).toEqual(expected.open);
			});

			it("each open one is still unresolved: no later run of the same command text succeeded", async () => {
				const { state } = await compacted(name);
				const byId = new Map(state.commands.map((c) => [c.id, c]));
				const number = (id: string) => Number.parseInt(id.slice(1), 10);
				for (const error of open(state)) {
					const raiser = byId.get(error.command ?? "");
					expect(raiser?.by).toBe("tool");
					const later = state.commands.filter(
						(c) => c.command === raiser?.command && number(c.id) > number(raiser?.id ?? "C0") && c.exitCode === 0,
					);
					expect(later).toEqual([]);
				}
			});

			it("an edit that failed is fixed by the later edit of its file, and nothing the user interrupted is an error", async () => {
				const { state } = await compacted(name);
				const edits = state.errors.filter((e) => e.tool === "edit" || e.tool === "write");
				for (const e of edits) expect(e.fixedBy).toBe(`edit of ${e.path}`);
				expect(state.errors.filter((e) => /Command aborted\s*$/.test(e.head))).toEqual([]);
				expect(state.errors.filter((e) => e.tool === "model")).toEqual([]);
			});

			it("records the session's own model failing as the session's, and the summary's Open errors leave it out", async () => {
				const { state } = await compacted(name);
				expect(state.modelFailures?.length).toBe(1);
				const text = renderSummary(state).text;
				const start = text.indexOf("## Open errors");
				const section = text.slice(start, text.indexOf("\n\n", start)).split("\n").slice(1);
				expect(section.map((line) => line.slice(2, line.indexOf(" ", 2)))).toEqual(expected.open.map(([id]) => id));
				for (const failure of state.modelFailures ?? []) expect(section.join("\n")).not.toContain(failure.head);
			});
		});
	}

	it("before-compaction.jsonl had edits that failed and were fixed, so the rule was met", async () => {
		const { state } = await compacted("before-compaction.jsonl");
		expect(state.errors.filter((e) => e.tool === "edit").map((e) => e.id)).toEqual(["E1", "E3", "E6", "E9"]);
	});
});

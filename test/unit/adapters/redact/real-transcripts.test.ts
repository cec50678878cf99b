import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { type PreviewCapabilities, runPreviewCli } from "../../../../src/adapters/cli/preview-cli.js";
import { runStateCli } from "../../../../src/adapters/cli/state-cli.js";
import { redactingModel } from "../../../../src/adapters/pass/redacting-model.js";
import { createRedactor } from "../../../../src/adapters/redact/index.js";
import { branchOf } from "../../../../src/events/branch.js";
import { messageOf } from "../../../../src/events/messages.js";
import { readTranscript } from "../../../../src/events/transcript.js";
import { PI_KEEP_RECENT_TOKENS, piCut } from "../../../../src/pass/span/cut.js";
import { answeringModel, compactionEntry, passOver } from "../../../support/passes.js";
import { copyShared, describeShared, hasShared, sharedTranscripts } from "../../../support/shared.js";

const MARKER = "[redacted:";
const answers = resolve(sharedTranscripts, "../model-answers");
const redactor = createRedactor(true);
const agent = mkdtempSync(join(tmpdir(), "longhaul-redact-agent-"));

/**
 * Where each real transcript is compacted once: before-compaction.jsonl up to pi's first recorded compaction,
 * large-session.jsonl after 20 user turns (as `score` compacts it), each answered by what a real model answered there.
 */
const cases = [
	{ name: "before-compaction.jsonl", answer: "before-compaction/longhaul-span1-retry.answer.json", users: undefined },
	{ name: "large-session.jsonl", answer: "large-session/longhaul-span1.answer.json", users: 20 },
];

/** The branch's entries up to its first compaction, or to the message after `users` user messages. */
function spanBranch(text: string, users: number | undefined) {
	const entries = [...branchOf(readTranscript(text).entries).entries];
	let seen = 0;
	const end = entries.findIndex(
		(e) =>
			(users === undefined && e.type === "compaction") ||
			(users !== undefined && messageOf(e)?.role === "user" && seen++ === users),
	);
	return end < 0 ? entries : entries.slice(0, end);
}

/** The lines of `text` that carry a marker, for the failure message. */
function markedLines(text: string): string[] {
	return text.split("\n").filter((line) => line.includes(MARKER));
}

describeShared("the real transcripts, compacted once, carry no redaction marker (they hold no secret)", () => {
	for (const { name, answer, users } of cases)
		it(`${name}: the diff prompt, the stored summary, state --json and preview`, async () => {
			const path = copyShared(name);
			const text = readFileSync(path, "utf8");
			const branch = spanBranch(text, users);
			const firstKeptEntryId = piCut(branch, PI_KEEP_RECENT_TOKENS) ?? "";
			const model = answeringModel(() => readFileSync(join(answers, answer), "utf8"));
			const raws = branch.map((e) => ({ ...e.raw, id: e.id, parentId: e.parentId }));
			const outcome = await passOver(raws, redactingModel(model, redactor), redactor.redactAll);
			const prompts = model.requests.map((r) => `${r.system}\n${r.prompt}`).join("\n");
			expect(prompts).toContain("packages/");
			expect(markedLines(prompts)).toEqual([]);
			const summary = await redactor.redact(outcome.summary);
			expect(summary).toContain("## ");
			expect(markedLines(summary)).toEqual([]);

			const last = String(raws.at(-1)?.id);
			const header = JSON.parse(text.slice(0, text.indexOf("\n")));
			const stored = [
				{ ...header, version: 3 },
				...raws,
				compactionEntry("lh1", last, firstKeptEntryId, outcome.details),
			];
			const file = join(mkdtempSync(join(tmpdir(), "longhaul-redact-")), "session.jsonl");
			writeFileSync(file, `${stored.map((e) => JSON.stringify(e)).join("\n")}\n`);
			const state = await runStateCli([file, "--json"], { PI_CODING_AGENT_DIR: agent });
			expect(state.stderr).toBe("");
			expect(JSON.parse(state.stdout).spans).toBe(1);
			expect(markedLines(state.stdout)).toEqual([]);

			const caps: PreviewCapabilities = {
				env: { PI_CODING_AGENT_DIR: agent },
				cwd: "/nowhere",
				takeWorld: async () => ({ taken: false, reason: "not asked" }),
				now: () => 0,
			};
			const preview = await runPreviewCli([path], caps);
			expect(preview.code).toBe(0);
			expect(preview.stdout).toContain("packages/");
			expect(markedLines(preview.stdout)).toEqual([]);
		});
});

describe("the real-transcript cases", () => {
	it("name two transcripts that exist wherever ../shared does", () => {
		expect(cases.map((c) => c.name)).toEqual(["before-compaction.jsonl", "large-session.jsonl"]);
		if (hasShared) for (const c of cases) expect(readFileSync(join(answers, c.answer), "utf8")).toMatch(/^\{/);
	});
});

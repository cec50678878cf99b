import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as t from "io-ts";
import { afterAll, describe, expect, it } from "vitest";
import { expectedRules, longSession } from "../../bench/long-session.js";
import { runStateCli } from "../../src/adapters/cli/state-cli.js";
import { foldTranscript } from "../../src/reducers/index.js";
import { repoRoot } from "../support/shared.js";

const dir = mkdtempSync(join(tmpdir(), "longhaul-long-session-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RuleJson = t.type({ id: t.string, text: t.string, source: t.string });
const StateJson = t.type({ rules: t.array(RuleJson) });

/** The rules `npm run state -- FILE --json` prints for a transcript's text. */
async function stateRules(jsonl: string): Promise<unknown> {
	const file = join(dir, "session.jsonl");
	writeFileSync(file, jsonl);
	const printed: unknown = JSON.parse((await runStateCli([file, "--json"], {})).stdout);
	return StateJson.is(printed) ? printed.rules : "unreadable";
}

/** The rules the summary's "Rules in force" section shows: `R<n>`, the quoted words, `(u<n>)`. */
function summaryRules(summary: string): { id: string; text: string; source: string }[] {
	const section = /## Rules in force\n([\s\S]*?)(?:\n## |$)/.exec(summary)?.[1] ?? "";
	return [...section.matchAll(/^(R\d+)\n> (.*)\n\((u\d+)\)$/gm)].map(([, id, text, source]) => ({
		id: id ?? "",
		text: text ?? "",
		source: source ?? "",
	}));
}

/** Each span's first message follows the previous span's last: the spans cover the session once, in order. */
function spanSeams(jsonl: string): { follows: boolean; spans: number } {
	const folded = foldTranscript(jsonl);
	const messages = folded.branch.filter((e) => e.type === "message").map((e) => e.id);
	const bounds = folded.spanRecords.flatMap(({ record }) => (record.bounds === undefined ? [] : [record.bounds]));
	const follows = bounds.every((b, i) => {
		const before = bounds[i - 1];
		return before === undefined || messages.indexOf(b.first) === messages.indexOf(before.last) + 1;
	});
	return { follows, spans: bounds.length };
}

describe("a long session in a real pi session", () => {
	it("13 compactions whose kept windows cross the previous one: one call per pass, no message asked twice, the rules exact after each", async () => {
		const after: { rules: unknown; summary: unknown; judged: number }[] = [];
		const session = await longSession(repoRoot, async (s, seen) => {
			const compaction = s.branch().findLast((e) => e.type === "compaction");
			const summary = compaction?.type === "compaction" ? summaryRules(compaction.summary) : "no compaction";
			after.push({ rules: await stateRules(s.jsonl()), summary, judged: seen.judged });
		});
		const { compactions } = session;
		expect(compactions.length).toBeGreaterThanOrEqual(12);
		expect(compactions.filter((c) => c.crossed).length).toBeGreaterThanOrEqual(4);
		expect(compactions.map((c) => c.calls)).toEqual(compactions.map(() => 1));
		expect(spanSeams(session.jsonl)).toEqual({ follows: true, spans: compactions.length });
		const asked = compactions.flatMap((c) => c.asked);
		expect(asked).toEqual([...new Set(asked)]);
		expect(asked).toEqual(Array.from({ length: compactions.at(-1)?.judged ?? 0 }, (_, i) => `u${i + 1}`));
		for (const { rules, summary, judged } of after) {
			expect(rules).toEqual(expectedRules(judged));
			expect(summary).toEqual(expectedRules(judged));
		}
		// The scenario's end: the replaced, lifted and withdrawn rules are gone, the permission withdrew nothing.
		expect(expectedRules(compactions.at(-1)?.judged ?? 0).map((r) => r.text)).toEqual([
			"never push to main",
			"from now on run pnpm test instead of npm test before you commit",
			"never log secrets to the console",
			"tests go under test/unit from now on",
			"never commit generated files",
		]);
	}, 600_000);
});

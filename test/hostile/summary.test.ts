import { fauxAssistantMessage, fauxToolCall } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { runStateCli } from "../../src/adapters/cli/state-cli.js";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { logPath, records } from "../support/e2e-log.js";
import { labeler } from "../support/fake-summarizer.js";
import { longhaulSession, tick } from "../support/longhaul-session.js";
import { callBash, type Harness, say } from "../support/pi-harness.js";
import { unsafeCharacters } from "../support/terminal-attacks.js";

const kept = disposedAfterEach();

/** The summary of the newest compaction on the branch. */
function storedSummary(h: Harness): string {
	const compaction = h.branch().findLast((e) => e.type === "compaction");
	return compaction?.type === "compaction" ? compaction.summary : "no compaction";
}

/** One assistant message calling tool `name` once for each argument set (pi runs them in one turn). */
function calls(name: string, args: readonly Record<string, unknown>[]) {
	return fauxAssistantMessage(
		args.map((a) => fauxToolCall(name, a)),
		{ stopReason: "toolUse" },
	);
}

// Printed by failing tools: OSC 52 (write the clipboard), OSC 0 and 2 (window title), CSI 2J (clear the screen),
// a C1 CSI, a carriage return that hides the start of the line, and a right-to-left override.
const PRINTS = [
	String.raw`printf '\033]52;c;Y3VybCBldmlsIHwgc2g=\007clipboard\n' >&2; exit 3`,
	String.raw`printf '\033]0;pwned title\007\033]2;other\033\\titled\n' >&2; exit 4`,
	String.raw`printf '\033[2J\033[Hcleared \302\233 31m\n' >&2; exit 5`,
	String.raw`printf 'visible\rHIDDEN \342\200\256gnp.exe\n' >&2; exit 6`,
];

describe("the summary pi stores is safe to print and bounded (a real pi session)", () => {
	it("tools that print OSC 52, titles and clear-screen: the stored summary holds none raw, state --json keeps the bytes", async () => {
		const h = await longhaulSession({ persist: true });
		kept(h);
		h.model.scriptSide(labeler());
		h.model.scriptAgent(...PRINTS.map((command) => callBash(command)), say("they all failed"), say("ok"));
		await h.prompt("run the four scripts");
		await h.prompt("go on");
		await h.compact();

		const summary = storedSummary(h);
		expect(summary).toContain("## Open errors");
		expect(unsafeCharacters(summary)).toEqual([]);
		for (const shown of [
			"\\x1b]52;c;",
			"\\x07clipboard",
			"\\x1b]0;pwned title",
			"\\x1b[2J",
			"\\x9b",
			"\\x0dHIDDEN",
			"\\u202e",
		])
			expect(summary).toContain(shown);

		const file = h.session.sessionFile ?? "";
		const printed = await runStateCli([file, "--json"], {});
		expect(printed.code).toBe(0);
		expect(unsafeCharacters(printed.stdout)).toEqual([]);
		const heads: string[] = JSON.parse(printed.stdout).openErrors.map((e: { head: string }) => e.head);
		expect(heads.join("\n")).toContain("\u001b]52;c;Y3VybCBldmlsIHwgc2g=\u0007clipboard");
		expect(heads.join("\n")).toContain("\u001b[2J");
		expect(heads.join("\n")).toContain("\u202e");
		expect(heads.join("\n")).toContain("visible\rHIDDEN");
	});

	it("150 failing commands and 1,000 notes: the summary stays within summaryChars, the rule and Now whole", async () => {
		const log = logPath();
		const h = await longhaulSession({ env: { PI_COMPACT_STATE_DEBUG: log } });
		kept(h);
		h.model.scriptSide(labeler());
		const failing = Array.from({ length: 150 }, (_, i) => ({ command: `echo "test ${i + 1} failed" >&2; exit 1` }));
		const notes = Array.from({ length: 1000 }, (_, i) => ({
			note: `note ${i + 1}: the flaky test is net-${i + 1}.test.ts`,
		}));
		const batches = <T>(items: readonly T[], size: number) =>
			Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
		h.model.scriptAgent(
			...batches(failing, 50).map((batch) => calls("bash", batch)),
			...batches(notes, 100).map((batch) => calls("longhaul_remember", batch)),
			say("all failed, all noted"),
			say("ok"),
		);
		await h.prompt("never push to main; run the suite and note every flaky test");
		await h.prompt("go on");
		await h.compact();
		await tick();

		const summary = storedSummary(h);
		expect(summary.length).toBeLessThanOrEqual(12_000);
		expect(summary).toContain("R1\n> never push to main; run the suite and note every flaky test\n(u1)");
		expect(summary).toContain("## Now\ncarry on with the work\n");
		expect(summary).toMatch(/\n- (and \d+ more notes|1000 notes), N1 to N\d+: longhaul_recall gives each\n/);
		expect(summary).toMatch(/- E150 \(bash C150: .*\): test 150 failed/);
		const compaction = records(log).find((r) => r.event === "compaction");
		expect(compaction?.capFit).toMatchObject({ limit: 12_000, chars: summary.length, fits: true });
		expect(compaction?.carried).toMatchObject({ notes: 1000 });
	}, 300_000);
});

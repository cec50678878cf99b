import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { foldEntries } from "../../src/reducers/index.js";
import { turnsAnswers } from "../support/answers.js";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { logPath, records } from "../support/e2e-log.js";
import { isDiffCall, labeler } from "../support/fake-summarizer.js";
import { compactAfterRule, longhaulSession } from "../support/longhaul-session.js";
import { ONE_CALL_STATUSES } from "../support/passes.js";
import {
	callBash,
	callTool,
	compactionsOn,
	fail,
	type Harness,
	lastReply,
	PI_LINE,
	say,
	startSession,
	toolResultTexts,
} from "../support/pi-harness.js";
import { repoRoot } from "../support/shared.js";

const kept = disposedAfterEach();

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

async function start(env: Record<string, string> = {}, extension = repoRoot): Promise<Harness> {
	const harness = kept(await startSession({ extensionPaths: [extension], env, keepRecentTokens: 1 }));
	return harness;
}

describe("Longhaul inside a real pi session", () => {
	it("two compactions keep the first span's rules verbatim, lift only by the user's words, and append span records and lines", async () => {
		const log = logPath();
		const h = await start({ PI_COMPACT_STATE_DEBUG: log });
		h.model.scriptSide(labeler({ "is lifted": "R1" }), labeler({ "is lifted": "R1" }));
		h.model.scriptAgent(say("ok"), say("ok"), callBash("echo '3 failed'; exit 1"), say("the tests fail"));
		await h.prompt("never add dependencies without asking");
		await h.prompt("always run the linter before you commit");
		await h.prompt("run the tests");
		await h.compact();
		h.model.scriptAgent(say("noted"), callBash("echo 12 passed"), say("green now"), say("ok"));
		await h.prompt("the dependencies rule is lifted, you may add zod");
		await h.prompt("run the tests again");
		await h.prompt("thanks");
		await h.compact();
		await tick();
		const branch = h.branch();
		const compactions = compactionsOn(branch);
		expect(compactions).toHaveLength(2);
		const second = compactions[1];
		expect(second?.summary ?? "").toContain("> always run the linter before you commit");
		expect(second?.summary ?? "").not.toContain("> never add dependencies without asking");
		const customs = branch.flatMap((e) => (e.type === "custom" ? [e.customType] : []));
		expect(customs.filter((c) => c === "compaction-state.span")).toHaveLength(2);
		expect(customs.filter((c) => c === "compaction-state.line")).toHaveLength(2);
		const { state } = foldEntries(branch);
		expect(state.rules.map((r) => r.text)).toEqual(["always run the linter before you commit"]);
		expect(state.lifted.map((r) => [r.text, r.by])).toEqual([["never add dependencies without asking", "u4"]]);
		expect(state.commands.map((c) => [c.id, c.exitCode])).toEqual([
			["C1", 1],
			["C2", 0],
		]);
		expect(h.model.calls.filter(isDiffCall)).toHaveLength(2);
		const events = records(log).map((r) => r.event);
		expect(events).toEqual(expect.arrayContaining(["extension-loaded", "compaction", "compacted"]));
		const text = readFileSync(log, "utf8");
		for (const words of ["never add dependencies", "run the linter", "zod", "3 failed"])
			expect(text).not.toContain(words);
	});

	it("/tree to an earlier point shows the state of that branch", async () => {
		const h = await start();
		h.model.scriptSide(labeler({ "is lifted": "R1" }), labeler({ "is lifted": "R1" }));
		h.model.scriptAgent(say("ok"), say("ok"), say("ok"), say("ok"));
		await h.prompt("never push to main");
		await h.prompt("next");
		await h.compact();
		const afterFirst = h.branch().at(-1)?.id ?? "";
		await h.prompt("the push rule is lifted");
		await h.prompt("more");
		await h.compact();
		await tick();
		await h.prompt("/longhaul");
		expect(h.ui.notices.at(-1)?.message).not.toContain("> never push to main");
		await h.navigateTree(afterFirst);
		await h.prompt("/longhaul");
		expect(h.ui.notices.at(-1)?.message).toContain("> never push to main");
	});

	it("a model that fails every call ends in a narrative-less close, and the session goes on", async () => {
		const h = await start();
		h.model.scriptSide(fail("overloaded"), fail("overloaded"));
		h.model.scriptAgent(say("ok"), say("ok"), say("ok"), say("still here"));
		await h.prompt("never add dependencies");
		await h.prompt("next");
		await h.prompt("and then");
		await h.compact();
		await h.prompt("are you there?");
		const [compaction] = compactionsOn(h.branch());
		expect(compaction?.summary ?? "").toContain("(narrative-less: model-error)");
		expect(h.ui.notices.some((n) => n.message.includes("narrative-less"))).toBe(true);
		expect(lastReply(h.branch())).toEqual([{ type: "text", text: "still here" }]);
		expect(foldEntries(h.branch()).state.closes[0]).toMatchObject({
			kind: "narrative-less",
			unlabeled: ["u1", "u2", "u3"],
		});
		expect(foldEntries(h.branch()).state.rules).toEqual([]);
	});

	it("a pass that throws ends in pi's own compaction and a fallback record", async () => {
		const log = logPath();
		const faulty = join(repoRoot, "test/fixtures/extensions/longhaul-faulty.ts");
		const h = await start({ PI_COMPACT_STATE_DEBUG: log }, faulty);
		h.model.scriptSide("## Goal\npi's own summary", "## Turn\nthe turn so far");
		h.model.scriptAgent(say("ok"), say("ok"));
		await h.prompt("never add dependencies");
		await h.prompt("next");
		await h.compact();
		await tick();
		const [compaction] = compactionsOn(h.branch());
		expect(compaction?.summary ?? "").toContain("pi's own summary");
		const fallback = records(log).find((r) => r.event === "fallback");
		expect(fallback).toMatchObject({ reason: "pass-threw", errorClass: "Error", error: "injected fault" });
		const line = h.branch().find((e) => e.type === "custom" && e.customType === "compaction-state.line");
		expect(line?.type === "custom" ? line.data : undefined).toEqual({ stateFormat: 1, fallback: "Error" });
	});

	it("PI_COMPACTOR=pi leaves pi's summary in place and still logs what happened", async () => {
		const log = logPath();
		const h = await start({ PI_COMPACTOR: "pi", PI_COMPACT_STATE_DEBUG: log });
		h.model.scriptSide("## Goal\npi's own summary", "## Turn\nthe turn so far");
		h.model.scriptAgent(say("ok"), say("ok"));
		await h.prompt("never add dependencies");
		await h.prompt("next");
		await h.compact();
		const [compaction] = compactionsOn(h.branch());
		expect(compaction?.summary ?? "").toContain("pi's own summary");
		expect(compaction?.details).not.toMatchObject({ longhaul: true });
		const events = records(log).map((r) => r.event);
		expect(events).toContain("compacted");
		expect(events).not.toContain("compaction");
		expect(records(log).find((r) => r.event === "compacted")).toMatchObject({ fromExtension: false, reason: "pi" });
	});

	it("longhaul_remember keeps a note through the next compaction, and longhaul_recall reads a rule back", async () => {
		const h = await start();
		h.model.scriptSide(labeler());
		h.model.scriptAgent(
			callTool("longhaul_remember", { note: "the flaky test is net.test.ts" }),
			say("remembered"),
			say("ok"),
			say("ok"),
		);
		await h.prompt("remember the flaky test");
		// The tool answers with the id its stored event carries (docs/contracts.md, Stored sessions and ids), not a
		// guess at the fold's numbering.
		expect(toolResultTexts(h.branch(), "longhaul_remember")).toEqual(["Remembered as N1."]);
		const stored = h.branch().flatMap((e) => (e.type === "custom" ? [JSON.stringify(e.data)] : []));
		expect(stored.join("")).toContain(
			'"event":{"type":"note-remembered","data":{"id":"N1","text":"the flaky test is net.test.ts"}}',
		);
		await h.prompt("never add dependencies");
		await h.prompt("go on");
		await h.compact();
		const [compaction] = compactionsOn(h.branch());
		expect(compaction?.summary ?? "").toContain("N1: the flaky test is net.test.ts");
		h.model.scriptAgent(callTool("longhaul_recall", { ref: "R1" }), say("done"));
		await h.prompt("what rule is R1?");
		expect(toolResultTexts(h.branch(), "longhaul_recall").join("\n")).toContain("never add dependencies");
	});
});

describe("Longhaul's edges inside pi", () => {
	it("old reasoning in the kept window is left out of the context, logged once per kept window", async () => {
		const log = logPath();
		const h = await start({ PI_COMPACT_STATE_DEBUG: log });
		h.model.scriptSide(labeler());
		const thinking = (secret: string, text: string) =>
			fauxAssistantMessage([
				{ type: "thinking", thinking: secret },
				{ type: "text", text },
			]);
		h.model.scriptAgent(thinking("SECRET-A", "first"), thinking("SECRET-B", "second"), say("third"), say("fourth"));
		await h.prompt("start");
		await h.prompt("go on");
		await h.compact();
		await h.prompt("what now?");
		await h.prompt("and now?");
		const agentCalls = h.model.calls.filter((c) => c.kind === "agent");
		const seen = JSON.stringify(agentCalls.at(-2)?.context.messages);
		expect(seen).toContain("second");
		expect(seen).not.toContain("SECRET-B");
		const strips = records(log).filter((r) => r.event === "kept-window-strip");
		expect(strips).toHaveLength(1);
		expect(strips[0]).toMatchObject({ strippedBlocks: 1, strippedChars: "SECRET-B".length });
	});

	it("/longhaul-report names no path outside ~ and no words of the session", async () => {
		const log = logPath();
		const h = await start({ PI_COMPACT_STATE_DEBUG: log });
		h.model.scriptSide(labeler());
		h.model.scriptAgent(say("ok"), say("ok"), callBash("echo hello-from-the-shell"), say("done"));
		await h.prompt("never store the passphrase swordfish");
		await h.prompt("run it");
		await h.compact();
		await h.prompt("/longhaul-report");
		const report = h.ui.notices.at(-1)?.message ?? "";
		expect(report).toContain("compaction");
		for (const secret of ["swordfish", "passphrase", "hello-from-the-shell", h.cwd, tmpdir()])
			expect(report).not.toContain(secret);
	});

	it("a compaction pi could not finish is reported once: when pi says so (1.x), else at the next input (0.73)", async () => {
		const log = logPath();
		const h = await start({ PI_COMPACTOR: "pi", PI_COMPACT_STATE_DEBUG: log });
		h.model.scriptSide(fail("overloaded"), fail("overloaded"));
		h.model.scriptAgent(say("ok"), say("ok"), say("still here"));
		await h.prompt("never add dependencies");
		await h.prompt("next");
		await expect(h.compact()).rejects.toThrow();
		const failed = () => records(log).filter((r) => r.event === "compact-failed");
		expect(failed()).toMatchObject(PI_LINE === "1.x" ? [{ reason: "compaction-error" }] : []);
		await h.prompt("hello again");
		expect(failed()).toMatchObject([{ reason: PI_LINE === "1.x" ? "compaction-error" : "no-compaction-entry" }]);
	});

	it("an unknown PI_COMPACTOR stands Longhaul down with one notice", async () => {
		const h = await start({ PI_COMPACTOR: "sumarizer" });
		expect(h.ui.notices.filter((n) => n.message.includes("PI_COMPACTOR"))).toHaveLength(1);
		h.model.scriptSide("## Goal\npi's summary", "## Turn\nprefix");
		h.model.scriptAgent(say("ok"), say("ok"));
		await h.prompt("never add dependencies");
		await h.prompt("next");
		await h.compact();
		expect(h.branch().find((e) => e.type === "compaction")).toMatchObject({
			summary: expect.stringContaining("pi's summary"),
		});
	});

	it("a bad longhaul.json value is named in one notice and its default used", async () => {
		const harness = kept(
			await longhaulSession({
				projectFiles: { ".pi/longhaul.json": JSON.stringify({ maxChunks: "many", summaryChars: 500 }) },
			}),
		);
		const notices = harness.ui.notices.filter((n) => n.message.startsWith("Longhaul config"));
		expect(notices).toHaveLength(1);
		expect(notices[0]?.message).toContain("maxChunks");
		expect(notices[0]?.message).toContain("summaryChars");
	});
});

describe("Longhaul's model call inside pi", () => {
	it("asks a model that cannot turn reasoning off for its lowest level, and logs that level", async () => {
		const log = logPath();
		const h = kept(
			await longhaulSession({
				env: { PI_COMPACT_STATE_DEBUG: log },
				models: [{ id: "thinker", reasoning: true, thinkingLevelMap: { off: null } }],
			}),
		);
		await compactAfterRule(h);
		const diff = h.model.calls.find(isDiffCall);
		expect(diff?.options?.reasoning).toBe("minimal");
		expect(diff?.options?.maxTokens).toBe(4096);
		const compaction = records(log).find((r) => r.event === "compaction");
		expect(compaction).toMatchObject({ narrative: { reasoning: "minimal" }, route: { used: "faux/thinker" } });
	});

	it("turns reasoning off for a model that allows it", async () => {
		const h = kept(
			await longhaulSession({
				models: [{ id: "thinker", reasoning: true }],
				thinkingLevel: "high",
			}),
		);
		await compactAfterRule(h);
		expect(h.model.calls.find(isDiffCall)?.options?.reasoning).toBeUndefined();
	});
});

describe("what the user sees of a pass", () => {
	it("the footer names each step while a pass runs and clears it after; a fallback names itself in a notice", async () => {
		const h = await start();
		await compactAfterRule(h);
		const longhaul = h.ui.statusChanges.filter((c) => c.key === "longhaul").map((c) => c.text);
		expect(longhaul).toEqual(ONE_CALL_STATUSES);
		await h.dispose();
		const faulty = join(repoRoot, "test/fixtures/extensions/longhaul-faulty.ts");
		const f = await start({}, faulty);
		f.model.scriptSide("## Goal\npi's own summary", "## Turn\nprefix");
		f.model.scriptAgent(say("ok"), say("ok"));
		await f.prompt("never add dependencies");
		await f.prompt("next");
		await f.compact();
		expect(f.ui.notices.map((n) => n.message)).toContain(
			"Longhaul: the pass failed (Error); pi's own compaction takes over.",
		);
	});

	it("a compaction cancelled mid-pass logs aborted, stores nothing, and the session goes on", async () => {
		const log = logPath();
		const h = await start({ PI_COMPACT_STATE_DEBUG: log });
		h.model.scriptSide(() => {
			h.session.abortCompaction();
			return "{}";
		});
		h.model.scriptAgent(say("ok"), say("ok"), say("back"));
		await h.prompt("never add dependencies");
		await h.prompt("next");
		await expect(h.compact()).rejects.toThrow();
		expect(h.branch().some((e) => e.type === "compaction")).toBe(false);
		expect(records(log).find((r) => r.event === "aborted")).toMatchObject({ reason: "signal" });
		expect(records(log).some((r) => r.event === "fallback")).toBe(false);
		await h.prompt("still there?");
		expect(records(log).some((r) => r.event === "compact-failed")).toBe(false);
	});

	it("extension-loaded names pi's version and that it is a verified one", async () => {
		const log = logPath();
		await start({ PI_COMPACT_STATE_DEBUG: log });
		expect(records(log).find((r) => r.event === "extension-loaded")).toMatchObject({
			piVersion: PI_LINE === "1.x" ? "1.6.0" : "0.73.1",
			piVersionVerified: true,
		});
	});
});

describe("/longhaul always shows the branch in view", () => {
	it("shows a note the agent just remembered, before any compaction", async () => {
		const h = await start();
		h.model.scriptAgent(callTool("longhaul_remember", { note: "the flaky test is net.test.ts" }), say("noted"));
		await h.prompt("remember the flaky test");
		await h.prompt("/longhaul");
		expect(h.ui.notices.at(-1)?.message).toContain("N1: the flaky test is net.test.ts");
	});

	it("after a fork from before a compaction, shows the forked branch's state, not the old one", async () => {
		const h = await start();
		h.model.scriptSide(labeler());
		h.model.scriptAgent(say("ok"), say("ok"));
		await h.prompt("always run the linter first");
		await h.prompt("next");
		const next = h
			.branch()
			.find((e) => e.type === "message" && e.message.role === "user" && JSON.stringify(e).includes('"next"'));
		await h.compact();
		await h.prompt("/longhaul");
		expect(h.ui.notices.at(-1)?.message).toContain("> always run the linter first");
		await h.fork(next?.id ?? "");
		await h.prompt("/longhaul");
		expect(h.ui.notices.at(-1)?.message).toContain("(no Longhaul state on this branch yet)");
	});
});

describe("the log's opt-in excerpts", () => {
	const bad = JSON.stringify({
		labels: [
			{ msg: "u1", label: "rule", words: "always deploy on fridays" },
			{ msg: "u2", label: "not a rule" },
		],
		narrative: "n",
		now: "w",
	});

	it("with PI_COMPACT_STATE_DEBUG_EXCERPTS=1 a compaction record names the rule words it refused", async () => {
		const log = logPath();
		const h = await start({ PI_COMPACT_STATE_DEBUG: log, PI_COMPACT_STATE_DEBUG_EXCERPTS: "1" });
		h.model.scriptSide(bad, bad);
		h.model.scriptAgent(say("ok"), say("ok"));
		await h.prompt("please keep the answers short");
		await h.prompt("next");
		await h.compact();
		// A record with excerpts is written once they are redacted, after the pass: let that write land.
		await tick();
		expect(records(log).find((r) => r.event === "compaction")).toMatchObject({
			excerpts: { rejectedQuotes: ["always deploy on fridays"] },
		});
	});

	it("without it, no record holds those words", async () => {
		const log = logPath();
		const h = await start({ PI_COMPACT_STATE_DEBUG: log });
		h.model.scriptSide(bad, bad);
		h.model.scriptAgent(say("ok"), say("ok"));
		await h.prompt("please keep the answers short");
		await h.prompt("next");
		await h.compact();
		expect(records(log).some((r) => r.event === "compaction")).toBe(true);
		expect(readFileSync(log, "utf8")).not.toContain("fridays");
	});
});

describe("what lands after a compaction", () => {
	it("the span record names the compaction entry, and the line comes after it, one turn later", async () => {
		const h = await start();
		await compactAfterRule(h);
		const rightAfter = h.branch().map((e) => (e.type === "custom" ? e.customType : e.type));
		await tick();
		const branch = h.branch();
		const at = branch.findIndex((e) => e.type === "compaction");
		const [compaction, record, line] = branch.slice(at);
		expect(rightAfter.slice(at)).toEqual(["compaction", "compaction-state.span"]);
		expect(record?.type === "custom" ? record.data : undefined).toMatchObject({
			v: 1,
			span: 1,
			compactionId: compaction?.id,
		});
		expect(line?.type === "custom" ? [line.customType, line.data] : undefined).toEqual([
			"compaction-state.line",
			expect.objectContaining({ stateFormat: 1, span: 1, calls: 1 }),
		]);
	});

	it("a fallback whose own compaction then fails is reported once as compact-failed", async () => {
		const log = logPath();
		const faulty = join(repoRoot, "test/fixtures/extensions/longhaul-faulty.ts");
		const h = await start({ PI_COMPACT_STATE_DEBUG: log }, faulty);
		h.model.scriptSide(fail("overloaded"), fail("overloaded"));
		h.model.scriptAgent(say("ok"), say("ok"), say("back"));
		await h.prompt("never add dependencies");
		await h.prompt("next");
		await expect(h.compact()).rejects.toThrow();
		await h.prompt("hello again");
		const events = records(log).map((r) => r.event);
		expect(events).toContain("fallback");
		expect(records(log).filter((r) => r.event === "compact-failed")).toMatchObject([
			{ reason: PI_LINE === "1.x" ? "compaction-error" : "no-compaction-entry", span: null },
		]);
	});
});

describe("turns mode inside pi", () => {
	it('with narrativeMode "turns" a compaction holds one gated conversation, and its rule lands verbatim', async () => {
		const log = logPath();
		const h = kept(
			await longhaulSession({
				env: { PI_COMPACT_STATE_DEBUG: log },
				projectFiles: { ".pi/longhaul.json": JSON.stringify({ narrativeMode: "turns" }) },
			}),
		);
		h.model.scriptAgent(say("ok"), say("ok"));
		await h.prompt("never add dependencies");
		await h.prompt("next");
		h.model.scriptAgent(
			...turnsAnswers({
				narrative: "set the ground rules",
				objective: "ship the feature",
				labels: [
					{ msg: "u1", label: "rule" },
					{ msg: "u2", label: "not a rule" },
				],
				findings: [{ decisions: [], deadEnds: [] }],
				now: "start on the feature",
			}),
		);
		await h.compact();
		const [compaction] = compactionsOn(h.branch());
		expect(compaction?.summary ?? "").toContain("> never add dependencies");
		expect(compaction?.summary ?? "").toContain("start on the feature");
		expect(records(log).find((r) => r.event === "compaction")).toMatchObject({
			narrative: { mode: "turns", calls: 5 },
		});
	});
});

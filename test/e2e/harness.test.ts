import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HIDDEN, MARKER, PROBE_SUMMARY, PROBE_SYSTEM_PROMPT } from "../fixtures/extensions/probe-helper.js";
import { THROWN } from "../fixtures/extensions/throwing-extension.js";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import {
	type BranchEntry,
	callBash,
	callTool,
	compactionsOn,
	type Harness,
	lastUserText,
	type ModelCall,
	PI_LINE,
	say,
	startSession,
	toolResultTexts,
} from "../support/pi-harness.js";
import { repoRoot } from "../support/shared.js";

const probe = join(repoRoot, "test/fixtures/extensions/probe-extension.ts");
const throwing = join(repoRoot, "test/fixtures/extensions/throwing-extension.ts");

// Long enough that pi's cut point (keepRecentTokens 20 in the harness) leaves earlier messages to summarize.
const firstAsk = "Please print the product of six and seven with the shell so that we both can see the number.";
const secondAsk = "Now write a note that the product was printed, using the probe's note tool, and then stop.";

const kept = disposedAfterEach();

async function start(options: Parameters<typeof startSession>[0]): Promise<Harness> {
	const harness = kept(await startSession(options));
	return harness;
}

function customEntries(branch: BranchEntry[], customType: string): { index: number; data: unknown }[] {
	return branch.flatMap((entry, index) =>
		entry.type === "custom" && entry.customType === customType ? [{ index, data: entry.data }] : [],
	);
}

function sideCalls(h: Harness): ModelCall[] {
	return h.model.calls.filter((call) => call.kind === "side");
}

describe("the pi harness", () => {
	it("runs real tools, and a loaded extension replaces pi's compaction and records after it", async () => {
		const h = await start({ extensionPaths: [probe] });
		h.model.scriptAgent(
			callBash("echo $((6 * 7))"),
			say("The shell printed the product."),
			callTool("probe_note", { note: "product printed" }),
			say("Noted."),
		);
		h.model.scriptSide("the probe's model answer");

		await h.prompt(firstAsk);
		await h.prompt(secondAsk);
		const result = await h.compact();

		const branch = h.branch();
		expect(toolResultTexts(branch, "bash").map((text) => text.trim())).toEqual(["42"]);
		expect(toolResultTexts(branch, "probe_note")).toEqual(["noted: product printed"]);
		const index = branch.findIndex((entry) => entry.type === "compaction");
		const compaction = branch[index];
		if (compaction?.type !== "compaction") throw new Error("no compaction entry on the branch");
		expect(compaction.summary).toBe(PROBE_SUMMARY);
		expect(compaction.fromHook).toBe(true);
		expect(compaction.details).toMatchObject({
			probe: true,
			answer: "the probe's model answer",
			customInstructions: null,
		});
		expect(result.summary).toBe(PROBE_SUMMARY);
		const after = customEntries(branch, "probe.after");
		expect(after).toEqual([{ index: index + 1, data: { compactionId: compaction.id, fromExtension: true } }]);
		expect(sideCalls(h).map((call) => call.context.systemPrompt)).toEqual([PROBE_SYSTEM_PROMPT]);
		expect(h.model.pending()).toBe(0);
	});

	it("hands the extension what pi prepared: the messages to summarize, the branch, the custom instructions", async () => {
		const h = await start({ extensionPaths: [probe] });
		h.model.scriptAgent(say("First answer, long enough to be worth a summary of its own."), say("Second answer."));
		h.model.scriptSide("answer");

		await h.prompt(firstAsk);
		await h.prompt(secondAsk);
		await h.compact("focus on the product");

		const [compaction] = compactionsOn(h.branch());
		if (compaction?.type !== "compaction") throw new Error("no compaction entry on the branch");
		const details = compaction.details;
		expect(details).toMatchObject({ customInstructions: "focus on the product", branchEntries: h.branch().length - 2 });
		const summarized =
			typeof details === "object" && details !== null && "summarized" in details ? details.summarized : 0;
		expect(summarized).toBeGreaterThan(0);
	});

	it("without the extension, pi's own compaction asks the faux model for its summary", async () => {
		const h = await start({ extensionPaths: [] });
		h.model.scriptAgent(
			say("Four, which is the sum of two and two, as anyone who has counted on fingers knows."),
			say("Six, which is the sum of three and three."),
		);
		const summarize = (call: ModelCall) =>
			lastUserText(call).includes("PREFIX of a turn") ? "pi turn-prefix summary" : "pi history summary";
		h.model.scriptSide(summarize, summarize);

		await h.prompt(`What is two plus two? ${firstAsk}`);
		await h.prompt(`What is three plus three? ${secondAsk}`);
		await h.compact();

		const [compaction] = compactionsOn(h.branch());
		if (compaction?.type !== "compaction") throw new Error("no compaction entry on the branch");
		expect(compaction.summary).toContain("pi history summary");
		expect(compaction.fromHook).toBe(false);
		expect(sideCalls(h).length).toBeGreaterThan(0);
		for (const call of sideCalls(h)) expect(call.context.systemPrompt).toMatch(/^You are a context summarization/);
		expect(h.session.getActiveToolNames()).not.toContain("probe_note");
		expect(customEntries(h.branch(), "probe.start")).toEqual([]);
	});

	it("waits for an auto-compaction a turn set off before prompt resolves", async () => {
		// The first reply stays under the threshold and the second, after a long ask, goes past it: pi 1.x compacts no
		// conversation of a single turn. The faux usage of the first reply is pi's system prompt and tools, about
		// 1,380 tokens in pi 1.6 and twice that in 0.73, whose faux counts the prompt as input and as cache write.
		const threshold =
			PI_LINE === "1.x" ? { contextWindow: 3000, reserve: 1400 } : { contextWindow: 6000, reserve: 3000 };
		const h = await start({
			extensionPaths: [probe],
			models: [{ id: "faux-small", contextWindow: threshold.contextWindow }],
			reserveTokens: threshold.reserve,
		});
		h.model.scriptAgent(say("ok"), say("ok again"));
		h.model.scriptSide("answer");

		await h.prompt(firstAsk);
		expect(h.events.filter((event) => event.type === "compaction_start")).toEqual([]);
		await h.prompt(`${secondAsk} ${"Spell it out in full. ".repeat(100)}`);

		expect(h.events.filter((event) => event.type === "compaction_start")).toEqual([
			{ type: "compaction_start", reason: "threshold" },
		]);
		const branch = h.branch();
		const [compaction] = compactionsOn(branch);
		expect(compaction?.summary).toBe(PROBE_SUMMARY);
		expect(customEntries(branch, "probe.after")).toHaveLength(1);
	});

	it("records an extension's failing compaction handler, and pi then compacts on its own", async () => {
		const h = await start({ extensionPaths: [throwing] });
		h.model.scriptAgent(say("First answer, long enough to be worth a summary of its own."), say("Second answer."));
		h.model.scriptSide("pi summary", "pi summary");

		await h.prompt(firstAsk);
		await h.prompt(secondAsk);
		const result = await h.compact();

		expect(h.extensionErrors.map(({ event, error }) => ({ event, error }))).toEqual([
			{ event: "session_before_compact", error: THROWN },
		]);
		expect(result.summary).toContain("pi summary");
	});

	it("runs the extension's command through prompt, without a model call, and captures its UI", async () => {
		const h = await start({ extensionPaths: [probe] });

		await h.prompt("/probe alpha");

		expect(h.model.calls).toEqual([]);
		expect(h.ui.notices).toEqual([{ message: "probe ran with alpha", type: "info" }]);
		expect(h.ui.statuses.get("probe")).toBe("ran alpha");
		expect(customEntries(h.branch(), "probe.command").map((entry) => entry.data)).toEqual([
			{ args: "alpha", hasUI: true },
		]);
		expect(customEntries(h.branch(), "probe.start").map((entry) => entry.data)).toEqual([
			{ reason: "startup", hasUI: true },
		]);
	});

	it("headless, the extension sees hasUI false and its notices go nowhere", async () => {
		const h = await start({ extensionPaths: [probe], ui: false });

		await h.prompt("/probe beta");

		expect(h.ui.notices).toEqual([]);
		expect(customEntries(h.branch(), "probe.command").map((entry) => entry.data)).toEqual([
			{ args: "beta", hasUI: false },
		]);
	});

	it("sends the model the messages a context handler returns, while the branch keeps the user's words", async () => {
		const h = await start({ extensionPaths: [probe] });
		h.model.scriptAgent(say("ok"));

		await h.prompt(`The word is ${MARKER}.`);

		const [call] = h.model.calls;
		expect(call === undefined ? "" : lastUserText(call)).toBe(`The word is ${HIDDEN}.`);
		const user = h.branch().find((entry) => entry.type === "message" && entry.message.role === "user");
		expect(JSON.stringify(user)).toContain(MARKER);
	});

	it("reports session_tree on navigation, and session_start with reason reload after a reload", async () => {
		const h = await start({ extensionPaths: [probe] });
		h.model.scriptAgent(say("first"), say("second"), say("after reload"));
		await h.prompt("one");
		const firstReply = h.branch().at(-1);
		await h.prompt("two");
		const oldLeaf = h.sessionManager.getLeafId();
		if (firstReply === undefined) throw new Error("empty branch");

		await h.navigateTree(firstReply.id);
		await h.reload();
		await h.prompt("three");

		const branch = h.branch();
		expect(customEntries(branch, "probe.tree").map((entry) => entry.data)).toEqual([
			{ newLeafId: firstReply.id, oldLeafId: oldLeaf },
		]);
		expect(customEntries(branch, "probe.start").map((entry) => entry.data)).toEqual([
			{ reason: "startup", hasUI: true },
			{ reason: "reload", hasUI: true },
		]);
		const last = branch.at(-1);
		expect(last?.type === "message" && last.message.role === "assistant" ? last.message.content : []).toEqual([
			{ type: "text", text: "after reload" },
		]);
	});

	it("refuses to start when a package path loads no extension, which pi itself does not report", async () => {
		const dir = mkdtempSync(join(tmpdir(), "longhaul-package-"));
		writeFileSync(join(dir, "package.json"), JSON.stringify({ pi: { extensions: ["./missing.ts"] } }));
		try {
			await expect(startSession({ extensionPaths: [dir] })).rejects.toThrow(/extensions failed to load/);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("writes the session to a JSONL transcript under the temp agent dir when asked to persist", async () => {
		const h = await start({ extensionPaths: [], persist: true });
		h.model.scriptAgent(say("persisted reply"));

		await h.prompt("keep this");

		const file = h.session.sessionFile;
		expect(file?.startsWith(h.agentDir)).toBe(true);
		expect(file === undefined ? "" : readFileSync(file, "utf8")).toContain("persisted reply");
	});

	it("follows a fork into the new session, whose extensions see session_start with reason fork", async () => {
		const h = await start({ extensionPaths: [probe] });
		h.model.scriptAgent(say("first"), say("second"));
		await h.prompt("one");
		await h.prompt("two");
		const second = h
			.branch()
			.find(
				(entry) => entry.type === "message" && entry.message.role === "user" && JSON.stringify(entry).includes("two"),
			);
		if (second === undefined) throw new Error("no second user message");
		const before = h.session;

		await h.fork(second.id);

		expect(h.session).not.toBe(before);
		expect(customEntries(h.branch(), "probe.start").map((entry) => entry.data)).toEqual([
			{ reason: "startup", hasUI: true },
			{ reason: "fork", hasUI: true },
		]);
	});
});

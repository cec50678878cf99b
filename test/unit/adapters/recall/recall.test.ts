import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RECALL_CHARS, RECALL_TAIL_CHARS, recall } from "../../../../src/adapters/recall/by-ref.js";
import { compactedIndex } from "../../../../src/adapters/recall/kept-index.js";
import type { Passage } from "../../../../src/adapters/recall/passages.js";
import { compactedBy, compactedPassages } from "../../../../src/adapters/recall/passages.js";
import { indexPassages, MAX_RESULTS, searchIndex } from "../../../../src/adapters/recall/search.js";
import { createRedactor } from "../../../../src/adapters/redact/index.js";
import type { Event } from "../../../../src/events/index.js";
import { isTerminalSafe } from "../../../../src/projections/index.js";
import { foldEntries } from "../../../../src/reducers/index.js";
import { params } from "../../../properties/laws.js";
import { assistant, bashCall, chain, longhaulDetails, type Raw, toolResult, user } from "../../../support/entries.js";
import { command, note, spanClosed, userCommand } from "../../../support/events.js";
import { leakedPiece, plantedKinds } from "../../../support/secrets.js";

const thinking = (secret: string, text: string): Raw => ({
	type: "message",
	message: {
		role: "assistant",
		content: [
			{ type: "thinking", thinking: secret },
			{ type: "text", text },
		],
		stopReason: "stop",
		timestamp: 0,
	},
});
const userRun = (command: string, output: string): Raw => ({
	type: "message",
	message: { role: "bashExecution", command, output, exitCode: 0, cancelled: false, timestamp: 0 },
});
/** A Longhaul compaction of span `span` keeping `kept`, carrying `events`. */
const compaction = (span: number, kept: string, events: readonly Event[]): Raw => {
	const close: Event = spanClosed(span);
	return {
		type: "compaction",
		summary: "state",
		firstKeptEntryId: kept,
		tokensBefore: 100,
		details: longhaulDetails(span, [...events, close], span * 100),
	};
};

/** A session: two turns compacted as span 1 (a bash call C1, a user run C2), the third kept, then a compaction. */
function session(extra: readonly Raw[] = [], extraEvents: readonly Event[] = []) {
	const raws = chain([
		user("start the dev server and tell me the port"),
		thinking("SECRET-REASONING", "Starting it."),
		bashCall("t1", "npm run dev"),
		toolResult("t1", "vite v5.0.0 ready\n  ➜  Local:   http://localhost:5173/\nwatching quokka files"),
		user("now list the migrations"),
		userRun("ls migrations", "001_init.sql\n002_add_wombats.sql"),
		assistant("There are two migrations."),
		user("thanks, keep going"),
		assistant("kept answer about platypus"),
		...extra,
	]);
	const kept = raws[7]?.id;
	const events = [command("C1", "npm run dev", 0, 1, "t1"), userCommand("C2", "ls migrations", 0), ...extraEvents];
	const all = [...raws, ...chain([compaction(1, String(kept), events)], "c", String(raws.at(-1)?.id))];
	return foldEntries([{ type: "session", version: 3, id: "s" }, ...all]);
}

/** A query over the passages, as the tool answers it: the index, the search, each hit redacted whole. */
const searchPassages = (query: string, passages: readonly Passage[]): Promise<string> =>
	searchIndex(query, indexPassages(passages), createRedactor(true));

describe("the compacted history", () => {
	it("is the branch before the newest compaction's kept boundary: messages, never thinking", () => {
		const text = compactedPassages(session())
			.map((p) => p.text)
			.join("\n");
		expect(text).toContain("localhost:5173");
		expect(text).toContain("There are two migrations.");
		expect(text).not.toContain("SECRET-REASONING");
		expect(text).not.toContain("platypus");
	});

	it("names a command's output by its C<n>, anything else by its span and the u<n> of its turn", () => {
		expect(compactedPassages(session()).map((p) => p.name)).toEqual([
			"u1 (span 1)",
			"span 1, u1, assistant",
			"C1 (span 1, u1)",
			"u2 (span 1)",
			"C2 (span 1, u2)",
			"span 1, u2, assistant",
		]);
	});

	it("is empty before any compaction", async () => {
		const folded = foldEntries([{ type: "session", version: 3, id: "s" }, ...chain([user("hello"), assistant("hi")])]);
		expect(compactedPassages(folded)).toEqual([]);
		expect(await searchPassages("hello", [])).toBe(
			"Nothing is compacted on this branch yet, so there is nothing to search.",
		);
	});
});

describe("longhaul_recall({ query })", () => {
	it("finds an output line by its words, named by its command's id, with the line itself", async () => {
		const found = await searchPassages("quokka watching", compactedPassages(session()));
		expect(found.split("\n")[1]).toBe("C1 (span 1, u1):");
		expect(found).toContain("  watching quokka files");
	});

	it("finds words of a user's own run, of the user and of the assistant, word prefixes too", async () => {
		const passages = compactedPassages(session());
		expect(await searchPassages("wombats", passages)).toContain("C2 (span 1, u2):\n  002_add_wombats.sql");
		expect(await searchPassages("migrat", passages)).toContain("u2 (span 1):\n  now list the migrations");
		expect(await searchPassages("SECRET-REASONING", passages)).toMatch(/^Nothing in the compacted history/);
		expect(await searchPassages("platypus", passages)).toMatch(/^Nothing in the compacted history/);
	});

	it("ranks the passage holding more of the words first, and returns at most MAX_RESULTS", async () => {
		const noise = Array.from({ length: 20 }, (_, i) => [user(`deploy note ${i}`), assistant(`ok ${i}`)]).flat();
		const raws = chain([...noise, user("deploy failed on staging region"), assistant("I see.")]);
		const keptAt = raws.at(-1)?.id;
		const folded = foldEntries([
			{ type: "session", version: 3, id: "s" },
			...raws,
			...chain([compaction(1, String(keptAt), [])], "c", String(keptAt)),
		]);
		const found = (await searchPassages("deploy staging region", compactedPassages(folded))).split("\n");
		expect(found[1]).toBe("u21 (span 1):");
		expect(found.filter((line) => !line.startsWith("  ")).length - 1).toBe(MAX_RESULTS);
	});

	it("prints nothing a terminal would run: controls in the output are escaped", async () => {
		const folded = session([bashCall("t9", "cat x"), toolResult("t9", "\u001b]0;owned\u0007 zebra")]);
		const raws = [...folded.branch.map((e) => e.raw)];
		const compactedAll = foldEntries([
			{ type: "session", version: 3, id: "s" },
			...raws,
			...chain([compaction(2, "nowhere", [])], "d", String(raws.at(-1)?.id)),
		]);
		const found = await searchPassages("zebra", compactedPassages(compactedAll));
		expect(found).toContain("zebra");
		expect(isTerminalSafe(found)).toBe(true);
	});
});

/** The session with `extra` compacted too, under a second compaction that keeps nothing. */
function compactedWith(extra: readonly Raw[]) {
	const raws = [...session(extra).branch.map((e) => e.raw)];
	return foldEntries([
		{ type: "session", version: 3, id: "s" },
		...raws,
		...chain([compaction(2, "nowhere", [])], "d", String(raws.at(-1)?.id)),
	]);
}

describe("longhaul_recall({ query }) reads as a reader sees", () => {
	it("finds a word coloured by escape codes with a plain query", async () => {
		const folded = compactedWith([bashCall("t9", "make"), toolResult("t9", "status: \u001b[31mRED\u001b[0m build")]);
		const found = await searchPassages("red", compactedPassages(folded));
		expect(found).toMatch(/^1 best/);
		expect(found).toContain("  status: RED build");
	});

	it("finds an emoji and a word of a script written without spaces", async () => {
		const folded = compactedWith([user("deploy went 🚀 today"), user("検索のテストを書いて")]);
		const passages = compactedPassages(folded);
		expect(await searchPassages("🚀", passages)).toContain("  deploy went 🚀 today");
		expect(await searchPassages("テスト", passages)).toContain("  検索のテストを書いて");
	});

	it("cuts a shown line from the passage redacted whole: no piece of a secret beside the match", async () => {
		await fc.assert(
			fc.asyncProperty(plantedKinds["github token"] ?? fc.constant(undefined), async (planted) => {
				if (planted === undefined) return;
				// The shown line is cut 160 characters after the match: the token's body straddles that cut.
				const line = `${"filler ".repeat(20)}zebra ${"x".repeat(134)} ${planted.text} ${"tail ".repeat(60)}`;
				const folded = compactedWith([bashCall("t9", "env"), toolResult("t9", line)]);
				const found = await searchPassages("zebra", compactedPassages(folded));
				expect(found).toContain("zebra xxx");
				expect(leakedPiece(found, planted)).toBeUndefined();
			}),
			{ numRuns: 20 },
		);
	});
});

describe("the kept search index", () => {
	/** The index a recall takes of these entries, counting the folds it needed. */
	const folds = { count: 0 };
	const indexOf = (raws: readonly Raw[]) => {
		const folded = foldEntries([{ type: "session", version: 3, id: "s" }, ...raws]);
		return compactedIndex(folded.branch, () => {
			folds.count++;
			return folded;
		});
	};
	/** A custom entry carrying one event, as `longhaul_remember` appends a note. */
	const eventEntry = (id: string, parentId: string, seq: number, event: Event): Raw => ({
		type: "custom",
		customType: "compaction-state.event",
		id,
		parentId,
		timestamp: "2026-01-01T00:00:00.000Z",
		data: { stateFormat: 1, seq, event },
	});

	it("is reused, unfolded, for the same compaction on the same branch; a note after it changes nothing", () => {
		const raws = session().branch.map((e) => e.raw);
		const first = indexOf(raws);
		const before = folds.count;
		expect(indexOf(raws)).toBe(first);
		const noted = eventEntry("n1", String(raws.at(-1)?.id), 500, note("port 5433"));
		expect(indexOf([...raws, noted])).toBe(first);
		expect(folds.count).toBe(before);
	});

	it("is built anew for another compaction, another copy of the entries, or an event after it that is not a note", () => {
		const raws = session().branch.map((e) => e.raw);
		const first = indexOf(raws);
		const other = compactedWith([user("one more turn")]).branch.map((e) => e.raw);
		expect(indexOf(other).passages.map((p) => p.text)).toContain("one more turn");
		expect(indexOf(raws)).not.toBe(first);
		const again = indexOf(raws);
		const renamed = eventEntry("x1", String(raws.at(-1)?.id), 500, command("C9", "npm run dev", 0, 1, "t1"));
		const rebuilt = indexOf([...raws, renamed]);
		expect(rebuilt).not.toBe(again);
		// The event gives t1 another id: a kept index would still name its output C1.
		expect(rebuilt.passages.map((p) => p.name)).toContain("C9 (span 1, u1)");
		expect(indexOf(raws.map((r) => ({ ...r })))).not.toBe(rebuilt);
	});
});

describe("longhaul_recall({ ref }) of a command", () => {
	it("returns what the command printed, read from the transcript's own entries", () => {
		const folded = session();
		expect(recall("C1", folded)).toContain("printed (");
		expect(recall("C1", folded)).toContain("http://localhost:5173/");
		expect(recall("C2", folded)).toContain("002_add_wombats.sql");
	});

	it("caps a long output to its head and tail, and escapes controls", () => {
		const long = `HEAD-LINE\n${"x".repeat(20_000)}\n\u009b2J TAIL-LINE`;
		const folded = session(
			[bashCall("t2", "npm test"), toolResult("t2", long)],
			[command("C3", "npm test", 0, 1, "t2")],
		);
		const out = recall("C3", folded);
		expect(out).toContain("HEAD-LINE");
		expect(out.endsWith("\\x9b2J TAIL-LINE")).toBe(true);
		expect(out).toMatch(/\n… \d+ characters left out …\n/);
		expect(out.length).toBeLessThanOrEqual(RECALL_CHARS);
		expect(out.split("characters left out …\n")[1]).toHaveLength(RECALL_TAIL_CHARS);
		expect(isTerminalSafe(out)).toBe(true);
	});
});

describe("compactedBy", () => {
	it("names each entry by the first compaction in branch order whose kept boundary is past it, as a search from the first did", () => {
		const spans = fc.array(
			fc.record({ boundary: fc.integer({ min: -1, max: 30 }), name: fc.string({ maxLength: 3 }) }),
			{ maxLength: 8 },
		);
		fc.assert(
			fc.property(spans, fc.nat({ max: 40 }), (ss, end) => {
				const want = Array.from({ length: end }, (_, i) => ss.find((c) => c.boundary > i)?.name ?? "compacted");
				expect(compactedBy(ss, end)).toEqual(want);
			}),
			params({ numRuns: 2000 }),
		);
	});
});

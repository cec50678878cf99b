import { describe, expect, it } from "vitest";
import { type PassRequest, runPass } from "../../../../src/adapters/pass/run-pass.js";
import type { Event } from "../../../../src/events/index.js";
import {
	derivedSpan,
	judgedUntil,
	keptBoundary,
	keptStart,
	newestCompaction,
	preparedSpan,
	recordedSpan,
	sliceSpan,
} from "../../../../src/pass/span/span.js";
import { foldEntries, initialState, type State } from "../../../../src/reducers/index.js";
import { assistant, chain, longhaulDetails, type Raw, toolResult, user } from "../../../support/entries.js";
import { ruleAdded, spanClosed } from "../../../support/events.js";
import { passCaps, passRequest } from "../../../support/passes.js";
import { scriptedModel } from "../../../support/scripted-model.js";

function compaction(id: string, parentId: string, firstKept: string, details?: unknown): Raw {
	return {
		type: "compaction",
		id,
		parentId,
		timestamp: "2026-01-01T00:00:00.000Z",
		summary: "earlier",
		firstKeptEntryId: firstKept,
		tokensBefore: 1,
		...(details === undefined ? {} : { details }),
	};
}

const closed = (span: number, kind: "whole" | "narrative-less", unlabeled: readonly string[]): Event =>
	spanClosed(span, kind, [...unlabeled], kind === "whole" ? null : "model-threw:Error");

/** u1 … u3 and answers, a compaction keeping from e5 (u3), then two more turns after it. */
const crossing = [
	...chain([user("one"), assistant("a1"), user("two"), assistant("a2"), user("three"), assistant("a3")]),
	compaction("c1", "e6", "e5", longhaulDetails(1, [closed(1, "whole", [])])),
	...chain([user("four"), assistant("a4"), user("five"), assistant("a5")], "f", "c1"),
];

const ids = (branch: readonly Raw[], at: readonly number[]) => at.map((i) => branch[i]?.id);

describe("derivedSpan (pi 0.73.1's rule)", () => {
	it("starts at the newest compaction's kept entry even when the new cut falls before that compaction", () => {
		const { branch } = foldEntries(crossing);
		expect(ids(crossing, derivedSpan(branch, "e6").at)).toEqual(["e5"]);
		expect(ids(crossing, derivedSpan(branch, "f3").at)).toEqual(["e5", "e6", "f1", "f2"]);
	});

	it("holds custom messages and branch summaries, never compactions or custom entries", () => {
		const raws = chain([
			user("hi"),
			{ type: "custom_message", customType: "x", content: "injected", display: true },
			{ type: "custom", customType: "y", data: {} },
			{ type: "branch_summary", fromId: "e1", summary: "elsewhere" },
			user("last"),
		]);
		const { branch } = foldEntries(raws);
		expect(ids(raws, derivedSpan(branch, "e5").at)).toEqual(["e1", "e2", "e4"]);
	});
});

describe("preparedSpan", () => {
	const stamped = chain([
		{ type: "message", message: { role: "user", content: "a", timestamp: 10 } },
		{ type: "message", message: { role: "assistant", content: [], timestamp: 20 } },
		{ type: "custom_message", customType: "x", content: "c", display: false },
		{ type: "message", message: { role: "user", content: "b", timestamp: 30 } },
	]);
	const { branch } = foldEntries(stamped);
	const customTime = Date.parse("2026-01-01T00:00:00.000Z");

	it("maps pi's messages to the entries they were made from, walking back from the kept entry", () => {
		const messages = [
			{ role: "assistant", timestamp: 20 },
			{ role: "custom", customType: "x", timestamp: customTime },
		];
		expect(preparedSpan(branch, "e4", messages)?.at).toEqual([1, 2]);
		expect(preparedSpan(branch, "e4", [])).toEqual({ at: [], end: 3 });
	});

	it("gives nothing when a message matches no entry or the kept entry is not on the branch", () => {
		expect(preparedSpan(branch, "e4", [{ role: "user", timestamp: 99 }])).toBeUndefined();
		expect(preparedSpan(branch, "nowhere", [])).toBeUndefined();
	});
});

describe("sliceSpan", () => {
	it("never offers a message Longhaul's last whole span judged, even when a foreign kept window reaches back to it", () => {
		const raws = [...crossing, compaction("p1", "f4", "e3"), ...chain([user("six"), assistant("a6")], "g", "p1")];
		const folded = foldEntries(raws);
		const slice = sliceSpan(folded, derivedSpan(folded.branch, "g1"), folded.state);
		expect(slice.ids).toEqual(["e3", "e4", "e5", "e6", "f1", "f2", "f3", "f4"]);
		expect(slice.users.map((u) => u.ref)).toEqual(["u3", "u4", "u5"]);
	});
});

/** A pass's request with pi's own messages of the span (`PassRequest.messages`). */
function request(branch: readonly Raw[], firstKeptEntryId: string, messages: readonly unknown[]): PassRequest {
	return { ...passRequest(branch, firstKeptEntryId), messages };
}

describe("runPass over pi's span", () => {
	it("an empty span closes whole with no model call, and the state carries over", async () => {
		const rule: Event = ruleAdded("never use tabs", "u1");
		const raws = [
			...chain([user("never use tabs"), assistant("ok")]),
			compaction("c1", "e2", "e2", longhaulDetails(1, [rule, closed(1, "whole", [])])),
			...chain([{ type: "custom", customType: "compaction-state.span", data: {} }], "f", "c1"),
		];
		const model = scriptedModel([]);
		const out = await runPass(request(raws, "e2", []), passCaps(model));
		expect(model.requests).toEqual([]);
		expect(out.kind).toBe("whole");
		expect(out.spanFrom).toBe("preparation");
		expect(out.spanRecord.bounds).toBeUndefined();
		const after = foldEntries([...raws, compaction("c2", "f1", "e2", out.details)]).state;
		expect(after.rules).toEqual(foldEntries(raws).state.rules);
		expect(after.workLog.at(-1)).toEqual({ span: 2, text: "(nothing new to summarize)" });
	});

	it("records the bounds of the span pi's preparation names", async () => {
		const raws = chain([user("never use tabs"), assistant("ok"), user("next")]);
		const messages = [raws[0], raws[1]].map((r) => r?.message);
		const answer = JSON.stringify({ labels: [{ msg: "u1", label: "rule" }], narrative: "n", now: "w" });
		const out = await runPass(request(raws, "e3", messages), passCaps(scriptedModel([answer])));
		expect(out.spanFrom).toBe("preparation");
		expect(out.spanRecord.bounds).toEqual({ first: "e1", last: "e2" });
		const unmapped = await runPass(
			request(raws, "e3", [{ role: "user", timestamp: 7 }]),
			passCaps(scriptedModel([answer])),
		);
		expect(unmapped.spanFrom).toBe("derived");
		expect(unmapped.spanRecord.bounds).toEqual({ first: "e1", last: "e2" });
	});
});

describe("newestCompaction and keptBoundary", () => {
	const { branch } = foldEntries(crossing);

	it("finds the newest compaction before the end, not at it", () => {
		expect(newestCompaction(branch, 6)).toBe(-1);
		expect(newestCompaction(branch, 7)).toBe(6);
		expect(newestCompaction(branch, branch.length)).toBe(6);
	});

	it("a compaction's kept entry before it is its boundary", () => {
		expect(keptBoundary(branch, 6)).toBe(4);
	});

	it("a kept entry after the compaction, the compaction itself, or none on the branch is not its boundary", () => {
		const after = foldEntries([
			...chain([user("one")]),
			compaction("c1", "e1", "f1"),
			...chain([user("two")], "f", "c1"),
		]);
		expect(keptBoundary(after.branch, 1)).toBe(2);
		const self = foldEntries([...chain([user("one")]), compaction("c1", "e1", "c1")]);
		expect(keptBoundary(self.branch, 1)).toBe(2);
		const missing = foldEntries([...chain([user("one")]), compaction("c1", "e1", "gone")]);
		expect(keptBoundary(missing.branch, 1)).toBe(2);
	});
});

describe("keptStart", () => {
	it("is the branch's start when there is no compaction", () => {
		expect(keptStart(foldEntries(chain([user("one"), assistant("a")])).branch)).toBe(0);
	});

	it("is the newest compaction's kept entry, or the entry after it when the kept entry is not on the branch", () => {
		expect(keptStart(foldEntries(crossing).branch)).toBe(4);
		const missing = foldEntries([
			...chain([user("one")]),
			compaction("c1", "e1", "gone"),
			...chain([user("two")], "f", "c1"),
		]);
		expect(keptStart(missing.branch)).toBe(2);
	});
});

describe("derivedSpan when the kept entry is not on the branch", () => {
	it("runs to the branch's end", () => {
		const { branch } = foldEntries(crossing);
		const span = derivedSpan(branch, "nowhere");
		expect(span.end).toBe(11);
		expect(ids(crossing, span.at)).toEqual(["e5", "e6", "f1", "f2", "f3", "f4"]);
	});
});

describe("preparedSpan's matching", () => {
	const stamped = chain([
		{ type: "message", message: { role: "user", content: "a", timestamp: 10 } },
		{ type: "message", message: { role: "assistant", content: [], timestamp: 20 } },
		{ type: "custom_message", customType: "x", content: "c", display: false },
		{ type: "message", message: { role: "user", content: "b", timestamp: 30 } },
		{ type: "branch_summary", fromId: "e1", summary: "s" },
		{ type: "message", message: { role: "user", content: "k", timestamp: 40 } },
	]);
	const { branch } = foldEntries(stamped);

	it("a message without a time is made from the newest entry before the kept entry with its role", () => {
		expect(preparedSpan(branch, "e4", [{ role: "user" }])?.at).toEqual([0]);
		expect(preparedSpan(branch, "e6", [{ role: "user" }])?.at).toEqual([3]);
		expect(preparedSpan(branch, "e6", [{ role: "branchSummary" }, { role: "user" }])).toBeUndefined();
		expect(preparedSpan(branch, "e6", [{ role: "custom" }, { role: "branchSummary" }])?.at).toEqual([2, 4]);
	});

	it("each entry makes one message: two messages need two entries", () => {
		expect(preparedSpan(branch, "e4", [{ role: "user" }, { role: "user" }])).toBeUndefined();
		expect(preparedSpan(branch, "e6", [{ role: "user" }, { role: "user" }])?.at).toEqual([0, 3]);
	});

	it("a message of another time, or with no role, matches no entry", () => {
		expect(preparedSpan(branch, "e4", [{ role: "assistant", timestamp: 21 }])).toBeUndefined();
		expect(preparedSpan(branch, "e4", [{ role: "custom", timestamp: 5 }])).toBeUndefined();
		expect(preparedSpan(branch, "e6", [{ role: "branchSummary", timestamp: 5 }])).toBeUndefined();
		expect(preparedSpan(branch, "e4", [{ content: "a", timestamp: 10 }])).toBeUndefined();
		expect(preparedSpan(branch, "e4", [{ role: "user", timestamp: 10 }])).toEqual({ at: [0], end: 3 });
	});
});

describe("recordedSpan", () => {
	const raws = chain([user("one"), { type: "custom", customType: "y", data: {} }, assistant("a"), user("two")]);
	const { branch } = foldEntries(raws);

	it("holds the summarized entries from the first bound to the last, both included", () => {
		expect(recordedSpan(branch, { first: "e1", last: "e3" }, 3)).toEqual({ at: [0, 2], end: 3 });
		expect(recordedSpan(branch, { first: "e3", last: "e3" }, 4)).toEqual({ at: [2], end: 4 });
	});

	it("gives nothing for a bound not on the branch, a last bound before the first, or one at the kept entry", () => {
		expect(recordedSpan(branch, { first: "gone", last: "e3" }, 4)).toBeUndefined();
		expect(recordedSpan(branch, { first: "e1", last: "gone" }, 4)).toBeUndefined();
		expect(recordedSpan(branch, { first: "e3", last: "e1" }, 4)).toBeUndefined();
		expect(recordedSpan(branch, { first: "e1", last: "e3" }, 2)).toBeUndefined();
	});
});

describe("judgedUntil", () => {
	const { branch } = foldEntries(crossing);
	const at = (entry: string, kind: "whole" | "narrative-less") => ({ entry, seq: 1, event: closed(1, kind, []) });

	it("is the kept boundary of the compaction that closed the last whole span", () => {
		expect(judgedUntil({ branch, events: [at("c1", "whole")] })).toBe(4);
	});

	it("is the entry after a whole close held by an entry that is no compaction", () => {
		expect(judgedUntil({ branch, events: [at("e2", "whole")] })).toBe(2);
	});

	it("is the branch's start with no whole close, or when the close is not on the branch", () => {
		expect(judgedUntil({ branch, events: [at("c1", "narrative-less")] })).toBe(0);
		expect(judgedUntil({ branch, events: [at("gone", "whole")] })).toBe(0);
		expect(judgedUntil({ branch, events: [] })).toBe(0);
	});

	it("the newest whole close counts, not a later narrative-less one", () => {
		expect(judgedUntil({ branch, events: [at("e2", "whole"), at("c1", "whole"), at("f2", "narrative-less")] })).toBe(4);
	});
});

describe("sliceSpan's carried messages", () => {
	const close = (kind: "whole" | "narrative-less" | "partial", unlabeled: readonly string[]) => ({
		span: 1,
		kind,
		unlabeled,
		reason: null,
	});
	const withCloses = (closes: State["closes"]): State => ({ ...initialState, closes });
	const many = foldEntries(chain(Array.from({ length: 35 }, (_, i) => user(`m${i + 1}`))));
	const refs = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `u${from + i}`);
	const carried = (folded: typeof many, span: { at: number[]; end: number }, closes: State["closes"]) =>
		sliceSpan(folded, span, withCloses(closes)).carried.map((u) => u.ref);

	it("carries the newest 30 messages, oldest first", () => {
		expect(carried(many, { at: [], end: 35 }, [close("narrative-less", refs(35))])).toEqual(refs(30, 6));
	});

	it("a message left unlabeled twice counts once toward the 30", () => {
		const closes = [close("narrative-less", refs(30)), close("partial", ["u1", "u31"])];
		expect(carried(many, { at: [], end: 35 }, closes)).toEqual(refs(30, 2));
	});

	it("a whole close stops the walk back: what it left unlabeled is carried once more, what came before is not", () => {
		const closes = [close("narrative-less", ["u1"]), close("whole", ["u2"]), close("partial", ["u3"])];
		expect(carried(many, { at: [], end: 35 }, closes)).toEqual(["u2", "u3"]);
	});

	it("a message in the span is offered there, not carried", () => {
		expect(carried(many, { at: [2], end: 3 }, [close("partial", ["u2", "u3"])])).toEqual(["u2"]);
	});
});

describe("sliceSpan's turns, bounds and numbering", () => {
	const raws = chain([
		assistant("before any user"),
		user("one"),
		assistant("a1"),
		toolResult("t1", "out"),
		{ type: "message", message: { role: "bashExecution", command: "ls", output: "files", exitCode: 0, timestamp: 0 } },
		{ type: "custom", customType: "y", data: {} },
		user("two"),
	]);
	const folded = foldEntries(raws);

	it("a turn's text is the user's message, the answers, the tool results and the runs until the next", () => {
		const slice = sliceSpan(folded, derivedSpan(folded.branch, "e7"), folded.state);
		expect(slice.turnText("u1")).toBe("one\na1\nout\nls\nfiles");
		expect(slice.turnText("u2")).toBe("two");
		expect(slice.turnText("u3")).toBeUndefined();
	});

	it("a turn ends at the next user message, whatever follows that one", () => {
		const turns = foldEntries(chain([user("one"), assistant("a1"), user("two"), assistant("a2"), user("three")]));
		const slice = sliceSpan(turns, derivedSpan(turns.branch, "e5"), turns.state);
		expect(slice.turnText("u1")).toBe("one\na1");
		expect(slice.turnText("u2")).toBe("two\na2");
	});

	it("numbers the span after the state's last and reads its messages, ids and users", () => {
		const slice = sliceSpan(folded, derivedSpan(folded.branch, "e7"), { ...initialState, spans: 4 });
		expect(slice.span).toBe(5);
		expect(slice.end).toBe(6);
		expect(slice.ids).toEqual(["e1", "e2", "e3", "e4", "e5"]);
		expect(slice.messages.map((m) => m.role)).toEqual([
			"assistant",
			"user",
			"assistant",
			"toolResult",
			"bashExecution",
		]);
		expect(slice.users.map((u) => u.ref)).toEqual(["u1"]);
		expect(slice.branchUsers.map((u) => u.entryId)).toEqual(["e2", "e7"]);
		expect([...slice.entryIds]).toEqual(["e1", "e2", "e3", "e4", "e5", "e6"]);
	});

	it("starts at the kept boundary, or at the span's first entry or its end when those come first", () => {
		const cross = foldEntries(crossing);
		expect(sliceSpan(cross, { at: [7, 8], end: 9 }, cross.state).start).toBe(4);
		expect(sliceSpan(cross, { at: [2, 3], end: 4 }, cross.state).start).toBe(2);
		expect(sliceSpan(cross, { at: [], end: 3 }, cross.state).start).toBe(3);
		const late = sliceSpan(cross, { at: [], end: 9 }, cross.state);
		expect(late.start).toBe(4);
		expect([...late.entryIds]).toEqual(["e5", "e6", "c1", "f1", "f2"]);
	});
});

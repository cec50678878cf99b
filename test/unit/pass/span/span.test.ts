import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../../../src/adapters/config.js";
import { type PassRequest, runPass } from "../../../../src/adapters/pass/run-pass.js";
import type { Event } from "../../../../src/events/index.js";
import { derivedSpan, preparedSpan, sliceSpan } from "../../../../src/pass/span/span.js";
import { foldEntries } from "../../../../src/reducers/index.js";
import { assistant, chain, type Raw, user } from "../../../support/entries.js";
import { passCaps } from "../../../support/passes.js";
import { scriptedModel } from "../../../support/scripted-model.js";

const settings = { ...DEFAULT_CONFIG, narrativeMode: "single" as const };

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

const closed = (span: number, kind: "whole" | "narrative-less", unlabeled: readonly string[]): Event => ({
	type: "span-closed",
	data: { span, kind, unlabeled: [...unlabeled], reason: kind === "whole" ? null : "model-threw:Error" },
});

function longhauls(span: number, events: readonly Event[]) {
	return { stateFormat: 1, longhaul: true, span, events: events.map((event, i) => ({ seq: i + 1, event })) };
}

/** u1 … u3 and answers, a compaction keeping from e5 (u3), then two more turns after it. */
const crossing = [
	...chain([user("one"), assistant("a1"), user("two"), assistant("a2"), user("three"), assistant("a3")]),
	compaction("c1", "e6", "e5", longhauls(1, [closed(1, "whole", [])])),
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

function request(branch: readonly Raw[], firstKeptEntryId: string, messages?: readonly unknown[]): PassRequest {
	return {
		branch,
		firstKeptEntryId,
		...(messages === undefined ? {} : { messages }),
		cwd: "/nowhere",
		signal: new AbortController().signal,
		settings,
	};
}

describe("runPass over pi's span", () => {
	it("an empty span closes whole with no model call, and the state carries over", async () => {
		const rule: Event = { type: "rule-added", data: { words: "never use tabs", source: "u1" } };
		const raws = [
			...chain([user("never use tabs"), assistant("ok")]),
			compaction("c1", "e2", "e2", longhauls(1, [rule, closed(1, "whole", [])])),
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

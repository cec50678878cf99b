import { describe, expect, it } from "vitest";
import type { Event, Message, UserMessage } from "../../../../src/events/index.js";
import { chunkCount, chunksOf, ledgerIds } from "../../../../src/pass/span/chunks.js";
import type { SpanSlice } from "../../../../src/pass/span/span.js";
import { evolve, initialState } from "../../../../src/reducers/index.js";
import { command, errorRecorded, ruleAdded } from "../../../support/events.js";
import { assistant, user } from "../../../support/messages.js";

/** A slice of `roles` (u = user, a = assistant), its user messages numbered u1, u2, … in order. */
function sliceOf(roles: string): SpanSlice {
	const messages: Message[] = [];
	const users: UserMessage[] = [];
	for (const [i, role] of [...roles].entries()) {
		if (role === "u") {
			messages.push(user(`m${i}`));
			users.push({ ref: `u${users.length + 1}`, entryId: `e${i}`, text: `m${i}` });
		} else messages.push(assistant(`m${i}`));
	}
	return {
		span: 1,
		start: 0,
		end: messages.length,
		ids: messages.map((_, i) => `e${i}`),
		messages,
		users,
		carried: [],
		branchUsers: users,
		entryIds: new Set(),
		turnText: () => undefined,
	};
}

const texts = (messages: readonly Message[]) => messages.map((m) => (m.role === "bashExecution" ? "" : m.text));

describe("chunkCount", () => {
	// A window of 10,192 tokens leaves 2,000 tokens after the 8,192 held back: 8,000 characters a chunk.
	it("a prompt that fills the window less the 8,192 tokens held back exactly is one chunk; one character more is two", () => {
		expect(chunkCount(8_000, 10_192, 5)).toBe(1);
		expect(chunkCount(8_001, 10_192, 5)).toBe(2);
		expect(chunkCount(16_000, 10_192, 5)).toBe(2);
		expect(chunkCount(16_001, 10_192, 5)).toBe(3);
	});

	it("an empty prompt is one chunk", () => {
		expect(chunkCount(0, 10_192, 5)).toBe(1);
	});

	it("never cuts into more than the most chunks allowed", () => {
		expect(chunkCount(80_000, 10_192, 4)).toBe(4);
		expect(chunkCount(24_000, 10_192, 3)).toBe(3);
	});

	it("a window no larger than what is held back still gives each chunk 4 characters", () => {
		expect(chunkCount(4, 8_192, 10)).toBe(1);
		expect(chunkCount(5, 8_192, 10)).toBe(2);
		expect(chunkCount(9, 1_000, 10)).toBe(3);
	});
});

describe("chunksOf", () => {
	it("a span of one message cut into three chunks is one chunk", () => {
		const chunks = chunksOf(sliceOf("u"), 3);
		expect(chunks.length).toBe(1);
		expect(texts(chunks[0]?.messages ?? [])).toEqual(["m0"]);
		expect(chunks[0]?.users.map((u) => u.ref)).toEqual(["u1"]);
	});

	it("a span with no messages is one empty chunk", () => {
		expect(chunksOf(sliceOf(""), 2)).toEqual([{ messages: [], users: [] }]);
	});

	it("cuts five messages into two runs of three and two, each user message with the run that holds it", () => {
		const chunks = chunksOf(sliceOf("uauau"), 2);
		expect(chunks.map((c) => texts(c.messages))).toEqual([
			["m0", "m1", "m2"],
			["m3", "m4"],
		]);
		expect(chunks.map((c) => c.users.map((u) => u.ref))).toEqual([["u1", "u2"], ["u3"]]);
	});

	it("a run with no user message holds none, and the next run's users follow on", () => {
		const chunks = chunksOf(sliceOf("uaaaau"), 3);
		expect(chunks.map((c) => texts(c.messages))).toEqual([
			["m0", "m1"],
			["m2", "m3"],
			["m4", "m5"],
		]);
		expect(chunks.map((c) => c.users.map((u) => u.ref))).toEqual([["u1"], [], ["u2"]]);
	});

	it("one chunk holds every message and every user message", () => {
		const chunks = chunksOf(sliceOf("uau"), 1);
		expect(chunks.length).toBe(1);
		expect(texts(chunks[0]?.messages ?? [])).toEqual(["m0", "m1", "m2"]);
		expect(chunks[0]?.users.map((u) => u.ref)).toEqual(["u1", "u2"]);
	});
});

describe("ledgerIds", () => {
	const ran = (id: string): Event => command(id, "npm test", 1, 1, null);
	const error = (id: string): Event => errorRecorded(id, "failed");

	it("holds the state's commands and errors and the span ledger's, and nothing else the ledger holds", () => {
		const state = evolve(
			initialState,
			[ran("C1"), error("E1")].map((event) => ({ seq: null, event })),
		);
		const ledger: Event[] = [ran("C2"), error("E2"), ruleAdded("never use tabs", "u1")];
		expect([...ledgerIds(state, ledger)].sort()).toEqual(["C1", "C2", "E1", "E2"]);
	});

	it("an empty state and ledger give no ids", () => {
		expect(ledgerIds(initialState, []).size).toBe(0);
	});
});

import { describe, expect, it } from "vitest";
import { MAX_NOTE_CHARS, noteRefusal, rememberedNote } from "../../../../src/pass/decide/index.js";
import { initialState } from "../../../../src/reducers/index.js";
import { applied } from "../../../support/applied.js";
import { decision, note, ruleAdded } from "../../../support/events.js";

// The note `longhaul_remember` stores: refused whole or kept whole, and stored with the id the fold gives it.

describe("noteRefusal", () => {
	it("refuses an empty note", () => {
		expect(noteRefusal("")).toBe("Nothing remembered: the note is empty.");
	});

	it("keeps a note of exactly the limit, counted as a reader counts (an emoji is one), and refuses one more", () => {
		expect(noteRefusal("🙂".repeat(MAX_NOTE_CHARS))).toBeUndefined();
		expect(noteRefusal("x".repeat(MAX_NOTE_CHARS))).toBeUndefined();
		expect(noteRefusal("🙂".repeat(MAX_NOTE_CHARS + 1))).toBe(
			"Nothing remembered: the note has 1001 characters, over 1000.",
		);
	});
});

describe("rememberedNote", () => {
	it("gives the first note N1 and keeps its text", () => {
		expect(rememberedNote(initialState, "the port is 8080")).toEqual(note("the port is 8080", "N1"));
	});

	it("gives the id after the state's notes, and the state's other lists change nothing", () => {
		const state = applied(initialState, [
			note("one"),
			note("two"),
			ruleAdded("never push to main", "u1"),
			decision("use pnpm"),
		]);
		const event = rememberedNote(state, "three");
		expect(event.data).toEqual({ id: "N3", text: "three" });
		expect(applied(state, [event]).notes.map((n) => [n.id, n.text])).toEqual([
			["N1", "one"],
			["N2", "two"],
			["N3", "three"],
		]);
	});

	it("gives the id the fold gives after a stored note whose id ran ahead of the count", () => {
		const state = applied(initialState, [note("seven", "N7")]);
		const event = rememberedNote(state, "next");
		expect(applied(state, [event]).notes.at(-1)).toEqual({ id: event.data.id, text: "next" });
		expect(event.data.id).toBe("N8");
	});
});

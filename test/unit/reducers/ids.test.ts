import { describe, expect, it } from "vitest";
import { decodeEvent } from "../../../src/events/index.js";
import { foldTranscript, initialState, type State } from "../../../src/reducers/index.js";
import { applied } from "../../support/applied.js";
import { deadEnd, decision, note, ruleAdded as rule, ruleLifted } from "../../support/events.js";
import { place, transcriptText } from "../../support/transcript.js";

describe("ids decided with the events (docs/contracts.md, Stored sessions and ids)", () => {
	it("an event stored without an id gets the counter's number in fold order, as before ids were carried", () => {
		const state = applied(initialState, [
			rule("never push", "u1"),
			note("a"),
			decision("d"),
			rule("run the tests", "u2"),
			deadEnd("x"),
			note("b"),
		]);
		expect(state.rules.map((r) => r.id)).toEqual(["R1", "R2"]);
		expect(state.notes.map((n) => n.id)).toEqual(["N1", "N2"]);
		expect([state.decisions[0]?.id, state.deadEnds[0]?.id]).toEqual(["D1", "X1"]);
		expect(state.next).toEqual({ R: 3, D: 2, X: 2, N: 3 });
	});

	it("an event with an id keeps it, and the counter moves past it", () => {
		const state = applied(initialState, [
			rule("never push", "u1", "R4"),
			decision("d", [], "D7"),
			deadEnd("x", [], "X2"),
			note("a", "N3"),
			note("b"),
			rule("run the tests", "u2"),
		]);
		expect(state.rules.map((r) => r.id)).toEqual(["R4", "R5"]);
		expect([state.decisions[0]?.id, state.deadEnds[0]?.id]).toEqual(["D7", "X2"]);
		expect(state.notes.map((n) => n.id)).toEqual(["N3", "N4"]);
		expect(state.next).toEqual({ R: 6, D: 8, X: 3, N: 5 });
	});

	it("a free id below the counter is kept: a gap is not a reuse", () => {
		const state = applied(initialState, [note("a", "N5"), note("b", "N2"), note("c")]);
		expect(state.notes.map((n) => n.id)).toEqual(["N5", "N2", "N6"]);
	});

	it("of two events with the same id, the first in fold order keeps it and the later one takes the next number", () => {
		const racing = [note("the CI runs on Node 20", "N3"), note("ask before deleting", "N3")];
		const once = applied(initialState, racing);
		expect(once.notes).toEqual([
			{ id: "N3", text: "the CI runs on Node 20" },
			{ id: "N4", text: "ask before deleting" },
		]);
		const onebyone = racing.reduce<State>((s, event) => applied(s, [event]), initialState);
		expect(onebyone).toEqual(once);
	});

	it("two racing longhaul_remember entries carrying N1 resolve the same way on every fold, whatever the key order", () => {
		const text = transcriptText(
			place([
				{ kind: "event-entry", event: note("first", "N1") },
				{ kind: "event-entry", event: note("second", "N1") },
			]),
		);
		const reordered = text
			.split("\n")
			.map((line) =>
				line === "" ? line : JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(line)).reverse())),
			)
			.join("\n");
		const notes = [text, text, reordered].map((t) => foldTranscript(t).state.notes);
		for (const got of notes)
			expect(got).toEqual([
				{ id: "N1", text: "first" },
				{ id: "N2", text: "second" },
			]);
	});

	it("a lifted rule's id is never given again, not even to a rule that carries it", () => {
		const state = applied(initialState, [
			rule("never push", "u1"),
			ruleLifted("R1", "u2"),
			rule("always rebase", "u3", "R1"),
			rule("keep the API", "u4"),
		]);
		expect(state.lifted.map((r) => r.id)).toEqual(["R1"]);
		expect(state.rules.map((r) => [r.id, r.text])).toEqual([
			["R2", "always rebase"],
			["R3", "keep the API"],
		]);
	});

	it("a repeated rule is not added, but the counter still moves past the id it carries", () => {
		const state = applied(initialState, [
			rule("never push", "u1"),
			rule("never push", "u1", "R8"),
			rule("keep the API", "u4"),
		]);
		expect(state.rules.map((r) => r.id)).toEqual(["R1", "R9"]);
	});

	it("the codec reads an event with and without its id, and refuses an id of another kind", () => {
		expect(decodeEvent(note("a"))).toEqual({
			_tag: "Right",
			right: note("a"),
		});
		expect(decodeEvent(note("a", "N2"))).toEqual({
			_tag: "Right",
			right: note("a", "N2"),
		});
		for (const [type, id] of [
			["note-remembered", "R2"],
			["rule-added", "N1"],
			["decision-made", "X1"],
			["dead-end-found", "D1"],
			["decision-made", "D0"],
		] as const)
			expect(decodeEvent({ type, data: { text: "a", words: "a", source: "u1", evidence: [], id } })._tag).toBe("Left");
	});
});

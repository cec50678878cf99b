import { describe, expect, it } from "vitest";
import { initialState } from "../../../src/reducers/index.js";
import { applied } from "../../support/applied.js";
import * as ev from "../../support/events.js";
import { given } from "./given.js";

// Given these events, when this one, then this state: one block per event kind, through `evolve` only.

describe("rule-added", () => {
	it("adds the user's words verbatim as R1, from the message that gave them", () => {
		const state = given().when(ev.ruleAdded("never push to main", "u3"));
		expect(state.rules).toEqual([{ id: "R1", text: "never push to main", source: "u3" }]);
		expect(state.next.R).toBe(2);
	});

	it("numbers rules R1, R2, … in fold order", () => {
		const state = given(ev.ruleAdded("a", "u1"), ev.ruleAdded("b", "u2")).when(ev.ruleAdded("c", "u2"));
		expect(state.rules.map((r) => [r.id, r.text])).toEqual([
			["R1", "a"],
			["R2", "b"],
			["R3", "c"],
		]);
	});

	it("the same words from the same message, again in the same batch, are one rule and use no id", () => {
		const state = given().when(
			ev.ruleAdded("never push", "u1"),
			ev.ruleAdded("never push", "u1"),
			ev.ruleAdded("b", "u2"),
		);
		expect(state.rules.map((r) => [r.id, r.text])).toEqual([
			["R1", "never push"],
			["R2", "b"],
		]);
		expect(state.next.R).toBe(3);
	});

	it("the same words from the same message in a later batch (a second pass re-reading it) are still one rule", () => {
		const state = given(ev.ruleAdded("never push", "u1")).when(
			ev.ruleAdded("never push", "u1"),
			ev.ruleAdded("b", "u2"),
		);
		expect(state.rules).toEqual([
			{ id: "R1", text: "never push", source: "u1" },
			{ id: "R2", text: "b", source: "u2" },
		]);
	});

	it("the same words from another message, or other words from the same message, are rules of their own", () => {
		const state = given(ev.ruleAdded("never push", "u1")).when(
			ev.ruleAdded("never push", "u2"),
			ev.ruleAdded("always lint", "u1"),
		);
		expect(state.rules.map((r) => [r.id, r.text, r.source])).toEqual([
			["R1", "never push", "u1"],
			["R2", "never push", "u2"],
			["R3", "always lint", "u1"],
		]);
	});

	it("words and source are told apart however they are split: no two pairs share a key", () => {
		const state = given(ev.ruleAdded("u1", "u2")).when(ev.ruleAdded("u2", "u1"));
		expect(state.rules.map((r) => r.id)).toEqual(["R1", "R2"]);
	});

	// Issue 12 names this change: a pass that offered a judged message again stored its rule again after a lift.
	it("a lifted rule added again by the same message with the same words stays lifted", () => {
		const state = given(ev.ruleAdded("never push", "u1"), ev.ruleLifted("R1", "u2")).when(
			ev.ruleAdded("never push", "u1"),
		);
		expect(state.rules).toEqual([]);
		expect(state.lifted).toEqual([{ id: "R1", text: "never push", source: "u1", by: "u2" }]);
	});

	it("a lift and the same words from the same message again within one batch: the rule stays lifted", () => {
		const state = given().when(
			ev.ruleAdded("never push", "u1"),
			ev.ruleLifted("u1", "u2"),
			ev.ruleAdded("never push", "u1"),
		);
		expect(state.rules).toEqual([]);
		expect(state.lifted.map((r) => r.id)).toEqual(["R1"]);
	});

	it("the words of a lifted rule given again by a later message are a new rule with a new id", () => {
		const state = given(ev.ruleAdded("never push", "u1"), ev.ruleLifted("R1", "u2")).when(
			ev.ruleAdded("never push", "u3"),
		);
		expect(state.rules).toEqual([{ id: "R2", text: "never push", source: "u3" }]);
		expect(state.lifted.map((r) => r.id)).toEqual(["R1"]);
	});

	it("empty words are kept as the user gave them (the reducer records, it does not judge)", () => {
		expect(given().when(ev.ruleAdded("", "u1")).rules).toEqual([{ id: "R1", text: "", source: "u1" }]);
	});
});

describe("rule-lifted", () => {
	it("by id: the rule leaves the rules in force and joins the lifted, with the message that lifted it", () => {
		const state = given(ev.ruleAdded("a", "u1"), ev.ruleAdded("b", "u2"), ev.ruleAdded("c", "u3")).when(
			ev.ruleLifted("R2", "u4"),
		);
		expect(state.rules.map((r) => r.id)).toEqual(["R1", "R3"]);
		expect(state.lifted).toEqual([{ id: "R2", text: "b", source: "u2", by: "u4" }]);
		expect(state.anomalies).toEqual([]);
	});

	it("by source: the newest rule in force from that message is lifted, the older ones stay", () => {
		const state = given(ev.ruleAdded("a", "u1"), ev.ruleAdded("b", "u2"), ev.ruleAdded("c", "u1")).when(
			ev.ruleLifted("u1", "u5"),
		);
		expect(state.rules.map((r) => [r.id, r.text])).toEqual([
			["R1", "a"],
			["R2", "b"],
		]);
		expect(state.lifted).toEqual([{ id: "R3", text: "c", source: "u1", by: "u5" }]);
	});

	it("by source twice: the newest first, then the one before it", () => {
		const state = given(ev.ruleAdded("a", "u1"), ev.ruleAdded("b", "u1"), ev.ruleAdded("c", "u2")).when(
			ev.ruleLifted("u1", "u3"),
			ev.ruleLifted("u1", "u4"),
		);
		expect(state.rules.map((r) => r.id)).toEqual(["R3"]);
		expect(state.lifted.map((r) => [r.id, r.by])).toEqual([
			["R2", "u3"],
			["R1", "u4"],
		]);
	});

	it("a source that matches the oldest rule only lifts that one", () => {
		const state = given(ev.ruleAdded("a", "u1"), ev.ruleAdded("b", "u2")).when(ev.ruleLifted("u1", "u3"));
		expect(state.rules.map((r) => r.id)).toEqual(["R2"]);
		expect(state.lifted.map((r) => r.id)).toEqual(["R1"]);
	});

	it("in the same batch as the rule it lifts", () => {
		const state = given().when(ev.ruleAdded("a", "u1"), ev.ruleLifted("R1", "u2"));
		expect(state.rules).toEqual([]);
		expect(state.lifted).toEqual([{ id: "R1", text: "a", source: "u1", by: "u2" }]);
	});

	it("of an id no rule has: an anomaly on the lifting message, and the rules stay as they were", () => {
		const before = given(ev.ruleAdded("a", "u1"));
		const state = before.when(ev.ruleLifted("R7", "u4"));
		expect(state.rules).toEqual(before.state.rules);
		expect(state.lifted).toEqual([]);
		expect(state.anomalies).toEqual([{ entry: "u4", reason: "lift of R7, which is not a rule in force" }]);
	});

	it("of a message that gave no rule: an anomaly naming the message", () => {
		const state = given(ev.ruleAdded("a", "u1")).when(ev.ruleLifted("u2", "u3"));
		expect(state.rules.map((r) => r.id)).toEqual(["R1"]);
		expect(state.anomalies).toEqual([{ entry: "u3", reason: "lift of u2, which is not a rule in force" }]);
	});

	it("of a rule already lifted: an anomaly, and the first lift stands", () => {
		const state = given(ev.ruleAdded("a", "u1"), ev.ruleLifted("R1", "u2")).when(ev.ruleLifted("R1", "u3"));
		expect(state.lifted).toEqual([{ id: "R1", text: "a", source: "u1", by: "u2" }]);
		expect(state.anomalies).toEqual([{ entry: "u3", reason: "lift of R1, which is not a rule in force" }]);
	});

	it("on an empty state: an anomaly, nothing else", () => {
		const state = given().when(ev.ruleLifted("R1", "u1"));
		expect(state.rules).toEqual([]);
		expect(state.lifted).toEqual([]);
		expect(state.anomalies).toHaveLength(1);
	});

	it("the id of a lifted rule is never given again", () => {
		const state = given(ev.ruleAdded("a", "u1"), ev.ruleLifted("R1", "u2")).when(ev.ruleAdded("b", "u3"));
		expect(state.rules.map((r) => r.id)).toEqual(["R2"]);
	});
});

describe("decision-made and dead-end-found", () => {
	it("a decision is D1 with its evidence", () => {
		const state = given().when(ev.decision("use zod", ["C1", "E2"]));
		expect(state.decisions).toEqual([{ id: "D1", text: "use zod", evidence: ["C1", "E2"] }]);
		expect(state.next.D).toBe(2);
	});

	it("a dead end is X1 with its evidence", () => {
		const state = given().when(ev.deadEnd("pinning node 18", ["E1"]));
		expect(state.deadEnds).toEqual([{ id: "X1", text: "pinning node 18", evidence: ["E1"] }]);
		expect(state.next.X).toBe(2);
	});

	it("ids run on across batches, in fold order, and the same text twice is two findings", () => {
		const state = given(ev.decision("a"), ev.deadEnd("x")).when(ev.decision("a"), ev.deadEnd("x"), ev.decision("b"));
		expect(state.decisions.map((d) => [d.id, d.text])).toEqual([
			["D1", "a"],
			["D2", "a"],
			["D3", "b"],
		]);
		expect(state.deadEnds.map((d) => d.id)).toEqual(["X1", "X2"]);
	});

	it("each kind counts on its own: a note or a rule takes no D or X number", () => {
		const state = given(ev.note("n"), ev.ruleAdded("r", "u1"), ev.deadEnd("x")).when(ev.decision("d"));
		expect(state.decisions.map((d) => d.id)).toEqual(["D1"]);
		expect(state.deadEnds.map((d) => d.id)).toEqual(["X1"]);
		expect(state.next).toEqual({ R: 2, D: 2, X: 2, N: 2 });
	});
});

describe("note-remembered", () => {
	it("a note is N1; the next is N2, in fold order across batches", () => {
		const state = given(ev.note("the flaky test is net.test.ts")).when(ev.note("port 5433"));
		expect(state.notes).toEqual([
			{ id: "N1", text: "the flaky test is net.test.ts" },
			{ id: "N2", text: "port 5433" },
		]);
		expect(state.next.N).toBe(3);
	});

	it("the same note twice is kept twice, under two ids", () => {
		expect(
			given(ev.note("x"))
				.when(ev.note("x"))
				.notes.map((n) => n.id),
		).toEqual(["N1", "N2"]);
	});
});

describe("value-recorded", () => {
	it("a value is kept with its name and the turn or command that holds it", () => {
		const state = given().when(ev.value("port", "5433", "C2"));
		expect(state.values).toEqual([{ name: "port", value: "5433", source: "C2" }]);
	});

	it("the same name, value and source again (same batch or later) is one value", () => {
		const state = given(ev.value("port", "5433", "C2")).when(
			ev.value("port", "5433", "C2"),
			ev.value("port", "5433", "C2"),
		);
		expect(state.values).toHaveLength(1);
	});

	it("a new value for the same name, or the same value from another source, is kept beside the old, in order", () => {
		const state = given(ev.value("port", "5433", "C2")).when(
			ev.value("port", "5434", "C3"),
			ev.value("port", "5433", "u4"),
		);
		expect(state.values).toEqual([
			{ name: "port", value: "5433", source: "C2" },
			{ name: "port", value: "5434", source: "C3" },
			{ name: "port", value: "5433", source: "u4" },
		]);
	});

	it("name, value and source are told apart however they are split", () => {
		const state = given(ev.value("a", "b", "u1")).when(
			ev.value("b", "a", "u1"),
			ev.value("a", "", "u1"),
			ev.value("", "a", "u1"),
		);
		expect(state.values).toHaveLength(4);
	});
});

describe("objective-set and now-set", () => {
	it("the objective is the last one set", () => {
		expect(initialState.objective).toBeNull();
		expect(given(ev.objective("ship v1")).when(ev.objective("ship v2")).objective).toBe("ship v2");
	});

	it("now is the last one set", () => {
		expect(initialState.now).toBeNull();
		expect(given(ev.nowSet("run tests")).when(ev.nowSet("fix lint")).now).toBe("fix lint");
	});

	it("setting one leaves the other alone", () => {
		const state = given(ev.objective("ship v1")).when(ev.nowSet("fix lint"));
		expect(state.objective).toBe("ship v1");
		expect(given(ev.nowSet("fix lint")).when(ev.objective("o")).now).toBe("fix lint");
	});
});

describe("narrative-line", () => {
	it("each span's line is appended to the work log in fold order, repeats included", () => {
		const state = given(ev.narrative(1, "set up")).when(ev.narrative(2, "tests"), ev.narrative(2, "tests"));
		expect(state.workLog).toEqual([
			{ span: 1, text: "set up" },
			{ span: 2, text: "tests" },
			{ span: 2, text: "tests" },
		]);
	});
});

describe("command-recorded", () => {
	it("a command is kept with every field the ledger shows", () => {
		const state = given().when(ev.command("C1", "npm test", 1, 2));
		expect(state.commands).toEqual([
			{ id: "C1", command: "npm test", exitCode: 1, span: 2, toolCallId: "call-C1", by: "tool" },
		]);
	});

	it("a user's own run with no exit code is kept as such", () => {
		expect(given().when(ev.userCommand("C1", "ls")).commands).toEqual([
			{ id: "C1", command: "ls", exitCode: null, span: 1, toolCallId: null, by: "user" },
		]);
	});

	it("a command id seen before (same batch or later) keeps the first record", () => {
		const state = given(ev.command("C1", "npm test", 1)).when(
			ev.command("C1", "npm run build", 0),
			ev.command("C2", "ls"),
		);
		expect(state.commands.map((c) => [c.id, c.command, c.exitCode])).toEqual([
			["C1", "npm test", 1],
			["C2", "ls", 0],
		]);
		const once = given().when(ev.command("C1", "a"), ev.command("C1", "b"));
		expect(once.commands.map((c) => c.command)).toEqual(["a"]);
	});
});

describe("error-recorded", () => {
	it("an error is open when recorded", () => {
		const state = given(ev.command("C1", "npm test", 1)).when(ev.errorRecorded("E1", "3 failed", "C1", 2));
		expect(state.errors).toEqual([{ id: "E1", tool: "bash", head: "3 failed", span: 2, command: "C1", fixedBy: null }]);
	});

	it("an error id seen before keeps the first record", () => {
		const state = given(ev.errorRecorded("E1", "first")).when(
			ev.errorRecorded("E1", "second"),
			ev.errorRecorded("E2", "other"),
		);
		expect(state.errors.map((e) => [e.id, e.head])).toEqual([
			["E1", "first"],
			["E2", "other"],
		]);
		const once = given().when(ev.errorRecorded("E1", "a"), ev.errorRecorded("E1", "b"));
		expect(once.errors.map((e) => e.head)).toEqual(["a"]);
	});
});

describe("error-fixed", () => {
	it("marks the error fixed by the command whose success fixed it", () => {
		const state = given(ev.errorRecorded("E1", "3 failed", "C1")).when(ev.errorFixed("E1", "C2"));
		expect(state.errors[0]?.fixedBy).toBe("C2");
	});

	it("a second fix of the same error does not overwrite the first", () => {
		const state = given(ev.errorRecorded("E1", "3 failed"), ev.errorFixed("E1", "C2")).when(ev.errorFixed("E1", "C5"));
		expect(state.errors.map((e) => e.fixedBy)).toEqual(["C2"]);
		const sameBatch = given(ev.errorRecorded("E1", "x")).when(ev.errorFixed("E1", "C2"), ev.errorFixed("E1", "C3"));
		expect(sameBatch.errors.map((e) => e.fixedBy)).toEqual(["C2"]);
	});

	it("fixes only the error it names, wherever it is in the ledger", () => {
		const state = given(ev.errorRecorded("E1", "a"), ev.errorRecorded("E2", "b"), ev.errorRecorded("E3", "c")).when(
			ev.errorFixed("E2", "C4"),
		);
		expect(state.errors.map((e) => [e.id, e.fixedBy])).toEqual([
			["E1", null],
			["E2", "C4"],
			["E3", null],
		]);
	});

	it("in the same batch as the error it fixes", () => {
		const state = given(ev.errorRecorded("E1", "a")).when(ev.errorRecorded("E2", "b"), ev.errorFixed("E2", "C3"));
		expect(state.errors.map((e) => e.fixedBy)).toEqual([null, "C3"]);
	});

	it("of an error not in the ledger (yet) changes nothing, and a later record of it is open", () => {
		const before = given(ev.errorRecorded("E1", "a"));
		const state = before.when(ev.errorFixed("E9", "C3"));
		expect(state.errors).toEqual(before.state.errors);
		expect(state.anomalies).toEqual([]);
		expect(given(ev.errorFixed("E2", "C1")).when(ev.errorRecorded("E2", "b")).errors[0]?.fixedBy).toBeNull();
	});

	it("leaves the error's other fields as recorded", () => {
		const state = given(ev.errorRecorded("E1", "3 failed", "C1", 4)).when(ev.errorFixed("E1", "C2"));
		expect(state.errors).toEqual([{ id: "E1", tool: "bash", head: "3 failed", span: 4, command: "C1", fixedBy: "C2" }]);
	});
});

describe("error-fixed by an edit or write of the file", () => {
	it("names the tool and the file as what fixed it, and keeps the error's path", () => {
		const state = given(ev.editFailed("E1", "Could not find the exact text in a.ts", "a.ts")).when(
			ev.editFixed("E1", "a.ts", "write"),
		);
		expect(state.errors).toEqual([
			{
				id: "E1",
				tool: "edit",
				head: "Could not find the exact text in a.ts",
				span: 1,
				command: null,
				path: "a.ts",
				fixedBy: "write of a.ts",
			},
		]);
	});

	it("the first fix stands, whichever form each fix takes", () => {
		const state = given(ev.editFailed("E1", "x", "a.ts"), ev.errorRecorded("E2", "y", "C1")).when(
			ev.editFixed("E1", "a.ts"),
			ev.errorFixed("E1", "C3"),
			ev.errorFixed("E2", "C4"),
			ev.editFixed("E2", "a.ts"),
		);
		expect(state.errors.map((e) => e.fixedBy)).toEqual(["edit of a.ts", "C4"]);
	});

	it("an error recorded with no path, as stored sessions hold them, has no path key", () => {
		const state = given().when(ev.errorRecorded("E1", "x"));
		expect(Object.keys(state.errors[0] ?? {})).toEqual(["id", "tool", "head", "span", "command", "fixedBy"]);
	});
});

describe("model-failed", () => {
	it("lists the session's model failures in order, apart from the errors, with no id", () => {
		const state = given(ev.modelFailed(1, "terminated")).when(ev.modelFailed(2, "400 invalid_request_error"));
		expect(state.modelFailures).toEqual([
			{ span: 1, head: "terminated" },
			{ span: 2, head: "400 invalid_request_error" },
		]);
		expect(state.errors).toEqual([]);
	});

	it("a state with none has no modelFailures key, so stored sessions keep the keys they folded to", () => {
		const state = given(ev.errorRecorded("E1", "x")).when(ev.command("C1", "ls"));
		expect(Object.keys(state)).toEqual(Object.keys(initialState));
		expect("modelFailures" in state).toBe(false);
	});

	it("leaves the state it started from unchanged", () => {
		const before = given(ev.modelFailed(1, "a"));
		const after = before.when(ev.modelFailed(1, "b"));
		expect(before.state.modelFailures).toEqual([{ span: 1, head: "a" }]);
		expect(after.modelFailures).toHaveLength(2);
	});
});

describe("files-touched", () => {
	it("read and modified files are listed once each, in the order first seen", () => {
		const state = given(ev.files(["a.ts", "b.ts"], ["c.ts"])).when(
			ev.files(["b.ts", "d.ts", "d.ts"], ["c.ts", "e.ts"]),
		);
		expect(state.files).toEqual({ read: ["a.ts", "b.ts", "d.ts"], modified: ["c.ts", "e.ts"] });
	});

	it("a read file that is later modified leaves the read list; the others keep their order", () => {
		const state = given(ev.files(["a.ts", "b.ts", "c.ts"])).when(ev.files([], ["b.ts"]));
		expect(state.files).toEqual({ read: ["a.ts", "c.ts"], modified: ["b.ts"] });
	});

	it("a modified file read later does not join the read list", () => {
		const state = given(ev.files([], ["a.ts"])).when(ev.files(["a.ts", "b.ts"]));
		expect(state.files).toEqual({ read: ["b.ts"], modified: ["a.ts"] });
	});

	it("a file read and modified in the same event is modified only", () => {
		expect(given().when(ev.files(["a.ts"], ["a.ts"])).files).toEqual({ read: [], modified: ["a.ts"] });
	});

	it("a file modified again that was read in between stays out of the read list", () => {
		const state = given(ev.files(["x.ts"], ["a.ts"])).when(ev.files(["a.ts"], ["a.ts"]), ev.files(["y.ts"]));
		expect(state.files).toEqual({ read: ["x.ts", "y.ts"], modified: ["a.ts"] });
	});

	it("removal from the read list holds in the next batch: the file is not read back in", () => {
		const state = given(ev.files(["a.ts", "b.ts"]), ev.files([], ["a.ts"])).when(ev.files(["a.ts", "b.ts", "c.ts"]));
		expect(state.files).toEqual({ read: ["b.ts", "c.ts"], modified: ["a.ts"] });
	});
});

describe("world-taken", () => {
	const taken = { taken: true as const, branch: "main", head: "abc", status: "", log: "abc init", diffStat: "" };

	it("the world is the last one taken, skipped or not", () => {
		expect(initialState.world).toBeNull();
		expect(given().when(ev.worldTaken(1, taken)).world).toEqual(taken);
		const skipped = ev.noWorld("not a git repository");
		expect(given(ev.worldTaken(1, taken)).when(ev.worldTaken(2, skipped)).world).toEqual(skipped);
	});
});

describe("span-closed", () => {
	it("records the close and counts the span", () => {
		const state = given().when(ev.spanClosed(1, "partial", ["u2", "u3"], "chunk 2 never verified"));
		expect(state.closes).toEqual([
			{ span: 1, kind: "partial", unlabeled: ["u2", "u3"], reason: "chunk 2 never verified" },
		]);
		expect(state.spans).toBe(1);
	});

	it("spans is the highest span closed, and every close is kept in fold order", () => {
		const state = given(ev.spanClosed(1), ev.spanClosed(3, "narrative-less", [], "model-error")).when(ev.spanClosed(2));
		expect(state.spans).toBe(3);
		expect(state.closes.map((c) => [c.span, c.kind])).toEqual([
			[1, "whole"],
			[3, "narrative-less"],
			[2, "whole"],
		]);
	});

	it("a span closed twice is listed twice and counted once", () => {
		const state = given(ev.spanClosed(1)).when(ev.spanClosed(1));
		expect(state.closes).toHaveLength(2);
		expect(state.spans).toBe(1);
	});

	it("a close changes nothing but the closes and the count", () => {
		const before = given(ev.ruleAdded("a", "u1"), ev.note("n"), ev.errorRecorded("E1", "x"));
		const { closes: _c, spans: _s, ...rest } = before.when(ev.spanClosed(1));
		const { closes: _c0, spans: _s0, ...restBefore } = before.state;
		expect(rest).toEqual(restBefore);
	});
});

describe("foreign-compaction-seen", () => {
	it("each foreign compaction is listed with its entry, summary size and whether an extension wrote it", () => {
		const state = given(ev.foreign("f1", 120)).when(ev.foreign("f2", 0, true));
		expect(state.foreign).toEqual([
			{ entry: "f1", summaryChars: 120, fromHook: false },
			{ entry: "f2", summaryChars: 0, fromHook: true },
		]);
	});

	it("a foreign compaction leaves the rules, notes and ledger alone", () => {
		const before = given(ev.ruleAdded("a", "u1"), ev.note("n"), ev.command("C1", "ls"));
		const state = before.when(ev.foreign("f1", 10));
		expect([state.rules, state.notes, state.commands, state.spans]).toEqual([
			before.state.rules,
			before.state.notes,
			before.state.commands,
			before.state.spans,
		]);
	});
});

describe("anomaly", () => {
	it("each anomaly is listed with its entry and reason, in fold order, repeats included", () => {
		const state = given(ev.anomaly("e1", "malformed JSON")).when(ev.anomaly("e2", "x"), ev.anomaly("e2", "x"));
		expect(state.anomalies).toEqual([
			{ entry: "e1", reason: "malformed JSON" },
			{ entry: "e2", reason: "x" },
			{ entry: "e2", reason: "x" },
		]);
	});

	it("a lift's anomaly and a stored anomaly keep fold order", () => {
		const state = given().when(ev.anomaly("e1", "first"), ev.ruleLifted("R1", "u2"), ev.anomaly("e3", "third"));
		expect(state.anomalies.map((a) => a.entry)).toEqual(["e1", "u2", "e3"]);
	});
});

describe("the fold's bookkeeping", () => {
	it("lastSeq is the highest stored seq seen; events the fold made (no seq) leave it", () => {
		const state = applied(initialState, [ev.note("a"), ev.note("b"), ev.note("c")], [4, 2, null]);
		expect(state.lastSeq).toBe(4);
		expect(applied(state, [ev.note("d")], [3]).lastSeq).toBe(4);
		expect(applied(state, [ev.note("d")], [9]).lastSeq).toBe(9);
		expect(applied(initialState, [ev.note("a")], [null]).lastSeq).toBe(0);
	});

	it("no events leave the state as it was", () => {
		const state = given(ev.ruleAdded("a", "u1")).state;
		expect(applied(state, [])).toBe(state);
	});

	it("evolve never changes the state it is given: the earlier state still reads the same", () => {
		const before = given(
			ev.ruleAdded("a", "u1"),
			ev.ruleAdded("b", "u2"),
			ev.decision("d", ["C1"]),
			ev.deadEnd("x", ["E1"]),
			ev.note("n"),
			ev.value("v", "1", "C1"),
			ev.command("C1", "ls"),
			ev.errorRecorded("E1", "boom"),
			ev.files(["r.ts", "m.ts"]),
			ev.narrative(1, "line"),
			ev.spanClosed(1, "partial", ["u1"]),
			ev.anomaly("e", "r"),
			ev.foreign("f", 1),
		);
		const snapshot = JSON.stringify(before.state);
		before.when(
			ev.ruleLifted("u1", "u3"),
			ev.ruleAdded("c", "u3"),
			ev.decision("d2"),
			ev.deadEnd("x2"),
			ev.note("n2"),
			ev.value("v", "2", "C2"),
			ev.command("C2", "ls"),
			ev.errorFixed("E1", "C2"),
			ev.errorRecorded("E2", "bang"),
			ev.files(["s.ts"], ["m.ts"]),
			ev.narrative(2, "line"),
			ev.spanClosed(2),
			ev.anomaly("e2", "r"),
			ev.foreign("g", 2),
			ev.objective("o"),
			ev.nowSet("n"),
		);
		expect(JSON.stringify(before.state)).toBe(snapshot);
	});

	it("what one batch indexed holds in the next: a later batch's carried id already given takes the next number", () => {
		const state = given(ev.ruleAdded("a", "u1"), ev.ruleAdded("b", "u2")).state;
		const lifted = applied(state, [ev.ruleLifted("R1", "u3")]);
		expect(
			applied(lifted, [ev.ruleAdded("c", "u9", "R1"), ev.ruleAdded("d", "u9", "R2")]).rules.map((r) => [r.id, r.text]),
		).toEqual([
			["R2", "b"],
			["R3", "c"],
			["R4", "d"],
		]);
	});

	it("many rules and values from one source are each kept once, whichever came first", () => {
		const state = given(ev.ruleAdded("a", "u1"), ev.ruleAdded("b", "u1"), ev.ruleAdded("c", "u1")).when(
			ev.ruleAdded("b", "u1"),
			ev.ruleAdded("c", "u1"),
			ev.ruleAdded("a", "u1"),
		);
		expect(state.rules.map((r) => r.text)).toEqual(["a", "b", "c"]);
		const values = given(ev.value("p", "1", "C1"), ev.value("q", "2", "C1"), ev.value("r", "3", "C1")).when(
			ev.value("q", "2", "C1"),
			ev.value("r", "3", "C1"),
			ev.value("p", "1", "C1"),
			ev.value("p", "2", "C1"),
		);
		expect(values.values.map((v) => `${v.name}=${v.value}`)).toEqual(["p=1", "q=2", "r=3", "p=2"]);
	});

	it("the initial state is empty, with every counter at 1", () => {
		expect(initialState).toEqual({
			stateFormat: 1,
			spans: 0,
			lastSeq: 0,
			objective: null,
			rules: [],
			lifted: [],
			decisions: [],
			deadEnds: [],
			notes: [],
			values: [],
			commands: [],
			errors: [],
			files: { read: [], modified: [] },
			world: null,
			workLog: [],
			now: null,
			closes: [],
			anomalies: [],
			foreign: [],
			next: { R: 1, D: 1, X: 1, N: 1 },
		});
	});
});

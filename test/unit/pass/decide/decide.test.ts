import { describe, expect, it } from "vitest";
import type { Event } from "../../../../src/events/index.js";
import type { UserMessage } from "../../../../src/events/messages.js";
import type { World } from "../../../../src/events/world.js";
import { type AcceptContext, acceptAnswer } from "../../../../src/pass/accept/accept.js";
import {
	type CloseFacts,
	type DiffResult,
	decideAnswer,
	decideClose,
	decideWithoutModel,
	decidingFrom,
	EMPTY_SPAN_LINE,
} from "../../../../src/pass/decide/decide.js";
import { initialState, type State } from "../../../../src/reducers/index.js";
import { rawAnswer } from "../../../support/answers.js";
import { applied } from "../../../support/applied.js";
import {
	command,
	decision,
	errorRecorded,
	narrative,
	nowSet,
	ruleAdded,
	spanClosed,
	value,
} from "../../../support/events.js";
import { userMessage } from "../../../support/users.js";

// Given this state and these inputs, then these events: the pass's decisions, without a model or a session.

const WORLD: World = { taken: false, reason: "not a git repository" };
const twoRules = applied(initialState, [ruleAdded("never push to main", "u1"), ruleAdded("run the tests first", "u2")]);
const ledger: Event[] = [command("C1", "npm test", 1, 1, "t1"), errorRecorded("E1", "1 failing", "C1")];
const answer = rawAnswer;
const ctxOn = (state: State, toLabel: readonly UserMessage[]): AcceptContext => ({
	state,
	span: 1,
	toLabel,
	branch: toLabel,
	turnText: () => undefined,
	ledger: new Set(["C1", "E1"]),
});
const failed = (reason: string): DiffResult => ({ accepted: undefined, reason });
const facts = (state: State, toLabel: readonly UserMessage[], rest: Partial<CloseFacts> = {}): CloseFacts => ({
	state,
	span: 1,
	ledger,
	world: WORLD,
	toLabel,
	empty: false,
	summaryChars: 8000,
	...rest,
});
const eventTypes = (events: readonly Event[]) => events.map((e) => e.type);
const pick = userMessage(3, "always use tabs");

describe("decidingFrom", () => {
	it("given the fold's state and the span's ledger, then nothing is decided, on the state after the ledger", () => {
		const d = decidingFrom(twoRules, ledger);
		expect(d.state.commands.map((c) => c.id)).toEqual(["C1"]);
		expect(d.state.rules).toEqual(twoRules.rules);
		expect([d.picked, d.accepted, d.diffs, d.failed, d.reason]).toEqual([[], [], 0, 0, null]);
	});
});

describe("decideWithoutModel", () => {
	it("given standing picks and no model, then each pick is a rule with the id after the state's, and the reason stands", () => {
		const d = decideWithoutModel(decidingFrom(twoRules, ledger), [pick], "no-model");
		expect(d.picked).toEqual([ruleAdded("always use tabs", "u3", "R3")]);
		expect(d.state.rules.map((r) => r.id)).toEqual(["R1", "R2", "R3"]);
		expect(d.reason).toBe("no-model");
	});
});

describe("decideAnswer", () => {
	it("given an accepted answer, then its events, labels and dropped items are kept and the state moves on", () => {
		const start = decidingFrom(twoRules, ledger);
		const accepted = acceptAnswer(
			ctxOn(start.state, [userMessage(3, "never edit the lockfile")]),
			answer([{ msg: "u3", label: "rule" }], { decisions: [{ text: "use pnpm", evidence: ["C1", "C9"] }] }),
		);
		const d = decideAnswer(start, { accepted, reason: null }, [pick]);
		expect(d.accepted).toEqual(accepted.events);
		expect(d.picked).toEqual([]);
		expect([...d.labeled]).toEqual(["u3"]);
		expect(d.labels).toEqual([{ msg: "u3", label: "rule" }]);
		expect(d.dropped).toEqual({ "unknown-evidence": 1 });
		expect(d.state.rules.map((r) => [r.id, r.text])).toContainEqual(["R3", "never edit the lockfile"]);
		expect(d.state.decisions.map((x) => x.id)).toEqual(["D1"]);
	});

	it("given a second chunk's answer, then its ids continue after those the first chunk's answer gave", () => {
		const start = decidingFrom(twoRules, ledger);
		const one = acceptAnswer(
			ctxOn(start.state, [userMessage(3, "never edit the lockfile")]),
			answer([{ msg: "u3", label: "rule" }], { decisions: [{ text: "use pnpm", evidence: [] }] }),
		);
		const first = decideAnswer(start, { accepted: one, reason: null }, []);
		const second = acceptAnswer(
			ctxOn(first.state, [userMessage(4, "always pin versions")]),
			answer([{ msg: "u4", label: "rule" }], { decisions: [{ text: "pin in CI", evidence: [] }] }),
		);
		const ids = second.events.flatMap((e) =>
			e.type === "rule-added" || e.type === "decision-made" ? [e.data.id] : [],
		);
		expect(ids).toEqual(["R4", "D2"]);
		const d = decideAnswer(first, { accepted: second, reason: null }, []);
		expect(d.state.rules.map((r) => r.id)).toEqual(["R1", "R2", "R3", "R4"]);
	});

	it("given two chunks' answers that each left items out, then the dropped items are counted over both", () => {
		const start = decidingFrom(twoRules, ledger);
		const evidence = (text: string) => answer([], { decisions: [{ text, evidence: ["C7"] }] });
		const one = acceptAnswer(ctxOn(start.state, []), evidence("use pnpm"));
		const first = decideAnswer(start, { accepted: one, reason: null }, []);
		const second = acceptAnswer(ctxOn(first.state, []), evidence("pin in CI"));
		expect(decideAnswer(first, { accepted: second, reason: null }, []).dropped).toEqual({ "unknown-evidence": 2 });
	});

	it("given no accepted answer for the first diff, then the standing picks are recorded by code", () => {
		const d = decideAnswer(decidingFrom(twoRules, ledger), failed("model-error"), [pick]);
		expect(d.picked).toEqual([ruleAdded("always use tabs", "u3", "R3")]);
		expect([d.diffs, d.failed, d.reason]).toEqual([1, 1, "model-error"]);
	});

	it("given no accepted answer for a later diff, then no picks are recorded and the first reason stands", () => {
		const one = decideAnswer(decidingFrom(twoRules, ledger), failed("model-error"), []);
		const two = decideAnswer(one, failed("unlabeled"), [pick]);
		expect(two.picked).toEqual([]);
		expect([two.diffs, two.failed, two.reason]).toEqual([2, 2, "model-error"]);
	});
});

describe("decideClose", () => {
	const span = [userMessage(3, "go on"), userMessage(4, "thanks")];
	const taken = (events: Event[], labeled: string[]): DiffResult => ({
		accepted: { events, labeled, labels: labeled.map((m) => ({ msg: m, label: "not a rule" })), dropped: [] },
		reason: null,
	});
	const now: Event = nowSet("next: ship");

	it("given every diff accepted, then the span closes whole, leaving unlabeled only what no answer judged", () => {
		const d = decideAnswer(decidingFrom(twoRules, ledger), taken([narrative(1, "fixed the test")], ["u3"]), []);
		const close = decideClose(d, facts(twoRules, span));
		expect(close.kind).toBe("whole");
		expect(close.reason).toBeNull();
		expect(eventTypes(close.closed.events)).toEqual([
			"command-recorded",
			"error-recorded",
			"world-taken",
			"narrative-line",
			"span-closed",
		]);
		expect(close.closed.events.at(-1)).toEqual(spanClosed(1, "whole", ["u4"]));
		expect(close.record.commands).toEqual([{ id: "C1", command: "npm test", exitCode: 1 }]);
		expect(close.record.errors).toEqual([{ id: "E1", tool: "bash", head: "1 failing" }]);
		expect(close.closed.details.events[0]?.seq).toBe(twoRules.lastSeq + 1);
	});

	it("given two chunks' narratives, then the close keeps one line, joined, where Now follows it", () => {
		const one = decideAnswer(decidingFrom(twoRules, ledger), taken([narrative(1, "first half"), now], ["u3"]), []);
		const two = decideAnswer(one, taken([narrative(1, "second half")], ["u4"]), []);
		const close = decideClose(two, facts(twoRules, span));
		const accepted = close.closed.events.filter((e) => e.type === "narrative-line" || e.type === "now-set");
		expect(accepted).toEqual([narrative(1, "first half; second half"), now]);
		expect(close.accepted).toBe(3);
	});

	it("given two chunks' narratives and no Now, then the joined line follows every other event, none lost", () => {
		const pnpm = decision("use pnpm", ["C1"]);
		const one = decideAnswer(decidingFrom(twoRules, ledger), taken([narrative(1, "first half"), pnpm], ["u3"]), []);
		const two = decideAnswer(one, taken([narrative(1, "second half")], ["u4"]), []);
		const close = decideClose(two, facts(twoRules, span));
		expect(eventTypes(close.closed.events)).toEqual([
			"command-recorded",
			"error-recorded",
			"world-taken",
			"decision-made",
			"narrative-line",
			"span-closed",
		]);
		expect(close.closed.events.find((e) => e.type === "narrative-line")).toEqual(
			narrative(1, "first half; second half"),
		);
	});

	it("given narratives that join past 600 characters, then the one line is their first 600", () => {
		const [a, b] = ["a".repeat(400), "b".repeat(400)];
		const one = decideAnswer(decidingFrom(twoRules, ledger), taken([narrative(1, a)], ["u3"]), []);
		const close = decideClose(decideAnswer(one, taken([narrative(1, b)], ["u4"]), []), facts(twoRules, span));
		const line = close.closed.events.find((e) => e.type === "narrative-line");
		expect(line).toEqual(narrative(1, `${a}; ${b}`.slice(0, 600)));
	});

	it("given one chunk's narrative, then it is kept as the answer gave it, in its place and whole", () => {
		const long = "c".repeat(700);
		const d = decideAnswer(decidingFrom(twoRules, ledger), taken([now, narrative(1, long)], ["u3", "u4"]), []);
		const close = decideClose(d, facts(twoRules, span));
		const kept = close.closed.events.filter((e) => e.type === "narrative-line" || e.type === "now-set");
		expect(kept).toEqual([now, narrative(1, long)]);
	});

	it("given a Now after other events, then the joined narrative stands just before the Now", () => {
		const pnpm = decision("use pnpm", ["C1"]);
		const one = decideAnswer(decidingFrom(twoRules, ledger), taken([pnpm, narrative(1, "first"), now], ["u3"]), []);
		const close = decideClose(decideAnswer(one, taken([narrative(1, "second")], ["u4"]), []), facts(twoRules, span));
		expect(eventTypes(close.closed.events).slice(3)).toEqual([
			"decision-made",
			"narrative-line",
			"now-set",
			"span-closed",
		]);
	});

	it("given accepted labels and a value, then the span record carries the labels and the value", () => {
		const port = value("port", "8080", "C1");
		const d = decideAnswer(decidingFrom(twoRules, ledger), taken([narrative(1, "ran it"), port], ["u3", "u4"]), []);
		const close = decideClose(d, facts(twoRules, span));
		expect(close.record.labels).toEqual([
			{ msg: "u3", label: "not a rule" },
			{ msg: "u4", label: "not a rule" },
		]);
		expect(close.record.values).toEqual([{ name: "port", value: "8080", source: "C1" }]);
	});

	it("given an answer with no narrative, then the whole close writes the line that says none was given", () => {
		const d = decideAnswer(decidingFrom(twoRules, ledger), taken([now], ["u3", "u4"]), []);
		const close = decideClose(d, facts(twoRules, span));
		expect(close.kind).toBe("whole");
		expect(close.closed.events.filter((e) => e.type === "narrative-line")).toEqual([
			narrative(1, "(no narrative given)"),
		]);
	});

	it("given one of two diffs accepted, then the span closes partial with the reason and every message unlabeled", () => {
		const one = decideAnswer(decidingFrom(twoRules, ledger), taken([narrative(1, "first half")], ["u3"]), []);
		const close = decideClose(decideAnswer(one, failed("model-error"), []), facts(twoRules, span));
		expect(close.kind).toBe("partial");
		expect(close.reason).toBe("model-error");
		expect(close.closed.events.at(-1)).toMatchObject({ data: { kind: "partial", unlabeled: ["u3", "u4"] } });
	});

	it("given no accepted answer, then the span closes narrative-less with the picks alone and a line that says why", () => {
		const d = decideAnswer(decidingFrom(twoRules, ledger), failed("model-error"), [pick]);
		const close = decideClose(d, facts(twoRules, [pick, ...span]));
		expect(close.kind).toBe("narrative-less");
		expect(close.closed.events.filter((e) => e.type === "rule-added" || e.type === "narrative-line")).toEqual([
			ruleAdded("always use tabs", "u3", "R3"),
			narrative(1, "(narrative-less: model-error)"),
		]);
		expect(close.closed.state.rules.map((r) => r.id)).toEqual(["R1", "R2", "R3"]);
	});

	it("given an empty span and no model asked, then the span closes whole with the empty span's line", () => {
		const d = decideWithoutModel(decidingFrom(twoRules, []), [], null);
		const close = decideClose(d, facts(twoRules, [], { ledger: [], empty: true }));
		expect(close.kind).toBe("whole");
		expect(close.closed.events.filter((e) => e.type === "narrative-line")).toEqual([narrative(1, EMPTY_SPAN_LINE)]);
		expect(close.accepted).toBe(1);
	});

	it("given an empty span and a reason the model was not asked, then the span still closes whole, with no reason", () => {
		const d = decideWithoutModel(decidingFrom(twoRules, []), [], "no-model");
		const close = decideClose(d, facts(twoRules, [], { ledger: [], empty: true }));
		expect([close.kind, close.reason]).toEqual(["whole", null]);
		expect(close.closed.events.at(-1)).toMatchObject({ data: { kind: "whole", reason: null } });
	});

	it("given nothing to ask about but a span that is not empty, then it closes narrative-less saying no answer verified", () => {
		const close = decideClose(decideWithoutModel(decidingFrom(twoRules, ledger), [], null), facts(twoRules, span));
		expect([close.kind, close.reason]).toEqual(["narrative-less", null]);
		expect(close.closed.events.filter((e) => e.type === "narrative-line")).toEqual([
			narrative(1, "(narrative-less: no verified answer)"),
		]);
	});

	it("given no model, then the span closes narrative-less with the reason, even with nothing picked", () => {
		const close = decideClose(
			decideWithoutModel(decidingFrom(twoRules, ledger), [], "no-model"),
			facts(twoRules, span),
		);
		expect([close.kind, close.reason]).toEqual(["narrative-less", "no-model"]);
	});
});

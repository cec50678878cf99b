import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeEvent, type Event } from "../../src/events/index.js";
import { lineLinks, linksScanner } from "../../src/events/line-links.js";
import { law } from "./laws.js";

// Laws of what the events module reads: the links of an over-long line (the same oracle as the hostile suite's,
// here without its exhaustion tests, so that mutation testing can run it), and the id codecs of stored events.

const anyJson = fc.jsonValue({ maxDepth: 2 });

describe("the link reader for over-long lines", () => {
	it("reads the id and parentId JSON.parse reads, or nothing when the id is not a string", () => {
		const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("id", "parentId", "i\\d", "__proto__"));
		const object = fc.dictionary(key, fc.oneof(anyJson, fc.string({ unit: "binary", maxLength: 12 })), {
			maxKeys: 8,
		});
		law([object, fc.constantFrom(undefined, 2, "\t")], (value, indent) => {
			const line = JSON.stringify(value, null, indent);
			const parsed = JSON.parse(line);
			const links = lineLinks(line);
			return typeof parsed.id === "string"
				? JSON.stringify(links) === JSON.stringify({ id: parsed.id, parentId: parsed.parentId })
				: links === undefined;
		});
	});

	it("reads the same links from a line handed in pieces, cut anywhere, as from the whole line", () => {
		const line = fc.oneof(
			fc.dictionary(fc.constantFrom("id", "parentId", "a", 'b\\"c'), fc.oneof(anyJson, fc.string()), { maxKeys: 5 }),
			fc.constant({ a: { b: ['"}', "\\"] }, id: 'q"\\', parentId: null }),
		);
		const cuts = fc.array(fc.nat(), { maxLength: 6 });
		law([line, fc.constantFrom(undefined, 1), cuts], (value, indent, at) => {
			const text = JSON.stringify(value, null, indent);
			const points = [...new Set(at.map((n) => n % (text.length + 1)))].sort((a, b) => a - b);
			const scanner = linksScanner();
			let from = 0;
			for (const point of [...points, text.length]) {
				scanner.push(text.slice(from, point));
				from = point;
			}
			return JSON.stringify(scanner.end()) === JSON.stringify(lineLinks(text));
		});
	});

	it("reads ids and parents beside nested values, escaped quotes and long values", () => {
		const long = "z".repeat(5000);
		expect(lineLinks(JSON.stringify({ a: { b: [1, { c: '"}' }] }, id: "x", parentId: "p" }))).toEqual({
			id: "x",
			parentId: "p",
		});
		expect(lineLinks(JSON.stringify({ note: 'say \\"hi\\" }', id: 'q"\\', parentId: null }))).toEqual({
			id: 'q"\\',
			parentId: null,
		});
		expect(lineLinks(JSON.stringify({ id: "x", big: long, parentId: "p" }))).toEqual({ id: "x", parentId: "p" });
		expect(lineLinks(JSON.stringify({ id: long }))).toBeUndefined();
		expect(lineLinks(JSON.stringify({ id: "x", id2: 1, parentId: 7 }))).toEqual({ id: "x", parentId: 7 });
		expect(lineLinks(JSON.stringify({ id: "x" }))).toEqual({ id: "x", parentId: undefined });
		expect(lineLinks(JSON.stringify({ id: "a", parentId: "b", x: [true, false, null, -1.5e3] }))).toEqual({
			id: "a",
			parentId: "b",
		});
		expect(lineLinks(' {"\\u0069d" : "x" , "parentId":null}\n')).toEqual({ id: "x", parentId: null });
		expect(lineLinks('{"id":"a","id":"b"}')).toEqual({ id: "b", parentId: undefined });
	});

	it("reads nothing from a line that is not one JSON object", () => {
		for (const line of [
			"",
			"   ",
			"{}",
			"[]",
			"{ }",
			'{"id":"x"',
			'{"id":"x",}',
			'{"id":"x"}x',
			'{"id":"x"} {',
			'{"id" "x"}',
			'{"id":"x" "p":1}',
			'{id:"x"}',
			'"id"',
			'{"id":"x\\"}',
			'{"id":"x","a":"unclosed}',
			'{"id":"x","a":{"b":"unclosed}}',
			'{"id":"x","a":[1,2}',
			'{"a":'.repeat(5),
			'{"i',
		])
			expect(lineLinks(line)).toBeUndefined();
	});
});

describe("the id codecs of stored events", () => {
	const lift = (target: unknown, by: unknown) => decodeEvent({ type: "rule-lifted", data: { target, by } });
	const note = (text: unknown) => decodeEvent({ type: "note-remembered", data: { text } });
	const line = (span: unknown) => decodeEvent({ type: "narrative-line", data: { span, text: "t" } });

	it("accept ids of one letter and a number from 1, up to nine digits", () => {
		for (const [target, by] of [
			["R1", "u1"],
			["u9", "u123456789"],
			["R999999999", "u10"],
		])
			expect(lift(target, by)._tag).toBe("Right");
	});

	it("refuse ids from 0, with a leading zero, over nine digits, of another letter or not a string", () => {
		for (const [target, by] of [
			["R0", "u1"],
			["R01", "u1"],
			["R1234567890", "u1"],
			["C1", "u1"],
			["R1", "R1"],
			["R1x", "u1"],
			["xR1", "u1"],
			[1, "u1"],
			["R1", "U1"],
		])
			expect(lift(target, by)).toEqual({ _tag: "Left", left: "event rule-lifted failed its codec" });
	});

	it("evidence, values' sources, commands and errors take only their own letters", () => {
		const ok = (event: unknown) => decodeEvent(event)._tag;
		expect(ok({ type: "decision-made", data: { text: "t", evidence: ["C1", "E2"] } })).toBe("Right");
		expect(ok({ type: "decision-made", data: { text: "t", evidence: ["R1"] } })).toBe("Left");
		expect(ok({ type: "value-recorded", data: { name: "n", value: "v", source: "u1" } })).toBe("Right");
		expect(ok({ type: "value-recorded", data: { name: "n", value: "v", source: "E1" } })).toBe("Left");
		expect(ok({ type: "error-fixed", data: { error: "E1", by: "C1" } })).toBe("Right");
		expect(ok({ type: "error-fixed", data: { error: "C1", by: "E1" } })).toBe("Left");
	});

	it("spans are whole numbers from 1", () => {
		expect(line(1)._tag).toBe("Right");
		expect(line(2 ** 40)._tag).toBe("Right");
		for (const span of [0, -1, 1.5, "1", Number.NaN, 2 ** 53, null]) expect(line(span)._tag).toBe("Left");
	});

	it("unknown keys are dropped, and a missing field fails", () => {
		const decoded = decodeEvent({ type: "note-remembered", data: { text: "n", extra: 1 }, more: 2 });
		const want: Event = { type: "note-remembered", data: { text: "n" } };
		expect(decoded).toEqual({ _tag: "Right", right: want });
		expect(note(undefined)._tag).toBe("Left");
	});
});

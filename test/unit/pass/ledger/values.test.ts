import { describe, expect, it } from "vitest";
import type { Event } from "../../../../src/events/index.js";
import { VALUES_PER_COMMAND, VALUES_PER_SPAN, valueEvents } from "../../../../src/pass/ledger/values.js";
import { value } from "../../../support/events.js";

const valuesOf = (output: string, id = "C1") =>
	valueEvents([{ id, output }]).flatMap((e: Event) => (e.type === "value-recorded" ? [e.data] : []));
const named = (output: string, name: string) =>
	valuesOf(output)
		.filter((v) => v.name === name)
		.map((v) => v.value);

describe("values learned from command output", () => {
	it("learns ports from host:port and from 'port N'", () => {
		expect(named("  ➜  Local:   http://localhost:5173/", "port")).toEqual(["5173"]);
		expect(named("Server listening on port 8080", "port")).toEqual(["8080"]);
		expect(named("bound 127.0.0.1:9229 and [::1]:3000", "port")).toEqual(["9229", "3000"]);
	});

	it.each([
		"port 8080",
		"port8080",
		"port: 8080",
		"port=8080",
		"PORT = 8080",
		"port\t:\t8080",
		"port\n\n8080",
		"port  \n  =\n  8080",
	])("learns a port after 'port', blanks and at most one ':' or '=' between: %j", (output) => {
		expect(named(output, "port")).toEqual(["8080"]);
	});

	it.each(["port :: 8080", "port =: 8080", "port - 8080"])("learns no port past anything else: %j", (output) => {
		expect(named(output, "port")).toEqual([]);
	});

	it("refuses a number that cannot be a port", () => {
		expect(named("localhost:99999", "port")).toEqual([]);
		expect(named("localhost:65536", "port")).toEqual([]);
		expect(named("localhost:65535", "port")).toEqual(["65535"]);
	});

	it("learns git hashes of 7 to 40 hex digits", () => {
		expect(named("[main 1a2b3c4] fix the parser", "hash")).toEqual(["1a2b3c4"]);
		const full = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b";
		expect(named(`commit ${full}\nAuthor: x`, "hash")).toEqual([full]);
	});

	it("does not take a plain number, a hex word, a UUID part or a longer hex run as a hash", () => {
		expect(named("1234567 bytes", "hash")).toEqual([]);
		expect(named("deadbeefcafe", "hash")).toEqual([]);
		expect(named("session ffae836b-9420-4060-ac13-7745215f90ff", "hash")).toEqual([]);
		expect(named(`sha256 ${"ab12".repeat(16)}`, "hash")).toEqual([]);
		expect(named("pi-bash-a4cd2460b5b4e0be.log", "hash")).toEqual([]);
	});

	it("learns versions, with or without a v, but not from an IP address", () => {
		expect(named("Node.js v23.4.0", "version")).toEqual(["v23.4.0"]);
		expect(named("> pi-monorepo@0.0.3 check", "version")).toEqual(["0.0.3"]);
		expect(named("released 2.0.0-beta.1", "version")).toEqual(["2.0.0-beta.1"]);
		expect(named("ping 192.168.1.10", "version")).toEqual([]);
	});

	it("learns counts, the last ones printed first, since summaries come last", () => {
		const output = "✓ a (1 passed)\n...\n Test Files  3 passed (3)\n      Tests  40 passed | 2 failed (42)";
		expect(named(output, "count")).toEqual(["2 failed", "40 passed"]);
		expect(named("Found 3 errors in 2 files.", "count")).toEqual(["3 errors"]);
	});

	it("learns durations in seconds and milliseconds, the last ones first", () => {
		expect(named("✓ parses (12ms)\n   Duration  2.1s (transform 1s)", "duration")).toEqual(["1s", "2.1s"]);
		expect(named("Done in 450ms", "duration")).toEqual(["450ms"]);
		expect(named("v1.5s2 10sec", "duration")).toEqual([]);
	});

	it("sources every value to its command, and every value stands verbatim in that command's output", () => {
		const outputs = [
			{ id: "C4", output: "Local: http://localhost:5173/ ready in 300ms" },
			{ id: "C9", output: "[main 0badc0de] commit\n 1 file changed\nv1.2.3" },
		];
		const events = valueEvents(outputs);
		expect(events.length).toBeGreaterThan(0);
		for (const event of events) {
			if (event.type !== "value-recorded") throw new Error(`unexpected ${event.type}`);
			const output = outputs.find((o) => o.id === event.data.source)?.output ?? "";
			expect(output).toContain(event.data.value);
		}
	});

	it("takes at most VALUES_PER_COMMAND from one output, mixing kinds before taking a second of any", () => {
		const output = "localhost:1111 localhost:2222 abc1234 def5678 v1.0.0 v2.0.0\n3 passed 4 failed 1s 2s";
		const values = valuesOf(output);
		expect(values).toHaveLength(VALUES_PER_COMMAND);
		expect(values.map((v) => v.name)).toEqual(["port", "hash", "version", "count", "duration"]);
	});

	it("takes at most VALUES_PER_SPAN from a span, the newest, in command order", () => {
		const outputs = Array.from({ length: 100 }, (_, i) => ({ id: `C${i + 1}`, output: `port ${1000 + i}` }));
		const sources = valueEvents(outputs).map((e) => (e.type === "value-recorded" ? e.data.source : ""));
		expect(sources).toEqual(Array.from({ length: VALUES_PER_SPAN }, (_, i) => `C${100 - VALUES_PER_SPAN + 1 + i}`));
	});

	it("cuts within the oldest command it keeps by that command's own order", () => {
		const outputs = [
			{ id: "C1", output: "localhost:1111 abc1234" },
			...Array.from({ length: VALUES_PER_SPAN - 1 }, (_, i) => ({ id: `C${i + 2}`, output: `port ${2000 + i}` })),
		];
		const first = valueEvents(outputs)[0];
		expect(first).toEqual(value("port", "1111", "C1"));
	});

	it("sources a value several commands printed to the newest of them, once", () => {
		const events = valueEvents([
			{ id: "C1", output: "12 passed" },
			{ id: "C2", output: "12 passed" },
		]);
		expect(events).toEqual([value("count", "12 passed", "C2")]);
	});

	it("scans only the head and tail of a huge output, never cutting a token", () => {
		const filler = "x\n".repeat(50_000);
		expect(named(`${filler}localhost:4000\n${filler}`, "port")).toEqual([]);
		expect(named(`localhost:4000\n${filler}Tests 9 passed`, "port")).toEqual(["4000"]);
		expect(named(`localhost:4000\n${filler}Tests 9 passed`, "count")).toEqual(["9 passed"]);
	});

	it("learns nothing from output without values", () => {
		expect(valuesOf("hello world\n")).toEqual([]);
	});
});

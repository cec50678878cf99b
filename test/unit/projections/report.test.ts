import { describe, expect, it } from "vitest";
import { logEventNames, sha256Hex } from "../../../src/adapters/log/index.js";
import { DIGEST_RECORDS, reportDigest, reportedEvents } from "../../../src/projections/report.js";
import { isTerminalSafe } from "../../../src/projections/sanitize.js";
import { compactionRecord, sampleRecords, session } from "../../support/log-records.js";

const home = "/home/alice";
const ts = "2025-06-01T12:00:00.000Z";
const line = (record: object): string => JSON.stringify({ ts, ...record });
const digest = (lines: readonly string[]): string => reportDigest(lines, home, sha256Hex);
/** The record lines of a digest (between its fences). */
const bodyOf = (text: string): string[] =>
	text
		.split("```")[1]
		?.split("\n")
		.filter((l) => l !== "") ?? [];
const hash8 = (text: string): string => sha256Hex(text).slice(0, 8);

describe("reportDigest", () => {
	it("knows every event the log writes", () => {
		expect([...reportedEvents].sort()).toEqual([...logEventNames].sort());
	});

	it("shows one line per record with its time, event, and counts, codes and model ids", () => {
		const body = bodyOf(digest([line(compactionRecord)]));
		expect(body).toHaveLength(1);
		const fields = body[0]?.split(" ") ?? [];
		expect(fields.slice(0, 2)).toEqual([ts, "compaction"]);
		expect(fields).toEqual(
			expect.arrayContaining([
				"model=anthropic/claude-sonnet-4-5",
				"thinkingLevel=medium",
				"span=3",
				"tokensBefore=151000",
				"narrative.kind=whole",
				"narrative.calls=2",
				"narrative.dropped.unknown-id=2",
				"narrative.usage.input=40000",
				"narrative.reasoning=null",
				"route.configured=openai/gpt-5-mini:low",
				"route.notUsed=no-api-key",
				"capFit.fits=true",
				"world.taken=true",
				"carried.rules=4",
				"durationMs=5530",
			]),
		);
	});

	it("hashes the working directory and the session id, and shows home as ~", () => {
		const [inHome, atHome, outside] = bodyOf(
			digest([
				line(compactionRecord),
				line({ ...compactionRecord, cwd: home }),
				line({ ...compactionRecord, cwd: "/srv/atlas" }),
			]),
		);
		expect(inHome).toContain(`cwd=~/path#${hash8(session.cwd)}`);
		expect(inHome).toContain(`sessionId=#${hash8(session.sessionId ?? "")}`);
		expect(atHome).toContain("cwd=~ ");
		expect(outside).toContain(`cwd=path#${hash8("/srv/atlas")}`);
		expect(`${inHome}${atHome}${outside}`).not.toMatch(/alice|atlas|019a2b3c/);
	});

	it("shows no message text and no path from a record holding the user's words where they do not belong", () => {
		const words = "/home/alice/secret-project holds the launch codes";
		const hostile = [
			line({ ...sampleRecords[8], error: words, notes: words, stack: words, reason: words }),
			line({ ...compactionRecord, cwd: "/srv/secret-project", excerpts: { rejectedQuotes: [words], prunedPaths: [] } }),
			line({
				...compactionRecord,
				narrative: { ...compactionRecord.narrative, kind: words, dropped: { [words]: 1 }, timings: words },
				route: { configured: "/home/alice/secret-project/model", used: "../secret-project", notUsed: words },
				model: words,
				thinkingLevel: words,
				piVersion: words,
			}),
			line({ ...sampleRecords[0], piVersion: words, piVersionVerified: words, sessionId: words }),
			line({ ...sampleRecords[4], cutoff: words, cwd: words }),
		];
		const text = digest(hostile);
		expect(bodyOf(text)).toHaveLength(hostile.length);
		expect(text).not.toMatch(/secret|launch|codes|holds|alice|\/home|\/srv|\.\.\//);
		expect(text).toContain("reason=?");
		expect(text).toContain("narrative.kind=?");
	});

	it("shows of an error only its class and a leading Node error code", () => {
		const failed = { ...sampleRecords[5], error: "EACCES: permission denied, open '~/projects/atlas/x'" };
		const [withCode, withoutCode] = bodyOf(
			digest([line(failed), line({ ...failed, errorClass: "Error: with words", error: "could not find atlas" })]),
		);
		expect(withCode).toContain("errorClass=Error error=EACCES");
		expect(withoutCode).toContain("errorClass=? error=?");
		expect(`${withCode}${withoutCode}`).not.toMatch(/atlas|permission/);
	});

	it(`keeps only the newest ${DIGEST_RECORDS} records, oldest first`, () => {
		const lines = Array.from({ length: 12 }, (_, i) => line({ ...sampleRecords[2], span: i + 1 }));
		const text = digest(lines);
		const spans = bodyOf(text).map((l) => /\bspan=(\d+)/.exec(l)?.[1]);
		expect(spans).toEqual(["5", "6", "7", "8", "9", "10", "11", "12"]);
		expect(text).toContain("newest 8 of 12 records");
	});

	it("skips lines that are not known records and says how many, ignoring blank lines", () => {
		const text = digest([
			"not json",
			"{}",
			"[1,2]",
			JSON.stringify({ ts, event: "mystery", cwd: home }),
			JSON.stringify({ ts, event: "__proto__" }),
			JSON.stringify({ event: "compacted" }),
			'{"ts":"2025',
			"",
			"   ",
			line(sampleRecords[2] ?? {}),
		]);
		expect(bodyOf(text)).toHaveLength(1);
		expect(text).toContain("newest 1 of 1 records (7 unreadable lines skipped)");
	});

	it("caps the entries shown from one map", () => {
		const dropped = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`reason-${i}`, i]));
		const [body] = bodyOf(
			digest([line({ ...compactionRecord, narrative: { ...compactionRecord.narrative, dropped } })]),
		);
		expect(body?.match(/narrative\.dropped\.reason-/g)).toHaveLength(16);
		expect(body).toContain("narrative.dropped.more=84");
	});

	it("lets no control character reach the terminal", () => {
		const esc = "\u001b]8;;http://x\u0007\u009b31m\u202e\r";
		const text = digest([
			JSON.stringify({ ts: `${ts}${esc}`, ...compactionRecord, reason: esc, narrative: { kind: esc, [esc]: 1 } }),
			JSON.stringify({ ts, ...compactionRecord, carried: { [esc]: 1 } }),
		]);
		expect(isTerminalSafe(text)).toBe(true);
		expect(bodyOf(text)).toHaveLength(2);
	});
});

describe("reportDigest, field by field", () => {
	/** The one record line of a digest of one raw line, with the given home. */
	const only = (raw: string, at = home): string | undefined => bodyOf(reportDigest([raw], at, sha256Hex))[0];
	const compaction = (fields: object): string => JSON.stringify({ ts, event: "compaction", ...fields });

	it("shows each known field present, in the digest's order, and nothing for a field absent", () => {
		expect(only(compaction({ durationMs: 7, span: 2, unknownField: 1 }))).toBe(`${ts} compaction span=2 durationMs=7`);
		expect(only(compaction({ capFit: { fits: false }, world: {} }))).toBe(`${ts} compaction capFit.fits=false`);
	});

	it("withholds as ? a value of the wrong kind: a group or map that is not an object, a count that is not finite", () => {
		const withheld = compaction({
			span: "2",
			tokensBefore: true,
			summaryChars: null,
			narrative: [{ kind: "whole" }],
			route: null,
			capFit: "fits",
			world: 5,
			carried: "ab",
			durationMs: [5],
		});
		expect(only(withheld)).toBe(
			`${ts} compaction span=? tokensBefore=? summaryChars=? narrative=? route=? capFit=? world=? carried=? durationMs=?`,
		);
		expect(only('{"ts":"2025-06-01T12:00:00.000Z","event":"compacted","span":1e999,"tokensBefore":-1e999}')).toBe(
			`${ts} compacted span=? tokensBefore=?`,
		);
		expect(only(compaction({ carried: ["rules"] }))).toBe(`${ts} compaction carried=?`);
	});

	it("a map shows ? for a key that is not a code and for a value that is not a number", () => {
		expect(only(compaction({ carried: { "two words": 1, rules: "4", notes: 0 } }))).toBe(
			`${ts} compaction carried.?=1 carried.rules=? carried.notes=0`,
		);
	});

	it(`a map of exactly ${16} entries shows them all and says nothing more`, () => {
		const carried = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, i]));
		const line16 = only(compaction({ carried })) ?? "";
		expect(line16.split(" ")).toHaveLength(2 + 16);
		expect(line16).not.toContain("more");
		const line17 = only(compaction({ carried: { ...carried, k16: 16 } })) ?? "";
		expect(line17.split(" ").slice(-2)).toEqual(["carried.k15=15", "carried.more=1"]);
	});

	it("null shows as null only where a field may be null, and an error that is not a string shows as ?", () => {
		const record = JSON.stringify({
			ts,
			event: "fallback",
			sessionId: null,
			model: null,
			thinkingLevel: 7,
			reason: null,
			error: ["EACCES: permission denied"],
			errorClass: 5,
		});
		expect(only(record)).toBe(`${ts} fallback sessionId=null model=null thinkingLevel=? reason=? errorClass=? error=?`);
		expect(only(JSON.stringify({ ts, event: "fallback", sessionId: 5, model: 5 }))).toBe(
			`${ts} fallback sessionId=? model=?`,
		);
	});

	it("a path or session id prints as the first eight characters of its hash, a path that is not a string as ?", () => {
		expect(only(compaction({ cwd: "/srv/atlas", sessionId: "s-1" }))).toBe(
			`${ts} compaction cwd=path#${hash8("/srv/atlas")} sessionId=#${hash8("s-1")}`,
		);
		expect(only(compaction({ cwd: 5 }))).toBe(`${ts} compaction cwd=?`);
	});

	it("home is home whatever trailing slashes either side carries, and an empty or root home hides no path as ~", () => {
		const inside = "/home/alice/atlas";
		expect(only(compaction({ cwd: "/home/alice//" }))).toBe(`${ts} compaction cwd=~`);
		expect(only(compaction({ cwd: "/home/alice/" }), "/home/alice//")).toBe(`${ts} compaction cwd=~`);
		expect(only(compaction({ cwd: inside }), "/home/alice//")).toBe(`${ts} compaction cwd=~/path#${hash8(inside)}`);
		for (const root of ["", "/"]) {
			expect(only(compaction({ cwd: "/" }), root)).toBe(`${ts} compaction cwd=path#${hash8("/")}`);
			expect(only(compaction({ cwd: inside }), root)).toBe(`${ts} compaction cwd=path#${hash8(inside)}`);
		}
	});

	it("a time that is not an ISO timestamp shows as ?", () => {
		expect(only(JSON.stringify({ ts: "yesterday", event: "compacted", span: null }))).toBe("? compacted span=null");
	});

	it("the header counts the records shown, the records read and the lines skipped, and fences the records", () => {
		const note = "Paths and session ids are hashed, home is ~, message text is left out, ? marks a value withheld.";
		const record = line(sampleRecords[2] ?? {});
		expect(digest([record]).split("\n")).toEqual([
			`Longhaul log digest: the newest 1 of 1 records. ${note}`,
			"```",
			bodyOf(digest([record]))[0],
			"```",
		]);
		expect(digest(["x", record]).split("\n")[0]).toBe(
			`Longhaul log digest: the newest 1 of 1 records (1 unreadable line skipped). ${note}`,
		);
		expect(digest([]).split("\n")).toEqual([`Longhaul log digest: the newest 0 of 0 records. ${note}`, "```", "```"]);
	});
});

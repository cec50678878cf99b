import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FORMS, plantedSecrets, shown } from "../../../../bench/redact-corpus.js";
import { chunkRanges, lintWindows } from "../../../../src/adapters/redact/chunks.js";
import { createRedactor } from "../../../../src/adapters/redact/index.js";
import { LINT_TRIGGER } from "../../../../src/adapters/redact/prefilter.js";
import { privateKeySpans, readEscapesKept, readView } from "../../../../src/pass/secrets/index.js";
import { params } from "../../../properties/laws.js";

/** Lines of ordinary output, some with a lint trigger or a name the finders read. */
const ORDINARY = [
	"$ npm test",
	"PORT=5173",
	"the secret manager is up",
	"AWS_ACCOUNT_ID=123456789012",
	"machine api.example.com",
	"  login deploy",
	"  password Zk3Qm9XwPq7Rt2",
	"Cookie: theme=dark",
	"-----END PRIVATE KEY-----",
	"aws_secret_access_key =",
	"\u001b[32mok\u001b[0m",
	"\\u001b[1mbold\\u001b[0m",
	"a\\nb",
	"",
	"   ",
];

/** A text of lines: ordinary ones and secrets of the corpus shown in its forms, some more than once (copies). */
const text = fc
	.record({
		seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
		picks: fc.array(
			fc.oneof(
				fc.constantFrom(...ORDINARY),
				fc.record({ secret: fc.nat(), form: fc.nat({ max: FORMS.length - 1 }), n: fc.nat({ max: 11 }) }),
			),
			{ minLength: 1, maxLength: 40 },
		),
		breaks: fc.constantFrom("\n", "\r\n"),
	})
	.map(({ seed, picks, breaks }) => {
		const secrets = plantedSecrets(seed, 1);
		return picks
			.map((pick) => {
				if (typeof pick === "string") return pick;
				const planted = secrets[pick.secret % secrets.length];
				const form = FORMS[pick.form] ?? "plain";
				return planted === undefined ? "" : shown(planted, form, pick.n);
			})
			.join(breaks);
	});

describe("chunked redaction", () => {
	it("gives exactly what the whole text read at once gives, with a cut at every line break it may cut at (secrets at the chunks' edges)", async () => {
		const whole = createRedactor(true, Number.POSITIVE_INFINITY);
		await fc.assert(
			fc.asyncProperty(text, fc.integer({ min: 1, max: 300 }), async (t, size) => {
				expect(await createRedactor(true, size).redact(t)).toBe(await whole.redact(t));
			}),
			params({ numRuns: 150 }),
		);
	});

	it("gives the same on a batch, a secret found in one text replaced as a copy in another's chunks", async () => {
		const whole = createRedactor(true, Number.POSITIVE_INFINITY);
		await fc.assert(
			fc.asyncProperty(
				fc.array(text, { minLength: 1, maxLength: 4 }),
				fc.integer({ min: 1, max: 200 }),
				async (ts, size) => {
					expect(await createRedactor(true, size).redactAll(ts)).toEqual(await whole.redactAll(ts));
				},
			),
			params({ numRuns: 60 }),
		);
	});
});

describe("chunked redaction, by example", () => {
	// The AWS secret key's name, its `=` (or a blank line) and its value may stand on three lines, and the lint reads
	// them all where each line is a candidate (the value's line is one only with a trigger of its own): however small
	// the windows, every three lines in a row are linted together.
	const around = Array(5).fill("the secret manager is up");
	const value = "SecretZk3Qm9XwPq7Rt2Ls8Vb4Nc6Hd1Jf5Gy0Ta";

	it.each([
		["a blank line", ["aws_secret_access_key =", "", value]],
		["its `=` alone", ["aws_secret_access_key", "=", value]],
	])("finds an AWS secret key two lines after its name, past %s, however small the windows", async (_, lines) => {
		const text = [...around, ...lines, ...around].join("\n");
		const want = text.replace(value, "[redacted: aws secret access key]");
		for (const size of [1, 24, 64, Number.POSITIVE_INFINITY])
			expect(await createRedactor(true, size).redact(text)).toBe(want);
	});
});

describe("chunkRanges", () => {
	it("cuts the text into ranges that follow each other to its end, each but the last ending after a line break", () => {
		fc.assert(
			fc.property(text, fc.integer({ min: 1, max: 300 }), (t, size) => {
				const view = readView(t);
				const ranges = chunkRanges(view, size);
				expect(ranges[0]?.start).toBe(0);
				expect(ranges.at(-1)?.end).toBe(view.text.length);
				for (const [i, r] of ranges.entries()) {
					const next = ranges[i + 1];
					if (next === undefined) continue;
					expect(next.start).toBe(r.end);
					expect(view.text.charAt(r.end - 1)).toBe("\n");
					expect(r.end - r.start).toBeGreaterThanOrEqual(size);
				}
			}),
			params({ numRuns: 200 }),
		);
	});

	it("never cuts inside a private key block, after a line with a lint trigger, or after an escaped line break", () => {
		const key =
			"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----";
		const t = ["one", key, "the secret is next", "token", "a\\nb", "two", key, "three"].join("\n");
		const view = readView(t);
		const cuts = chunkRanges(view, 1).map((r) => r.end);
		const blocks = privateKeySpans(view.text);
		for (const cut of cuts.slice(0, -1)) {
			expect(blocks.every((b) => cut <= b.start || cut >= b.end)).toBe(true);
			const line = view.text.slice(view.text.lastIndexOf("\n", cut - 2) + 1, cut - 1);
			expect(LINT_TRIGGER.test(line)).toBe(false);
		}
		// Every other line break is a cut: after "one", after each key block, "token", "a\nb" (the real break), "two".
		expect(cuts.slice(0, -1).map((c) => view.text.slice(view.text.lastIndexOf("\n", c - 2) + 1, c - 1))).toEqual([
			"one",
			"-----END PRIVATE KEY-----",
			"token",
			"b",
			"two",
			"-----END PRIVATE KEY-----",
		]);
	});
});

describe("chunkRanges, by example", () => {
	const lines = "aaaa\nbbbb\ncccc\ndddd";

	it.each([
		[5, [0, 5, 10, 15, 19]],
		[6, [0, 10, 19]],
		[10, [0, 10, 19]],
		[11, [0, 15, 19]],
	])("cuts after the first line break that makes a range of at least %i characters", (size, edges) => {
		const ranges = chunkRanges(readView(lines), size);
		expect(ranges).toEqual(edges.slice(0, -1).map((start, i) => ({ start, end: edges[i + 1] })));
	});

	it("ends the last range at the text's end, leaving no empty range after a final line break", () => {
		expect(chunkRanges(readView("aaaa\nbbbb\n"), 5)).toEqual([
			{ start: 0, end: 5 },
			{ start: 5, end: 10 },
		]);
	});

	it.each([
		["a text no longer than the size", "PORT=5173\nDEBUG=1", 17],
		["a line too long to cut", "x".repeat(40), 4],
		["no text", "", 1],
	])("gives one range for %s", (_, text, size) => {
		expect(chunkRanges(readView(text), size)).toEqual([{ start: 0, end: text.length }]);
	});

	it("cuts after a line break that opens the text", () => {
		expect(chunkRanges(readView("\nabc\ndef"), 1)).toEqual([
			{ start: 0, end: 1 },
			{ start: 1, end: 5 },
			{ start: 5, end: 8 },
		]);
	});

	it("makes no cut after a first line with a lint trigger, whose value may stand on the next line", () => {
		expect(chunkRanges(readView("client_secret:\nZk3Qm9XwPq7Rt2\nPORT=5173\nDEBUG=1"), 1)).toEqual([
			{ start: 0, end: 30 },
			{ start: 30, end: 40 },
			{ start: 40, end: 47 },
		]);
	});

	it("cuts a view whose escapes were dropped at its real line breaks, in the view's places", () => {
		const esc = String.fromCharCode(27);
		const view = readView(`${esc}[32mok${esc}[0m\nsecond\nthird`);
		expect(view.text).toBe("ok\nsecond\nthird");
		expect(chunkRanges(view, 1)).toEqual([
			{ start: 0, end: 3 },
			{ start: 3, end: 10 },
			{ start: 10, end: 15 },
		]);
	});

	it("makes no cut inside a private key block only the reading with the terminal escapes kept sees", () => {
		// The view drops `ESC [ -----B` as one escape and reads `EGIN PRIVATE KEY-----`: no block to it.
		const text =
			"$ cat key\n\u001b[-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASC\nAT8wggE7AgEAAkEAq7BF\n$ ls";
		const view = readView(text);
		expect(privateKeySpans(view.text)).toEqual([]);
		const start = view.text.indexOf("EGIN");
		const end = view.text.indexOf("$ ls");
		expect(chunkRanges(view, 1, readEscapesKept(text))).toEqual([
			{ start: 0, end: start },
			{ start, end },
			{ start: end, end: view.text.length },
		]);
	});

	it("cuts right before a private key block and right after it, and nowhere inside", () => {
		const key =
			"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE\n-----END OPENSSH PRIVATE KEY-----";
		const text = `$ cat ~/.ssh/id_ed25519\n${key}\ndone`;
		const start = text.indexOf(key);
		expect(chunkRanges(readView(text), 1)).toEqual([
			{ start: 0, end: start },
			{ start, end: start + key.length + 1 },
			{ start: start + key.length + 1, end: text.length },
		]);
	});
});

/** Lines of a few letters, some empty, joined by line breaks: where they break is what lintWindows reads. */
const lineText = fc.array(fc.stringMatching(/^[ab]{0,6}$/), { minLength: 1, maxLength: 30 }).map((ls) => ls.join("\n"));

/** The [start, end) of each line of `text`, without its line break. */
function linesOf(text: string): { start: number; end: number }[] {
	let start = 0;
	return text.split("\n").map((line) => {
		const range = { start, end: start + line.length };
		start = range.end + 1;
		return range;
	});
}

describe("lintWindows", () => {
	it("holds every three lines in a row whole in one window, each window of whole lines", () => {
		fc.assert(
			fc.property(lineText, fc.integer({ min: 1, max: 40 }), (text, size) => {
				const lines = linesOf(text);
				const windows = lintWindows(text, size);
				for (const w of windows) {
					expect(w.start === 0 || text.charAt(w.start - 1) === "\n").toBe(true);
					expect(w.end === text.length || text.charAt(w.end) === "\n").toBe(true);
				}
				for (let i = 0; i < lines.length; i++) {
					const first = lines[i];
					const third = lines[Math.min(i + 2, lines.length - 1)];
					if (first === undefined || third === undefined) continue;
					expect(windows.some((w) => w.start <= first.start && third.end <= w.end)).toBe(true);
				}
			}),
			params({ numRuns: 300 }),
		);
	});

	it("puts a line in at most three windows, and ends the last at the text's end", () => {
		fc.assert(
			fc.property(lineText, fc.integer({ min: 1, max: 40 }), (text, size) => {
				const windows = lintWindows(text, size);
				expect(windows.at(-1)?.end).toBe(text.length);
				for (const line of linesOf(text))
					expect(windows.filter((w) => w.start <= line.start && line.end <= w.end).length).toBeLessThanOrEqual(3);
			}),
			params({ numRuns: 300 }),
		);
	});

	it.each([
		[
			"lines to the size or more, the next opening at their last two",
			"aa\nbb\ncc\ndd\nee",
			9,
			[
				[0, 11],
				[6, 14],
			],
		],
		[
			"three lines at the least, however small the size",
			"a\nb\nc\nd",
			1,
			[
				[0, 5],
				[2, 7],
			],
		],
		[
			"a window that ends as it reaches the size, not a line later",
			"aa\nbb\ncc\ndd\nee",
			8,
			[
				[0, 8],
				[3, 11],
				[6, 14],
			],
		],
		[
			"each later window its own size from its own start",
			"a\nb\nc\nd\ne\nf\ng\nh",
			7,
			[
				[0, 7],
				[4, 11],
				[8, 15],
			],
		],
		[
			"empty lines as lines, the first too",
			"\n\na\nb\nc",
			1,
			[
				[0, 3],
				[1, 5],
				[2, 7],
			],
		],
		["one window for a text no longer than the size", "a\nb\nc\nd", 7, [[0, 7]]],
		["one window for one line, however long", "x".repeat(50), 4, [[0, 50]]],
	])("gives %s", (_, text, size, want) => {
		expect(lintWindows(text, size)).toEqual(want.map(([start, end]) => ({ start, end })));
	});
});

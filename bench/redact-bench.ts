import { createRedactor, type Redactor } from "../src/adapters/redact/index.js";
import { median, plainScan, report } from "./measure.js";
import type { PassFigures } from "./pass-bench.js";
import {
	BASE62,
	chars,
	FORMS,
	type Form,
	leakedPiece,
	type Planted,
	plantedSecrets,
	SECRET_KINDS,
	seeded,
	shown,
} from "./redact-corpus.js";
import { ordinaryStrings } from "./redact-ordinary-corpus.js";

/** Milliseconds each of `runs` awaited calls of `f` took, after one warm-up call (secretlint's first lint loads more). */
async function timeAsync(runs: number, f: () => Promise<unknown>): Promise<number[]> {
	await f();
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const start = performance.now();
		await f();
		times.push(performance.now() - start);
	}
	return times;
}

/** The median milliseconds of `f` and of `base`, each run `runs` times in turn with the other, after a warm-up each. */
async function sideBySide(
	runs: number,
	f: () => Promise<unknown>,
	base: () => Promise<unknown>,
): Promise<{ ms: number; baseMs: number }> {
	await f();
	await base();
	const times: number[] = [];
	const baseTimes: number[] = [];
	for (let i = 0; i < runs; i++) {
		let start = performance.now();
		await f();
		times.push(performance.now() - start);
		start = performance.now();
		await base();
		baseTimes.push(performance.now() - start);
	}
	return { ms: median(times), baseMs: median(baseTimes) };
}

const MARKER = "[redacted:";

/** The secret shown in `form` among lines of ordinary output, as the corpus test shows it. */
function inOutput(planted: Planted, form: Form, n: number): string {
	return `$ cat .env\nPORT=5173\n${shown(planted, form, n)}\nDEBUG=1\n`;
}

/**
 * An ordinary string shown in `form` (through `shown`, as a secret is): a form that puts it after a secret's name
 * would ask for a marker, so that one shows it coloured instead.
 */
function ordinaryIn(text: string, form: Form, n: number): string {
	const planted = { kind: "ordinary", text, body: text.slice(0, 8) };
	return shown(planted, form === "named and coloured" ? "coloured" : form, n);
}

/**
 * Recall and precision of redaction on both corpora, form by form: every secret of bench/redact-corpus.ts in the form
 * (one batch per form, so a copy found in one form cannot hide a miss in another), and every ordinary string of
 * bench/redact-ordinary-corpus.ts in the same form; the first miss and false mark of each are printed.
 */
async function corpusFigures(redactor: Redactor, seed: number): Promise<void> {
	const secrets = plantedSecrets(seed, Math.ceil(300 / SECRET_KINDS));
	const ordinary = ordinaryStrings(seed, 400);
	let found = 0;
	let marked = 0;
	const missed: string[] = [];
	const wronglyMarked: string[] = [];
	for (const [n, form] of FORMS.entries()) {
		const outputs = await redactor.redactAll(secrets.map((s, i) => inOutput(s, form, n + i)));
		const misses = secrets.filter((s, i) => {
			const out = outputs[i] ?? "";
			return !out.includes(MARKER) || leakedPiece(out, s) !== undefined;
		});
		const shownOrdinary = ordinary.map((text, i) => ordinaryIn(text, form, n + i));
		const redacted = await redactor.redactAll(shownOrdinary);
		const falses = shownOrdinary.filter((text, i) => redacted[i] !== text);
		const hits = secrets.length - misses.length;
		found += hits;
		marked += falses.length;
		for (const kind of new Set(misses.map((s) => s.kind))) missed.push(`${kind} (${form})`);
		if (falses[0] !== undefined) wronglyMarked.push(`${form}: ${JSON.stringify(falses[0]).slice(0, 160)}`);
		report(
			`  ${form}: recall, precision`,
			`${((100 * hits) / secrets.length).toFixed(1)}%, ${((100 * hits) / Math.max(1, hits + falses.length)).toFixed(1)}% (${falses.length} marked)`,
			"100%, 100%",
			misses.length === 0 && falses.length === 0,
		);
	}
	const planted = secrets.length * FORMS.length;
	report(
		`redaction recall (${secrets.length} secrets, ${SECRET_KINDS} kinds, ${FORMS.length} forms)`,
		`${((100 * found) / planted).toFixed(1)}% (${found}/${planted}, seed ${seed})`,
		"100%",
		found === planted,
	);
	report(
		`redaction precision (${ordinary.length} ordinary strings, each form)`,
		`${((100 * found) / Math.max(1, found + marked)).toFixed(1)}% (${marked} ordinary marked)`,
		"100% (none marked)",
		marked === 0,
	);
	for (const miss of missed) process.stdout.write(`     missed: ${miss}\n`);
	for (const mark of wronglyMarked) process.stdout.write(`     marked: ${mark}\n`);
}

const ESC = String.fromCharCode(27);

/**
 * Escapes that take the letter they end at, each put before a secret whose first character is that letter, so the
 * view reads the secret without it: ESC and a letter, a control sequence with no parameter, with parameters (`tput
 * hpa 0` writes ESC [ 1 G), private parameters, and ESC written as text.
 */
const TAKING = [ESC, `${ESC}[`, `${ESC}[1`, `${ESC}[?25`, `${ESC}[0;1`, "\\x1b[1", "\\033"];

/**
 * Escapes as tools print them before a line's text (ECMA-48; what `tput` writes): erase in line after a carriage
 * return (progress bars), erase the line, reverse index (`tput ri`), hide the cursor (`tput civis`), cursor to column
 * 1 (`tput hpa 0`), clear (`tput clear`), `tput sgr0`, reset and bold green colours, save the cursor, reset the
 * terminal, cursor up (`tput cuu1`), the alternate screen (`tput smcup`), a window title, and three written as text.
 */
const BEFORE_TEXT = [
	`\r${ESC}[K`,
	`${ESC}[2K`,
	`${ESC}M`,
	`${ESC}[?25l`,
	`${ESC}[1G`,
	`${ESC}[H${ESC}[2J`,
	`${ESC}(B${ESC}[m`,
	`${ESC}[0m`,
	`${ESC}[1;32m`,
	`${ESC}7`,
	`${ESC}c`,
	`${ESC}[A`,
	`${ESC}[?1049h`,
	`${ESC}]0;build\u0007`,
	"\\x1b[K",
	"\\u001b[2K",
	"\\033[1G",
];

/**
 * Both sides where a terminal escape stands before the text: recall of every corpus secret that opens with a letter
 * behind each TAKING escape ending at that letter, and precision on every ordinary string behind each BEFORE_TEXT
 * escape; the first miss and false mark are printed.
 */
async function escapeFigures(redactor: Redactor, seed: number): Promise<void> {
	const secrets = plantedSecrets(seed, Math.ceil(300 / SECRET_KINDS)).filter((s) => /^[A-Za-z]/.test(s.text));
	const taken = TAKING.flatMap((before) => secrets.map((s) => ({ planted: s, text: `${before}${s.text}` })));
	const outputs = await redactor.redactAll(taken.map((t) => inOutput({ ...t.planted, text: t.text }, "plain", 0)));
	const misses = taken.filter((t, i) => {
		const out = outputs[i] ?? "";
		return !out.includes(MARKER) || leakedPiece(out, t.planted) !== undefined;
	});
	const ordinary = BEFORE_TEXT.flatMap((before) => ordinaryStrings(seed, 400).map((text) => `${before}${text}`));
	const redacted = await redactor.redactAll(ordinary);
	const falses = ordinary.filter((text, i) => redacted[i] !== text);
	const hits = taken.length - misses.length;
	report(
		`redaction recall, a secret's first letter taken by an escape (${secrets.length} secrets, ${TAKING.length} escapes)`,
		`${((100 * hits) / taken.length).toFixed(1)}% (${hits}/${taken.length}, seed ${seed})`,
		"100%",
		misses.length === 0,
	);
	report(
		`redaction precision, ordinary strings after an escape (${ordinary.length}, ${BEFORE_TEXT.length} escapes)`,
		`${((100 * hits) / Math.max(1, hits + falses.length)).toFixed(1)}% (${falses.length} ordinary marked)`,
		"100% (none marked)",
		falses.length === 0,
	);
	if (misses[0] !== undefined) process.stdout.write(`     missed: ${JSON.stringify(misses[0].text).slice(0, 160)}\n`);
	if (falses[0] !== undefined) process.stdout.write(`     marked: ${JSON.stringify(falses[0]).slice(0, 160)}\n`);
}

/**
 * The longest the thread went without an event-loop turn while `f` ran: a setImmediate ticker runs beside it and
 * records the widest gap between its ticks (the wait for `f`'s own turns included).
 */
async function longestHold(f: () => Promise<unknown>): Promise<number> {
	let running = true;
	let last = performance.now();
	let widest = 0;
	const tick = () => {
		const now = performance.now();
		widest = Math.max(widest, now - last);
		last = now;
		if (running) setImmediate(tick);
	};
	setImmediate(tick);
	await f();
	running = false;
	return Math.max(widest, performance.now() - last);
}

interface CostCase {
	readonly name: string;
	readonly texts: readonly string[];
}

const MB = 1024 * 1024;

/** `unit` repeated to `size` characters, as one tool output. */
function repeated(unit: string, size: number): string {
	return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/** Ordinary tool output in texts of about 16 KB, `size` characters in all. */
function ordinaryTexts(seed: number, size: number): string[] {
	const lines = ordinaryStrings(seed, 2000);
	const texts: string[] = [];
	let text = "";
	let total = 0;
	for (let i = 0; total < size; i++) {
		const line = `${lines[i % lines.length] ?? ""}\n`;
		text += line;
		total += line.length;
		if (text.length >= 16 * 1024) {
			texts.push(text);
			text = "";
		}
	}
	if (text !== "") texts.push(text);
	return texts;
}

/** `tokens` distinct GitHub-shaped tokens spread over `texts` texts, a line each. */
function distinctTokens(seed: number, tokens: number, texts: number): string[] {
	const random = seeded(seed);
	const per = Math.ceil(tokens / texts);
	return Array.from({ length: texts }, () =>
		Array.from({ length: per }, () => `ghp_${chars(random, BASE62, 36)}`).join("\n"),
	);
}

/** The attack cases of issue 27: runs of one prefix, each alone. */
const REPEATED_PREFIXES = [
	"ghp_",
	"xoxb-",
	"key:",
	"sk-",
	"AKIA",
	// A Doppler service token's body holds the dots of its prefix; a Terraform token is read back from `.atlasv1.`.
	"dp.st.",
	".atlasv1.",
	"-----BEGIN PRIVATE KEY-----",
	"-----BEGIN PRIVATE KEY-----\n",
	"a://b:c@",
	"--password ",
	"password=",
	" password ",
	"machine h login u password ",
	"cookie:x=",
	"x://b ",
	"x://:b ",
	"\u001b[1m",
	"\u001b[mPUBLIC_KEY=",
	"const apiKey: string = ",
	"var token string ",
	"token=`",
	"TOKEN ?= ",
	'("TOKEN", "',
	'["TOKEN"] = ',
	"<password>",
	"<password>\n",
	'key="a" value="',
	"name: TOKEN\n  value: ",
	"<key>TOKEN</key><string>",
	"ENV TOKEN ",
	"pw ",
	"pw>",
	"\npw  a",
	"pw  ",
	"pw>a ",
	"pw  a ",
	// The forms of 2026-12-06: `.=` and `??=` after a name, a computed key, an entity in an element's text, an
	// unquoted value read on past `&` and `;`, a sentence's first word after a password's name.
	'$token.="',
	'token ??= "',
	'["token"]: "',
	"<pw>a&amp;",
	"token=a1;b2&",
	"password: Password ",
];

/**
 * Redaction's cost per MB on ordinary tool output, on `size` characters of each repeated prefix and on `tokens`
 * distinct tokens over 50 texts, each against a plain scan of the same bytes in this run; none may cost more than
 * 3x the ordinary output per MB. And the longest the thread was held at once in each case (the target is ~50 ms).
 */
export async function redactionCost(seed: number, size = MB, tokens = 50_000): Promise<void> {
	const cases: CostCase[] = [
		{ name: "ordinary tool output", texts: ordinaryTexts(seed, size) },
		{ name: "ordinary tool output in one text", texts: [ordinaryTexts(seed, size).join("")] },
		{
			// Every line behind a colour code and a reset: each text then has a second view for the finders to read.
			name: "ordinary tool output, every line coloured",
			texts: ordinaryTexts(seed, size).map((t) => t.replace(/^(.*)$/gm, `${ESC}[1;32m$1${ESC}(B${ESC}[m`)),
		},
		...REPEATED_PREFIXES.map((p) => ({ name: `repeated ${JSON.stringify(p)}`, texts: [repeated(p, size)] })),
		{
			// A JWT's header run holding an `eyJ` every four characters, then a payload and no signature: 128 KB of one
			// such line took 15 s while the vendor finder remembered one run of a class (2026-12-07).
			name: "JWT headers of 8 KB, an eyJ every 4 characters",
			texts: [repeated(`${"-eyJ".repeat(2048)}.eyJaaaaaaaaaaaa\n`, size)],
		},
		{
			// A lint trigger on every line: no cut can be made, and secretlint's SendGrid pattern tries many splits at
			// each `SG.`. Linted at once, 1 MB of it held the thread 0.4-0.55 s and 4 MB 1.45 s (2026-12-07).
			name: "a lint trigger on every line, an SG. every 263 characters",
			texts: [repeated(`secret ${`SG.a.${"a".repeat(257)} `.repeat(15).slice(0, 3992)}\n`, size)],
		},
		{
			// Lines of a key's body with an end line every 150 lines: each end line reads back to the one before, so the
			// key blocks join up and no cut can be made.
			name: "key body lines, an END line every 150",
			texts: [repeated(`${`${"A".repeat(63)}\n`.repeat(149)}-----END PRIVATE KEY-----\n`, size)],
		},
		{ name: `${tokens} distinct tokens in 50 texts`, texts: distinctTokens(seed, tokens, 50) },
	];
	process.stdout.write(
		`\nRedaction's cost per MB (${(size / MB).toFixed(2)} MB a case; x scan: against a plain scan of the same bytes):\n`,
	);
	// Each case runs in turn with ordinary output, and its ratio is of those runs: on a noisy machine a base measured
	// once, seconds before, moved the ratios by a third from run to run.
	const base = cases[0]?.texts ?? [];
	const baseMb = base.reduce((sum, t) => sum + Buffer.byteLength(t), 0) / MB;
	const baseRedactor = createRedactor(true);
	const ratios: { name: string; relative: number }[] = [];
	let worstHold = { name: "", ms: 0 };
	for (const c of cases) {
		const redactor = createRedactor(true);
		const mb = c.texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0) / MB;
		const { ms, baseMs } = await sideBySide(
			9,
			() => redactor.redactAll(c.texts),
			() => baseRedactor.redactAll(base),
		);
		const scanTimes: number[] = [];
		let lines = 0;
		for (let i = 0; i < 21; i++) {
			const start = performance.now();
			lines = plainScan(c.texts);
			scanTimes.push(performance.now() - start);
		}
		const scanMs = Math.max(median(scanTimes), 0.001);
		const hold = await longestHold(() => redactor.redactAll(c.texts));
		if (hold > worstHold.ms) worstHold = { name: c.name, ms: hold };
		const relative = ms / mb / (baseMs / baseMb);
		ratios.push({ name: c.name, relative });
		report(
			`redaction cost, ${c.name} (${lines} line breaks)`,
			`${(ms / mb).toFixed(1)} ms/MB, ${Math.round(ms / scanMs)}x scan, ${relative.toFixed(2)}x ord., hold ${hold.toFixed(0)} ms`,
			c === cases[0] ? "(the base)" : "<= 3x ordinary",
			relative <= 3,
		);
	}
	const worst = ratios.reduce((a, b) => (b.relative > a.relative ? b : a));
	report(
		"redaction cost: the worst case per MB",
		`${worst.relative.toFixed(2)}x ordinary (${worst.name})`,
		"<= 3x ordinary",
		worst.relative <= 3,
	);
	report(
		"redaction: longest hold of the thread",
		`${worstHold.ms.toFixed(0)} ms (${worstHold.name})`,
		"~50 ms",
		worstHold.ms <= 50,
	);
}

/** Milliseconds `runs` redactions of `text` took, each after a turn of the event loop, as a pass's redactions come. */
async function turnByTurn(redactor: Redactor, text: string, runs: number): Promise<number> {
	const start = performance.now();
	for (let i = 0; i < runs; i++) {
		await new Promise((resolve) => setImmediate(resolve));
		await redactor.redactAll([text]);
	}
	return performance.now() - start;
}

/**
 * A redaction late in a long session against the same one early: each lints once, and a linter that keeps something
 * of every lint (secretlint 11's profiler kept every mark and scanned them all) makes the late ones cost more.
 */
async function lateInSession(): Promise<void> {
	const redactor = createRedactor(true);
	const text = "$ cat ~/.aws/credentials\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y\n";
	const early = await turnByTurn(redactor, text, 300);
	await turnByTurn(redactor, text, 3_000);
	const late = await turnByTurn(redactor, text, 300);
	const ratio = late / early;
	report(
		"redaction late in a session (after 3,300 lints) / early",
		`${ratio.toFixed(2)}x (${late.toFixed(0)} vs ${early.toFixed(0)} ms for 300)`,
		"<= 1.5x",
		ratio <= 1.5,
	);
}

/**
 * Redaction's figures: recall and precision on both corpora, in every form and after terminal escapes, and its cost per MB (neither needs ../shared), then, where
 * the real transcripts are there, redaction of what the pass on the largest real span lets leave (the prompts it sent
 * and the summary) in one batch, against the same pass without its model calls, measured in this run.
 */
export async function redactBench(pass: PassFigures | undefined): Promise<void> {
	const seed = Date.now() % 2 ** 31;
	await corpusFigures(createRedactor(true), seed);
	await escapeFigures(createRedactor(true), seed);
	await redactionCost(seed);
	await lateInSession();
	if (pass === undefined) {
		process.stdout.write("skip redaction vs pass: the real transcripts in ../shared are absent\n");
		return;
	}
	const redactor = createRedactor(true);
	const chars = pass.leaving.reduce((sum, text) => sum + text.length, 0);
	const redactMs = median(await timeAsync(15, () => redactor.redactAll(pass.leaving)));
	const ratio = redactMs / pass.passMs;
	report(
		`redaction of the pass's prompt and summary (${Math.round(chars / 1000)}k chars)`,
		`${ratio.toFixed(3)}x (${redactMs.toFixed(1)} vs ${pass.passMs.toFixed(1)} ms)`,
		"<= 0.2x the pass",
		ratio <= 0.2,
	);
}

import * as E from "fp-ts/lib/Either.js";
import { readSessionFile } from "../adapters/cli/session-file.js";
import type { CliResult } from "../adapters/cli/state-cli.js";
import { sanitize } from "../projections/index.js";
import { DEMO_KEEP_RECENT_TOKENS, demoTranscript } from "./demo.js";
import type { Grade } from "./judge.js";
import { pathHash } from "./path-hash.js";
import { NEEDS_ROUTE, type ProbeModel } from "./probe-model.js";
import { MAX_RECALL_ROUNDS } from "./recall-probe.js";
import { DEFAULT_EVERY } from "./replay-cli.js";
import { type CallUsage, ROLES, type Role, SIDES, type Side, scoreTranscript, type TranscriptScore } from "./score.js";
import { table } from "./table.js";

/** How score is called. */
const SCORE_USAGE = "usage: longhaul score --model provider/id [FILE…] [--every N] [--keep-recent-tokens N]";

interface ScoreArgs {
	readonly route: string | undefined;
	readonly files: readonly string[];
	readonly every: number;
	readonly keepRecentTokens: number | undefined;
}

/** Reads the score command line; a wrong one is a message. */
function parseScoreArgs(argv: readonly string[]): E.Either<string, ScoreArgs> {
	let route: string | undefined;
	const files: string[] = [];
	let every = DEFAULT_EVERY;
	let keepRecentTokens: number | undefined;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] ?? "";
		if (arg === "--model") {
			route = argv[++i];
			if (route === undefined || route === "") return E.left(`--model needs provider/id\n${SCORE_USAGE}`);
		} else if (arg === "--every") {
			const n = argv[++i];
			if (n === undefined || !/^[0-9]{1,6}$/.test(n)) return E.left(`--every needs a number of turns\n${SCORE_USAGE}`);
			every = Number(n);
		} else if (arg === "--keep-recent-tokens") {
			const n = argv[++i];
			if (n === undefined || !/^[1-9][0-9]{0,6}$/.test(n))
				return E.left(`--keep-recent-tokens needs a number of tokens\n${SCORE_USAGE}`);
			keepRecentTokens = Number(n);
		} else if (arg === "--help" || arg === "-h") {
			return E.left(SCORE_USAGE);
		} else if (arg.startsWith("-")) {
			return E.left(`unknown option ${arg}\n${SCORE_USAGE}`);
		} else {
			files.push(arg);
		}
	}
	return E.right({ route, files, every, keepRecentTokens });
}

const ratio = (n: number, of: number) => (of === 0 ? "-" : `${n}/${of} ${Math.round((100 * n) / of)}%`);
const add = (grades: readonly Grade[], f: (g: Grade) => number) => grades.reduce((n, g) => n + f(g), 0);
const ids = (list: readonly string[]) => (list.length === 0 ? "-" : list.join(" "));

function gradeRow(side: Side, grades: readonly Grade[]): string[] {
	const next = (kind: Grade["next"]) => grades.filter((g) => g.next === kind).length;
	return [
		side,
		String(grades.length),
		ratio(
			add(grades, (g) => g.rulesKept.length),
			add(grades, (g) => g.rulesInForce.length),
		),
		ratio(
			add(grades, (g) => g.requirementsKept.length),
			add(grades, (g) => g.requirements.length),
		),
		ratio(
			add(grades, (g) => g.valuesRecalled),
			add(grades, (g) => g.valuesReused),
		),
		ratio(
			add(grades, (g) => g.errorsNamed),
			add(grades, (g) => g.errorsOpen),
		),
		`${next("yes")}/${next("partly")}/${next("no")}/${next("unjudged")}`,
	];
}

/** One row per compaction point: the rules the judge found in force there and the ones each side kept, by `u<n>`. */
function pointRows(name: string, score: TranscriptScore): string[][] {
	return score.points.map((point, i) => [
		`${name} ${i + 1}`,
		`u${point.turn}`,
		ids(SIDES.map((side) => point.grades[side].rulesInForce).find((list) => list.length > 0) ?? []),
		...SIDES.map((side) => ids(point.grades[side].rulesKept)),
		String(point.recalls),
	]);
}

/** What one role spent over every transcript. */
function usage(scores: readonly { score: TranscriptScore }[], role: Role): CallUsage {
	return scores.reduce(
		(sum, s) => ({
			calls: sum.calls + s.score.usage[role].calls,
			failed: sum.failed + s.score.usage[role].failed,
			input: sum.input + s.score.usage[role].input,
			output: sum.output + s.score.usage[role].output,
		}),
		{ calls: 0, failed: 0, input: 0, output: 0 },
	);
}

/** The score tables: grades per side over every point, the rules of each point, then calls and tokens per role. */
function scoreReport(model: string, scores: readonly { name: string; score: TranscriptScore }[]): string {
	const all = (side: Side) => scores.flatMap((s) => s.score.points.map((p) => p.grades[side]));
	const grades = table([
		[
			"compactor",
			"points",
			"rules kept",
			"requirements kept",
			"values recalled",
			"open errors named",
			"next step yes/partly/no/unjudged",
		],
		...SIDES.map((side) => gradeRow(side, all(side))),
	]);
	const points = table([
		["point", "after", "rules in force", ...SIDES.map((side) => `${side} kept`), "recall calls"],
		...scores.flatMap((s) => pointRows(s.name, s.score)),
	]);
	const costs = table([
		["model calls", "calls", "failed", "input tokens", "output tokens"],
		...ROLES.map((role) => {
			const u = usage(scores, role);
			return [role, String(u.calls), String(u.failed), String(u.input), String(u.output)];
		}),
	]);
	const compared = scores.map(
		(s) =>
			`${s.name}: ${s.score.points.length} points compared; compactions failed: longhaul ${s.score.failed.longhaul}, pi ${s.score.failed.pi}`,
	);
	const head =
		`score: Longhaul against pi's own compaction at the same compaction points; ${model} summarizes for both, ` +
		"answers the probes (rules in force, requirements, values, open errors, next step) from each compacted context, " +
		`and judges. Longhaul's context is asked with its longhaul_recall tool (at most ${MAX_RECALL_ROUNDS} rounds) and ` +
		"without; pi's with what pi alone offers. Agent replies and tool results are the recorded ones; values are " +
		"checked by code, the rest by the judge.";
	return sanitize(`${head}\n\n${grades}\n${points}\n${costs}\n${compared.join("\n")}\n`);
}

/** Runs `score`; without a usable route it says what it needs and exits 2. */
export async function runScoreCli(
	argv: readonly string[],
	caps: { readonly root: string; readonly resolve: (route: string) => Promise<E.Either<string, ProbeModel>> },
): Promise<CliResult> {
	const args = parseScoreArgs(argv);
	if (E.isLeft(args)) return { stdout: "", stderr: `${sanitize(args.left)}\n`, code: 2 };
	const { route, every } = args.right;
	if (route === undefined) return { stdout: "", stderr: `${NEEDS_ROUTE}\n${SCORE_USAGE}\n`, code: 2 };
	const model = await caps.resolve(route);
	if (E.isLeft(model)) return { stdout: "", stderr: `${sanitize(model.left)}\n`, code: 2 };
	const demo = args.right.files.length === 0;
	const files = demo ? [demoTranscript(caps.root)] : args.right.files;
	const keepRecentTokens = args.right.keepRecentTokens ?? (demo ? DEMO_KEEP_RECENT_TOKENS : undefined);
	const scores: { name: string; score: TranscriptScore }[] = [];
	const problems: string[] = [];
	for (const file of files) {
		const text = readSessionFile(file);
		if (E.isLeft(text)) {
			problems.push(`${pathHash(file)}: ${text.left}`);
			continue;
		}
		const score = await scoreTranscript(text.right, {
			extensionPath: caps.root,
			model: model.right,
			every,
			...(keepRecentTokens === undefined ? {} : { keepRecentTokens }),
		});
		scores.push({ name: pathHash(file), score });
	}
	// A failed call leaves a point unscored or a summary missing: the figures would not be a fair comparison.
	const failed = ROLES.reduce((n, role) => n + usage(scores, role).failed, 0);
	const notes = failed === 0 ? problems : [...problems, `${failed} model calls failed; the comparison is incomplete`];
	return {
		stdout: scores.length === 0 ? "" : scoreReport(model.right.name, scores),
		stderr: notes.length === 0 ? "" : `${sanitize(notes.join("\n"))}\n`,
		code: problems.length > 0 ? 2 : failed > 0 ? 1 : 0,
	};
}

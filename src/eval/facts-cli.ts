import * as E from "fp-ts/lib/Either.js";
import { readSession } from "../adapters/cli/session-file.js";
import type { CliResult } from "../adapters/cli/state-cli.js";
import type { ReadAnomaly } from "../events/index.js";
import { sanitize } from "../projections/index.js";
import { demoTranscript } from "./demo.js";
import { type CompactionFacts, comparedFacts, totals, transcriptFacts } from "./facts.js";
import { transcriptName } from "./path-hash.js";
import { placeText } from "./places.js";
import type { Compactor } from "./recording.js";
import { table } from "./table.js";

/** How facts is called. */
const FACTS_USAGE = "usage: longhaul facts [FILE…]  |  longhaul facts RECORDED --replayed REPLAY";

const COMPACTORS: readonly Compactor[] = ["pi", "longhaul", "other"];

/** What facts measures, said once above its tables. */
const FACTS_HEAD = [
	"facts (no model), per transcript: values (numbers with units, ports, hashes, versions, file paths; 3+ characters) first seen in a span's tool output.",
	"kept: of those not shown again in the kept window and used after the compaction before anything showed them again, how many the summary holds;",
	"reused wide: of every one used after the compaction, how many the summary holds; reachable: of the same, held by the summary or returned by one",
	"longhaul_recall of an id the summary shows. Held = word-bounded, paths normalised.",
].join("\n");

interface Named {
	readonly name: string;
	/** How the compactions were made, said above the transcript's table. */
	readonly how: string;
	readonly facts: readonly CompactionFacts[];
	/** The replay's compactions at the same cuts, when a recording is compared with its replay. */
	readonly replayed: readonly CompactionFacts[];
	/** What the reader could not use in the transcripts read. */
	readonly anomalies: readonly ReadAnomaly[];
}

const ratio = (part: number, whole: number) => `${part}/${whole}`;

/** One transcript's table: per compactor, then per compaction. */
function transcriptReport(named: Named): string {
	const rows = [
		...named.facts.map((f) => ({ label: f.compactor, f })),
		...named.replayed.map((f) => ({ label: `${f.compactor} (replay)`, f })),
	];
	const labels = [...COMPACTORS, ...COMPACTORS.map((c) => `${c} (replay)`)];
	const per = labels.flatMap((label) => {
		const of = rows.filter((r) => r.label === label).map((r) => r.f);
		return of.length === 0 ? [] : [[label, totals(of)] as const];
	});
	const byCompactor = table([
		["compactor", "compactions", "kept", "reused wide", "reachable", "summary chars (mean)"],
		...per.map(([c, s]) => [
			c,
			String(s.compactions),
			ratio(s.kept, s.reused),
			ratio(s.keptWide, s.wide),
			ratio(s.reachable, s.wide),
			String(Math.round(s.summaryChars / s.compactions)),
		]),
	]);
	const each = table([
		["compaction", "keeps from", "compactor", "kept", "reused wide", "reachable", "summary chars"],
		...rows.map(({ label, f }) => [
			String(f.ordinal),
			placeText(f.keptPlace),
			label,
			ratio(f.kept.length, f.reused.length),
			ratio(f.keptWide.length, f.wide.length),
			ratio(f.reachable.length, f.wide.length),
			String(f.summaryChars),
		]),
	]);
	const body = rows.length === 0 ? "no compactions\n" : `${byCompactor}${each}`;
	const anomalies = named.anomalies.map((a) => `anomaly at ${a.entry}: ${a.reason}\n`).join("");
	return `transcript ${named.name} (${named.how})\n${body}${anomalies}`;
}

/** The facts report: its head, then one table per transcript, never pooled. */
function factsReport(named: readonly Named[]): string {
	return sanitize(`${FACTS_HEAD}\n\n${named.map(transcriptReport).join("\n")}`);
}

interface FactsArgs {
	readonly files: readonly string[];
	readonly replayed: string | undefined;
}

function parseFactsArgs(argv: readonly string[]): E.Either<string, FactsArgs> {
	const files: string[] = [];
	let replayed: string | undefined;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] ?? "";
		if (arg === "--replayed") {
			replayed = argv[++i];
			if (replayed === undefined || replayed === "") return E.left(`--replayed needs a file\n${FACTS_USAGE}`);
		} else if (arg === "--help" || arg === "-h") return E.left(FACTS_USAGE);
		else if (arg.startsWith("-")) return E.left(`unknown option ${arg}\n${FACTS_USAGE}`);
		else files.push(arg);
	}
	if (replayed !== undefined && files.length !== 1)
		return E.left(`--replayed compares one recording with its replay\n${FACTS_USAGE}`);
	return E.right({ files, replayed });
}

/** Facts of one recording and its replay: pi's rows from the recording, the replay's rows at the same cuts. */
function compared(recording: string, replay: string): E.Either<string, Named> {
	const recorded = readSession(recording);
	if (E.isLeft(recorded)) return E.left(`${transcriptName(recording)}: ${recorded.left}`);
	const replayed = readSession(replay);
	if (E.isLeft(replayed)) return E.left(`${transcriptName(replay)}: ${replayed.left}`);
	const facts = comparedFacts(recorded.right, replayed.right);
	if (E.isLeft(facts)) return E.left(`${transcriptName(replay)} against ${transcriptName(recording)}: ${facts.left}`);
	return E.right({
		name: transcriptName(recording),
		how: `as recorded, and replayed in ${transcriptName(replay)} at the same cuts; values from the recording`,
		facts: facts.right.recorded,
		replayed: facts.right.replayed,
		anomalies: [...recorded.right.anomalies, ...replayed.right.anomalies],
	});
}

/** Runs `facts` over transcript files (read only; names hashed). */
export function runFactsCli(argv: readonly string[], caps: { readonly root: string }): CliResult {
	const args = parseFactsArgs(argv);
	if (E.isLeft(args)) return { stdout: "", stderr: `${sanitize(args.left)}\n`, code: 2 };
	const { files, replayed } = args.right;
	const named: Named[] = [];
	const problems: string[] = [];
	if (replayed !== undefined) {
		const pair = compared(files[0] ?? "", replayed);
		if (E.isLeft(pair)) problems.push(pair.left);
		else named.push(pair.right);
	} else
		for (const file of files.length > 0 ? files : [demoTranscript(caps.root)]) {
			const transcript = readSession(file);
			if (E.isLeft(transcript)) problems.push(`${transcriptName(file)}: ${transcript.left}`);
			else
				named.push({
					name: transcriptName(file),
					how: "as recorded",
					facts: transcriptFacts(transcript.right),
					replayed: [],
					anomalies: transcript.right.anomalies,
				});
		}
	return {
		stdout: named.length === 0 ? "" : factsReport(named),
		stderr: problems.length === 0 ? "" : `${sanitize(problems.join("\n"))}\n`,
		code: problems.length > 0 ? 2 : 0,
	};
}

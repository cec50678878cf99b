import * as E from "fp-ts/lib/Either.js";
import { sanitize } from "../../projections/sanitize.js";
import { readSessionFile } from "../cli/session-file.js";
import type { CliResult } from "../cli/state-cli.js";
import { demoTranscript } from "./demo.js";
import { type CompactionFacts, totals, transcriptFacts } from "./facts.js";
import { transcriptName } from "./path-hash.js";
import type { Compactor } from "./recording.js";
import { table } from "./table.js";
import { VALUE_KINDS } from "./values.js";

/** How facts is called. */
const FACTS_USAGE = "usage: longhaul facts [FILE…]";

const COMPACTORS: readonly Compactor[] = ["pi", "longhaul", "other"];

/** What facts measures, said once above its tables. */
const FACTS_HEAD =
	"facts (no model): values (numbers with units, ports, hashes, versions, file paths; 3+ characters) first seen in a " +
	"span's tool output, not shown again in the kept window, and used after the compaction in assistant text or tool " +
	"calls; kept = the compaction's summary holds the value verbatim.";

interface Named {
	readonly name: string;
	readonly facts: readonly CompactionFacts[];
}

const share = (kept: number, reused: number) => (reused === 0 ? "-" : `${Math.round((100 * kept) / reused)}%`);

/** The facts tables: per compactor, per compactor and kind, and per compaction. */
function factsReport(named: readonly Named[]): string {
	const all = named.flatMap((n) => n.facts);
	const per = COMPACTORS.map((c) => [c, totals(all.filter((f) => f.compactor === c))] as const);
	const byCompactor = table([
		["compactor", "compactions", "values reused", "values kept", "share", "summary chars (mean)"],
		...per.map(([c, s]) => [
			c,
			String(s.compactions),
			String(s.reused),
			String(s.kept),
			share(s.kept, s.reused),
			s.compactions === 0 ? "-" : String(Math.round(s.summaryChars / s.compactions)),
		]),
	]);
	const byKind = table([
		["kept/reused", ...VALUE_KINDS],
		...per.map(([c, s]) => [c, ...VALUE_KINDS.map((k) => `${s.byKind[k].kept}/${s.byKind[k].reused}`)]),
	]);
	const each = table([
		["transcript", "compaction", "compactor", "values reused", "values kept", "summary chars"],
		...named.flatMap((n) =>
			n.facts.map((f) => [
				n.name,
				String(f.ordinal),
				f.compactor,
				String(f.reused.length),
				String(f.kept.length),
				String(f.summaryChars),
			]),
		),
	]);
	return sanitize(`${FACTS_HEAD}\n\n${byCompactor}\nby kind\n${byKind}\nby compaction\n${each}`);
}

/** Runs `facts` over transcript files (read only; names hashed). */
export function runFactsCli(argv: readonly string[], caps: { readonly root: string }): CliResult {
	const option = argv.find((arg) => arg.startsWith("-"));
	if (option !== undefined) {
		const text = option === "--help" || option === "-h" ? FACTS_USAGE : `unknown option ${option}\n${FACTS_USAGE}`;
		return { stdout: "", stderr: `${sanitize(text)}\n`, code: 2 };
	}
	const files = argv.length > 0 ? argv : [demoTranscript(caps.root)];
	const named: Named[] = [];
	const problems: string[] = [];
	for (const file of files) {
		const text = readSessionFile(file);
		if (E.isLeft(text)) problems.push(`${transcriptName(file)}: ${text.left}`);
		else named.push({ name: transcriptName(file), facts: transcriptFacts(text.right) });
	}
	return {
		stdout: named.length === 0 ? "" : factsReport(named),
		stderr: problems.length === 0 ? "" : `${sanitize(problems.join("\n"))}\n`,
		code: problems.length > 0 ? 2 : 0,
	};
}

import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";

/** One labeled user message of the reader corpus (test/fixtures/reader-corpus/corpus.jsonl). */
export const CorpusRowCodec = t.type({
	text: t.string,
	label: t.union([t.literal("standing"), t.literal("not")]),
	reason: t.string,
	split: t.union([t.literal("tune"), t.literal("holdout")]),
});
export type CorpusRow = t.TypeOf<typeof CorpusRowCodec>;

/** The corpus's rows, each line decoded; a line that does not decode is named by its number. */
export function readCorpus(text: string): { rows: CorpusRow[]; bad: number[] } {
	const rows: CorpusRow[] = [];
	const bad: number[] = [];
	for (const [index, line] of text.split("\n").entries()) {
		if (line.trim() === "") continue;
		let parsed: unknown;
		try {
			parsed = JSON.parse(line);
		} catch {
			bad.push(index + 1);
			continue;
		}
		const row = CorpusRowCodec.decode(parsed);
		if (E.isRight(row)) rows.push(row.right);
		else bad.push(index + 1);
	}
	return { rows, bad };
}

/** How a reader did on some rows: the counts, and precision and recall of `standing` (1 where nothing was picked). */
export interface Score<R extends Labeled = CorpusRow> {
	readonly rows: number;
	readonly truePositives: number;
	readonly falsePositives: number;
	readonly falseNegatives: number;
	readonly precision: number;
	readonly recall: number;
	/** The rows read wrongly. */
	readonly wrong: readonly R[];
}

/** What a score needs of a row: its text and its label. */
export type Labeled = Pick<CorpusRow, "text" | "label">;

export function score<R extends Labeled>(rows: readonly R[], reads: (text: string) => boolean): Score<R> {
	let truePositives = 0;
	let falsePositives = 0;
	let falseNegatives = 0;
	const wrong: R[] = [];
	for (const row of rows) {
		const picked = reads(row.text);
		const standing = row.label === "standing";
		if (picked && standing) truePositives++;
		if (picked && !standing) falsePositives++;
		if (!picked && standing) falseNegatives++;
		if (picked !== standing) wrong.push(row);
	}
	const ratio = (n: number, d: number) => (d === 0 ? 1 : n / d);
	return {
		rows: rows.length,
		truePositives,
		falsePositives,
		falseNegatives,
		precision: ratio(truePositives, truePositives + falsePositives),
		recall: ratio(truePositives, truePositives + falseNegatives),
		wrong,
	};
}

/**
 * Labels for the user messages of real transcripts (test/fixtures/reader-corpus/transcripts.json), by ref, so no
 * message text is copied: per transcript file, the standing refs and the refs that hold a rule word but are not, each
 * with its reason. A message listed in neither holds no rule word and no "from now on": it reads `not`.
 */
export const TranscriptLabelsCodec = t.record(
	t.string,
	t.type({ standing: t.record(t.string, t.string), not: t.record(t.string, t.string) }),
);
export type TranscriptLabels = t.TypeOf<typeof TranscriptLabelsCodec>;

/** The labels, or undefined when the file does not decode. */
export function readTranscriptLabels(text: string): TranscriptLabels | undefined {
	try {
		const labels = TranscriptLabelsCodec.decode(JSON.parse(text));
		return E.isRight(labels) ? labels.right : undefined;
	} catch {
		return undefined;
	}
}

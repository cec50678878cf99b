import { words } from "../src/adapters/recall/words.js";
import { looseIndex, looseSearch, occurrences, ownWords, userText } from "../src/events/index.js";
import { jsonObjectIn } from "../src/pass/answer/index.js";
import { valueEvents } from "../src/pass/ledger/index.js";
import { headTail } from "../src/pass/prompt/index.js";
import { readsAsStandingRule } from "../src/pass/reader/index.js";
import { cutCommand } from "../src/projections/index.js";
import { foldTranscript } from "../src/reducers/index.js";
import { retypedRulesTranscript } from "./fold-bench.js";
import { median, plainScan, report, reportGrowth, timeRuns } from "./measure.js";

// The readers of strangers' text other than the redactor (bench/redact-bench.ts), each on the worst input a hunt found
// for it (2026-12-07): a user's message for the standing-rule reader and for the search of a rule's words in it, a
// command's output for the ledger's values, a model's reply for the JSON in it, any passage for recall's words. Each
// input is timed at a size and at four times that size: a reader linear in its text grows about 4x, one quadratic 16x.
// The guillemets are timed from 256K: since ownWords blanks through a mask (2026-12-07) 64K takes 0.2 ms, too short
// for the noise of one run.

interface Worst {
	readonly name: string;
	/** The input of `chars` characters. */
	readonly input: (chars: number) => string;
	readonly read: (text: string) => unknown;
	/** The smaller size; the larger is four times it. */
	readonly chars: number;
}

const rule = (text: string) => readsAsStandingRule(text);

/** The text's second half, searched for in the whole: a stored rule's words in its message, as the fold checks them. */
const secondHalf = (text: string) => text.slice(text.length / 2);

const WORST: readonly Worst[] = [
	{
		name: "a quoted passage in a user's message",
		input: (n) => `He wrote "${"lorem ipsum ".repeat(n / 12)}" and left`,
		read: rule,
		chars: 16_384,
	},
	{
		name: "a run of dots in a user's message",
		input: (n) => `tests/test_a.py ${".".repeat(n)}F`,
		read: rule,
		chars: 16_384,
	},
	{ name: "a run of # in a user's message", input: (n) => "#".repeat(n), read: rule, chars: 16_384 },
	{ name: "a run of commas before a question", input: (n) => `x${",".repeat(n)}y?`, read: rule, chars: 16_384 },
	{
		name: "guillemets never closed in a user's message",
		input: (n) => "\u00ab a".repeat(n / 3),
		read: ownWords,
		chars: 262_144,
	},
	{
		name: "guillemets never closed, through the reader",
		input: (n) => "\u00ab a".repeat(n / 3),
		read: rule,
		chars: 65_536,
	},
	{
		name: "goal tags never closed in a user's message",
		input: (n) => "<goal>".repeat(n / 6),
		read: userText,
		chars: 65_536,
	},
	{
		name: "rule words all through one clause",
		input: (n) => "the test never passes when the build only fails and it always hangs ".repeat(n / 68),
		read: rule,
		chars: 2_048,
	},
	{
		name: "'port' and blanks in a command's output",
		input: (n) => `Listening on port${" ".repeat(n)}`,
		read: (output) => valueEvents([{ id: "C1", output }]),
		chars: 4_096,
	},
	{
		name: "a fence and blanks in a model's reply",
		input: (n) => `\`\`\`${" ".repeat(n)}x`,
		read: (reply) => jsonObjectIn(reply, ["labels"]),
		chars: 16_384,
	},
	{
		name: "Chinese with no break, for recall's words",
		input: (n) => "我们今天去学校学习中文".repeat(n / 11),
		read: words,
		chars: 16_384,
	},
	{
		name: "a rule's words in a periodic message, verbatim",
		input: (n) => "a".repeat(n),
		read: (text) => occurrences(text, secondHalf(text), { start: 0, end: text.length }),
		// Linear is well under a millisecond at 16K, too short for the noise of one run; at 1M the half a million
		// places found cost the collector more than the search (7-8x for 4x).
		chars: 65_536,
	},
	{
		name: "a rule's words in a periodic message, loosely",
		input: (n) => "a ".repeat(n / 2),
		read: (text) => looseSearch(text)(secondHalf(text)),
		chars: 16_384,
	},
	{
		name: "a message's rules stored retyped and last first, as the fold checks them",
		input: retypedRulesTranscript,
		read: foldTranscript,
		// 2,200 rules and 8,700: searched one by one, each rule cost the message's length (14x at 4x the text).
		chars: 262_144,
	},
	{
		name: "a periodic message's index (every round of the suffix sort), asked once",
		input: (n) => "a ".repeat(n / 2),
		read: (text) => looseIndex(text, [{ start: 0, end: text.length }])(secondHalf(text)),
		// The text's length times its log: about 4.6x at 4x the text.
		chars: 65_536,
	},
];

/** How each reader's time grows with four times the text, on its worst input: at most 6x (linear is 4x). */
export function strangersTextBench(): void {
	process.stdout.write("\nReaders of strangers' text on their worst inputs (time at 4x the text, against 1x):\n");
	for (const worst of WORST) {
		const small = worst.input(worst.chars);
		const large = worst.input(4 * worst.chars);
		const size = `${large.length} chars`;
		reportGrowth(
			`text cost, ${worst.name}`,
			() => worst.read(small),
			() => worst.read(large),
			size,
		);
	}
}

const MB = 1024 * 1024;

/**
 * Readers that keep a part of a long text: a tool result's head and tail in the prompt (prompt.ts keeps 80 and 50
 * characters), a command beside its value or error. They put only that part's ends on one line, so 16 MB costs them
 * less than one scan of it (2026-12-07; flattening it all took 1.7-3.2 s).
 */
const ENDS_ONLY: readonly {
	readonly name: string;
	/** Made when timed, so no other benchmark's process holds its 16 MB (a fork costs more the more it holds). */
	readonly input: () => string;
	readonly read: (text: string) => string;
}[] = [
	{
		name: "a tool result's ends, for the prompt",
		input: () => "npm ERR! code ELIFECYCLE at /home/x/proj/index.js:12:5\n".repeat((16 * MB) / 56),
		read: (text) => headTail(text, 80, 50),
	},
	{
		name: "a heredoc command, beside its value",
		input: () => `cd /repo && cat > src/big.ts <<'EOF'\n${"export const x = [1, 2, 3];\n".repeat((16 * MB) / 28)}EOF`,
		read: cutCommand,
	},
];

/** The readers that keep a part of a long text, each against a plain scan of it: at most 1x. */
export function endsOnlyBench(): void {
	process.stdout.write("\nReaders that keep a part of a long text (16 MB; against a plain scan of the same text):\n");
	for (const { name, input: made, read } of ENDS_ONLY) {
		const input = made();
		const scanMs = Math.max(median(timeRuns(5, () => plainScan([input]))), 0.001);
		const ms = median(timeRuns(5, () => read(input)));
		const ratio = ms / scanMs;
		report(
			`ends cost, ${name}`,
			`${ms.toFixed(3)} ms, ${ratio.toFixed(3)}x scan`,
			"<= 1x a scan of the text",
			ratio <= 1,
		);
	}
}

/**
 * Commands whose exit 1 reports an answer, not a failure (docs/contracts.md, Values in the summary): grep and its kin
 * found nothing, diff and cmp found a difference, test and `[` were false.
 */
const ANSWER_ON_ONE: ReadonlySet<string> = new Set(["grep", "rg", "egrep", "fgrep", "diff", "cmp", "test", "["]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Whether a simple command's name, past variable assignments, its quotes and a path, is one of `ANSWER_ON_ONE`.
 * A word's first character is kept raw so `[` stays `[`.
 */
function answersOnOne(segment: string): boolean {
	for (const word of segment.replace(/^[\s({]+/, "").split(/\s+/)) {
		if (ASSIGNMENT.test(word)) continue;
		const unquoted = word.replace(/^(["'])(.*)\1$/, "$2");
		return ANSWER_ON_ONE.has(unquoted.slice(unquoted.lastIndexOf("/") + 1));
	}
	return false;
}

/** Whether `&` at `i` is part of a redirection (`2>&1`, `&>file`, `>&2`) rather than a separator. */
function isRedirection(text: string, i: number): boolean {
	return text[i - 1] === ">" || text[i - 1] === "<" || text[i + 1] === ">";
}

/**
 * The text of the last simple command of a shell line: after the last `|`, `&&`, `||`, `;`, `&` or line break
 * that stands outside quotes, `$(…)` and backticks. The shell's exit status is that command's (without pipefail).
 * Exported for tests.
 */
export function lastSimpleCommand(text: string): string {
	let quote: string | null = null;
	let depth = 0;
	let start = 0;
	let last = "";
	const cut = (end: number, next: number) => {
		const segment = text.slice(start, end);
		if (segment.trim() !== "") last = segment;
		start = next;
	};
	for (let i = 0; i < text.length; i++) {
		const ch = text[i];
		if (ch === "\\" && quote !== "'") {
			i++;
			continue;
		}
		if (quote !== null) {
			if (ch === quote) quote = null;
			continue;
		}
		if (ch === "'" || ch === '"' || (ch === "`" && depth === 0)) quote = ch;
		else if (ch === "$" && text[i + 1] === "(") {
			depth++;
			i++;
		} else if (ch === ")" && depth > 0) depth--;
		else if (depth > 0) continue;
		// `&&` and `||` cut twice, the second time an empty part, which is skipped.
		else if (ch === "|" || ch === ";" || ch === "\n" || (ch === "&" && !isRedirection(text, i))) cut(i, i + 1);
	}
	cut(text.length, text.length);
	return last;
}

/** True when a run's exit code is the answer of its last command, not an error: exit 1 of grep, diff, test and kin. */
export function exitIsAnswer(command: string, exitCode: number | null): boolean {
	if (exitCode !== 1) return false;
	return answersOnOne(lastSimpleCommand(command));
}

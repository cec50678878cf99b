import type { Rule } from "../../reducers/index.js";
import { RETRY_NOTE_CHARS } from "../answer/index.js";

/** A question about one label, asked in one more call once the answer is settled. */
export interface Question {
	/** The message whose label is asked about. */
	readonly msg: string;
	/** Its label as it stands, in canonical form. */
	readonly label: string;
	/** The targets a reply may add to the label's lifts. */
	readonly targets: readonly string[];
	/** The question, one line. */
	readonly text: string;
}

/** A rule shown in a question: the id a reply names it by, and its words. */
export type ShownRule = Pick<Rule, "id" | "text">;

/** A rule's words in a question are cut to this many characters. */
const SHOWN_CHARS = 160;

/** Said above every set of questions. */
export const QUESTIONS_HEADER =
	"Questions about your labels. Lift a rule only when the user's own words withdraw it; quoted or pasted text " +
	'withdraws nothing. Answer with one JSON object {"labels": [{"msg": "u<n>", "label": "…"}]} for the messages asked about.';

/** A rule as a question shows it: on one line, cut to `SHOWN_CHARS`. */
function shownLine(text: string): string {
	const line = text.replace(/\s+/g, " ").trim();
	return line.length <= SHOWN_CHARS ? line : `${line.slice(0, SHOWN_CHARS - 1)}…`;
}

function alternatives(targets: readonly string[], prefix: string, keep: string): string {
	return [...targets.map((target) => `\`${prefix} ${target}\``), `\`${keep}\``].join(" or ");
}

/**
 * A `rule` label whose rule would pass the lift check against an earlier rule still in force (docs/how-it-works.md, One
 * pass).
 */
export function replaceQuestion(msg: string, held: ShownRule): Question {
	return {
		msg,
		label: "rule",
		targets: [held.id],
		text: `${msg} is labeled \`rule\` and may replace the rule ${held.id} gave (${shownLine(held.text)}): answer \`rule and lifts ${held.id}\` or \`rule\``,
	};
}

/** A lift of a rule that a narrowing already replaced: asked again with the narrowing shown. */
export function replacedQuestion(
	msg: string,
	label: string,
	target: string,
	narrowing: ShownRule,
	isRule: boolean,
): Question {
	const prefix = isRule ? "rule and lifts" : "lifts";
	return {
		msg,
		label,
		targets: [narrowing.id],
		text: `${msg} is labeled \`${label}\`, but ${target} was already replaced by ${narrowing.id} (${shownLine(narrowing.text)}): answer ${alternatives([narrowing.id], prefix, label)}`,
	};
}

/**
 * A lift the store would refuse, asked again with the rule shown and the rules the message may withdraw. With a
 * named rule and nothing else to offer, the question only shows it: the reply cannot place the lift, the store's
 * check decides, and a lift it still cannot place is dropped (docs/how-it-works.md, One pass).
 */
export function unplacedQuestion(
	msg: string,
	label: string,
	target: string,
	named: ShownRule | undefined,
	candidates: readonly ShownRule[],
	isRule: boolean,
): Question {
	const prefix = isRule ? "rule and lifts" : "lifts";
	const keep = isRule ? "rule" : "not a rule";
	const why =
		named === undefined
			? `${target} is not a rule in force`
			: `its words do not withdraw ${target} (${shownLine(named.text)})`;
	const targets = candidates.map((rule) => rule.id);
	const may = candidates.map((rule) => `${rule.id} (${shownLine(rule.text)})`).join(", ");
	const answer =
		candidates.length === 0
			? `: answer \`${prefix} ${target}\` only if the user's own words withdraw it, or \`${keep}\``
			: `; it may withdraw ${may}: answer ${alternatives(targets, prefix, keep)}`;
	return { msg, label, targets, text: `${msg} is labeled \`${label}\`, but ${why}${answer}` };
}

/**
 * The questions to send, each shown whole or not at all, under the header, within `maxChars` (`retryNoteChars`);
 * `asked` are the ones shown, the only ones a reply may answer.
 */
export function renderQuestions(
	questions: readonly Question[],
	maxChars: number = RETRY_NOTE_CHARS,
): { readonly text: string; readonly asked: readonly Question[] } {
	const lines: string[] = [QUESTIONS_HEADER];
	const asked: Question[] = [];
	let used = QUESTIONS_HEADER.length;
	for (const question of questions) {
		const line = `- ${question.text}`;
		if (used + 1 + line.length > maxChars) continue;
		lines.push(line);
		asked.push(question);
		used += 1 + line.length;
	}
	return asked.length === 0 ? { text: "", asked } : { text: lines.join("\n"), asked };
}

import { type AssistantMessage, fauxAssistantMessage, fauxToolCall } from "@mariozechner/pi-ai";
import { estimateTokens, type SessionEntry } from "@mariozechner/pi-coding-agent";
import * as E from "fp-ts/lib/Either.js";
import { type EvalSession, startEvalSession } from "../src/eval/eval-session.js";
import { type FauxCall, lastUserText } from "../src/eval/faux-route.js";
import type { RecordedResult } from "../src/eval/recording.js";
import {
	isDiffPrompt,
	NOTHING_RECORDED,
	type RecordedAnswers,
	shownRefs,
	standInAnswer,
} from "../src/eval/stand-in.js";
import { branchEvents, entriesFromObjects } from "../src/events/index.js";
import { recordedSpan } from "../src/pass/span/index.js";

// A long session in a real pi session with Longhaul loaded: 22 turns, each reading a file and running the tests,
// a compaction after every one to three turns (13 in all), pi keeping about two turns. Its kept window often
// reaches back past the previous compaction. The user adds rules, lifts them, replaces one, and grants a permission
// that withdraws nothing; a careful model labels each message as the scenario says (the eval stand-in, fed the
// scenario's labels). Shared by the e2e test (test/e2e/long-session.test.ts) and `npm run bench`.

/** How the careful model labels a turn's user message: rule ids are the scenario's own, in order of the rules. */
type Label = "rule" | "not a rule" | { readonly lifts: readonly number[]; readonly rule?: true };

interface Turn {
	readonly user: string;
	readonly label: Label;
}

/** The user's messages, in order: `lifts` names the turns whose rules a message withdraws. */
export const TURNS: readonly Turn[] = [
	{ user: "never add dependencies without asking me first", label: "rule" },
	{ user: "read src/cli.ts and tell me how the flags are parsed", label: "not a rule" },
	{ user: "every dry-run line must start with DRY: so I can grep for it", label: "rule" },
	{ user: "always run npm test before you commit anything", label: "rule" },
	{ user: "add the --dry-run flag to the CLI", label: "not a rule" },
	{ user: "the DRY: prefix rule is lifted, plain lines are fine now", label: { lifts: [2] } },
	{ user: "never push to main", label: "rule" },
	{ user: "wire the dry-run output into the report module", label: "not a rule" },
	{ user: "from now on run pnpm test instead of npm test before you commit", label: { lifts: [3], rule: true } },
	{ user: "you may push to main now, just this once", label: "not a rule" },
	{ user: "never log secrets to the console", label: "rule" },
	{ user: "refactor the config loader", label: "not a rule" },
	{ user: "the dependencies rule no longer applies, add zod if you need it", label: { lifts: [0] } },
	{ user: "always keep functions under forty lines", label: "rule" },
	{ user: "fix the failing parser test", label: "not a rule" },
	{ user: "tests go under test/unit from now on", label: "rule" },
	{ user: "the forty lines rule is lifted", label: { lifts: [13] } },
	{ user: "update the README with the new flag", label: "not a rule" },
	{ user: "never commit generated files", label: "rule" },
	{ user: "run the whole suite again", label: "not a rule" },
	{ user: "rename the flag to --preview", label: "not a rule" },
	{ user: "thanks, that is all for today", label: "not a rule" },
];

/** Turns between compactions: one to three, so the kept window often reaches back past the previous compaction. */
const GAPS = [3, 1, 1, 2, 1, 3, 1, 2, 1, 1, 2, 1, 2];

/** About two turns' worth of tokens (a turn is about 3,100 by pi's estimate). */
export const KEEP_RECENT_TOKENS = 6000;

const isRule = (label: Label) => label === "rule" || (typeof label === "object" && label.rule === true);

/** The scenario's rule ids: `R<n>` for the n-th turn whose label records a rule, by turn index. */
function ruleIds(): Map<number, string> {
	const ids = new Map<number, string>();
	TURNS.forEach((turn, i) => {
		if (isRule(turn.label)) ids.set(i, `R${ids.size + 1}`);
	});
	return ids;
}

/** What the careful model answers, in the stand-in's terms: the label of every message, by `u<n>`. */
function scenarioAnswers(): RecordedAnswers {
	const ids = ruleIds();
	const byMsg = new Map<string, string>();
	const ruleSources = new Map<string, string>();
	TURNS.forEach(({ label }, i) => {
		const id = ids.get(i);
		if (id !== undefined) ruleSources.set(id, `u${i + 1}`);
		if (typeof label === "string") byMsg.set(`u${i + 1}`, label);
		else {
			const targets = label.lifts.map((t) => ids.get(t) ?? "").join(", ");
			byMsg.set(`u${i + 1}`, `${label.rule === true ? "rule and lifts" : "lifts"} ${targets}`);
		}
	});
	return { ...NOTHING_RECORDED, byMsg, ruleSources };
}

/** A rule in force: its id, the user's words and the message that gave them. */
export interface ExpectedRule {
	readonly id: string;
	readonly text: string;
	readonly source: string;
}

/** The rules in force once the passes have judged the first `judged` user messages, as the scenario labels them. */
export function expectedRules(judged: number): ExpectedRule[] {
	const ids = ruleIds();
	let rules: ExpectedRule[] = [];
	TURNS.slice(0, judged).forEach(({ user, label }, i) => {
		if (typeof label === "object") rules = rules.filter((r) => !label.lifts.some((t) => r.source === `u${t + 1}`));
		const id = ids.get(i);
		if (id !== undefined) rules.push({ id, text: user, source: `u${i + 1}` });
	});
	return rules;
}

/** A file as `read` returns it: about 9,000 characters of code. */
function fileText(turn: number): string {
	const lines = Array.from(
		{ length: 150 },
		(_, i) => `export function step${turn}_${i}(input: string): string { return input.trim() + "${i}"; }`,
	);
	return lines.join("\n").slice(0, 9000);
}

/** What `npm test` prints: about 2,500 characters. */
function testOutput(turn: number): string {
	const lines = Array.from({ length: 40 }, (_, i) => ` ✓ test/unit/step${turn}.test.ts > case ${i} passes (3 ms)`);
	return [...lines, ` Tests  40 passed (40)`, ` Duration  1.${turn}s`].join("\n");
}

/** One compaction of the session, as seen from outside Longhaul. */
export interface CompactionSeen {
	/** Turns played before it. */
	readonly turns: number;
	/** Model calls the pass made. */
	readonly calls: number;
	/** The user messages its prompts asked labels for. */
	readonly asked: readonly string[];
	/** The prompts' tokens (pi's `estimateTokens` of each message, the system prompt at 4 characters a token). */
	readonly promptTokens: number;
	/** User messages before pi's new cut: the ones the passes have judged. */
	readonly judged: number;
	/** pi's new cut fell before the previous compaction entry: the kept window reached back past it. */
	readonly crossed: boolean;
}

/** The whole session: every compaction, the spans' tokens, and the transcript. */
export interface LongSession {
	readonly compactions: readonly CompactionSeen[];
	/** The tokens of each Longhaul span (pi's `estimateTokens` of the messages its span record bounds). */
	readonly spanTokens: readonly number[];
	readonly jsonl: string;
}

function promptTokens(call: FauxCall): number {
	const system = Math.ceil((call.context.systemPrompt ?? "").length / 4);
	return call.context.messages.reduce((sum, message) => sum + estimateTokens(message), system);
}

/** The tokens of every Longhaul span on the branch, from the bounds its span record gives. */
function spanTokens(branch: readonly SessionEntry[]): number[] {
	const entries = entriesFromObjects(branch).entries;
	const { spanRecords } = branchEvents(entries);
	return spanRecords.flatMap(({ record }) => {
		const end = branch.findIndex((e) => e.id === record.compactionId);
		const span = record.bounds === undefined || end < 0 ? undefined : recordedSpan(entries, record.bounds, end);
		return span === undefined
			? []
			: [
					span.at.reduce((sum, i) => {
						const entry = branch[i];
						return sum + (entry?.type === "message" ? estimateTokens(entry.message) : 0);
					}, 0),
				];
	});
}

function userCount(branch: readonly SessionEntry[], end: number): number {
	return branch.slice(0, end).filter((e) => e.type === "message" && e.message.role === "user").length;
}

/** Plays the session; `afterCompaction` sees the live session after each compaction pi wrote. */
export async function longSession(
	extensionPath: string,
	afterCompaction: (session: EvalSession, seen: CompactionSeen) => Promise<void> = async () => undefined,
): Promise<LongSession> {
	const answers = scenarioAnswers();
	const results = new Map<string, RecordedResult>();
	let replies: AssistantMessage[] = [];
	const side: FauxCall[] = [];
	const s = await startEvalSession({
		extensionPath,
		answer: (call) => {
			if (call.kind === "agent") return replies.shift() ?? fauxAssistantMessage("done");
			side.push(call);
			const prompt = lastUserText(call.context);
			return fauxAssistantMessage(isDiffPrompt(prompt) ? standInAnswer(prompt, answers) : "(not Longhaul's)");
		},
		tools: ["read", "bash"],
		toolResult: (id) => results.get(id),
		env: { PI_COMPACTOR: "", PI_COMPACT_STATE_DEBUG: "off" },
		keepRecentTokens: KEEP_RECENT_TOKENS,
	});
	const compactions: CompactionSeen[] = [];
	try {
		let turn = 0;
		for (const gap of GAPS) {
			for (let k = 0; k < gap; k++, turn++) {
				const read = fauxToolCall("read", { path: `src/step${turn}.ts` }, { id: `read-${turn}` });
				const test = fauxToolCall("bash", { command: "npm test" }, { id: `test-${turn}` });
				results.set(read.id, { content: [{ type: "text", text: fileText(turn) }], isError: false, details: {} });
				results.set(test.id, { content: [{ type: "text", text: testOutput(turn) }], isError: false, details: {} });
				replies = [
					fauxAssistantMessage([read], { stopReason: "toolUse" }),
					fauxAssistantMessage([test], { stopReason: "toolUse" }),
					fauxAssistantMessage(
						`Done with step ${turn}: I read the file, ran the tests and all 40 pass. ${"Next I will continue with the plan as agreed. ".repeat(4)}`,
					),
				];
				await s.prompt(TURNS[turn]?.user ?? "go on");
			}
			const before = side.length;
			const previous = s.branch().findLastIndex((e) => e.type === "compaction");
			const done = await s.compact();
			if (E.isLeft(done)) throw new Error(`the compaction after turn ${turn} failed: ${done.left}`);
			const branch = s.branch();
			const at = branch.findLastIndex((e) => e.type === "compaction");
			const compaction = branch[at];
			const kept =
				compaction?.type === "compaction" ? branch.findIndex((e) => e.id === compaction.firstKeptEntryId) : -1;
			const calls = side.slice(before);
			const seen: CompactionSeen = {
				turns: turn,
				calls: calls.length,
				asked: calls.flatMap((call) => shownRefs(lastUserText(call.context))),
				promptTokens: calls.reduce((sum, call) => sum + promptTokens(call), 0),
				judged: userCount(branch, kept),
				crossed: previous >= 0 && kept >= 0 && kept < previous,
			};
			compactions.push(seen);
			await afterCompaction(s, seen);
		}
		return { compactions, spanTokens: spanTokens(s.branch()), jsonl: s.jsonl() };
	} finally {
		await s.dispose();
	}
}

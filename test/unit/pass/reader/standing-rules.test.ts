import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readsAsStandingRule, ruleSentences, standingRules } from "../../../../src/pass/reader/standing-rules.js";
import { proseOf } from "../../../../src/pass/reader/text.js";
import { law } from "../../../properties/laws.js";
import { userMessage } from "../../../support/users.js";

type Row = readonly [text: string, standing: boolean, why: string];

const RULE = true;
const NOT = false;

/**
 * Every example sentence of the reader's definition (the examples docs/how-it-works.md, Taking over from another
 * compactor gives, and their kin).
 */
const SEED: readonly Row[] = [
	["never deploy on a Friday, not even this time", RULE, "judged clause by clause: 'not even this time' widens"],
	["don't forget it", RULE, "'don't forget' withdraws nothing, and 'don't' is a rule word"],
	["forget it", NOT, "a withdrawal with no rule word"],
	["never mind", NOT, "'never mind' is not a rule"],
	["an option that keeps only lines", NOT, "describes a thing"],
	[
		"switch to two-space indentation instead of tabs from now on",
		RULE,
		"'from now on', and 'instead of' lifts nothing",
	],
	["tests go under tests/", NOT, "no rule word: the model labels it"],
	["our servers run Node 22", NOT, "no rule word: the model labels it"],
	["the DRY: prefix rule is lifted", NOT, "a withdrawal"],
	["never push to main, ok?", RULE, "a closing 'ok?' asks nothing"],
	["from here on, keep the changelog updated", RULE, "'from here on' withdrawing nothing"],
	["going forward we squash every pull request", RULE, "'going forward' withdrawing nothing"],
	["don't push yet", NOT, "a request for now: 'yet'"],
	["only run the fast tests for now", NOT, "a request for now: 'for now'"],
	["this time, skip the e2e suite and don't bump the version", NOT, "a request for now: 'this time' scopes it"],
];

const QUESTIONS: readonly Row[] = [
	["should we never use tabs?", NOT, "a question is never counted"],
	["never push to main?", NOT, "a bare question mark makes it a question"],
	["should we never use tabs, right?", NOT, "'right?' asks; only an acknowledgement tag asks nothing"],
	["always run the linter before committing, is that clear?", RULE, "'is that clear?' asks nothing"],
	["do you always run lint before pushing", NOT, "worded as a question though its mark is missing"],
	["why don't we always squash", NOT, "a wh-question without its mark"],
	["can you always run lint before pushing?", NOT, "a request worded as a question is still a question"],
	["could you always run lint before pushing", RULE, "without its mark a 'could you' is a request, not a question"],
	["should we always rebase, ok?", NOT, "the tag comes off a sentence that is itself a question"],
	["what do you think? never use tabs in YAML", RULE, "the question is one sentence, the rule another"],
];

const FOR_NOW: readonly Row[] = [
	["for now, only run the fast tests", NOT, "a clause that is only 'for now' scopes its sentence"],
	["don't merge anything today", NOT, "'today' is for now"],
	["just this once, don't run the formatter", NOT, "'this once' is for now"],
	["don't deploy right now", NOT, "'right now' is for now"],
	["never force-push, not even for now", RULE, "'even' widens the rule instead of scoping it"],
	["don't push yet and always run the tests first", RULE, "'and always' opens a piece of its own"],
	["only run the fast tests and skip the slow ones for now", NOT, "no rule word after 'and': one piece, for now"],
	["never add dependencies; for this task only use the standard library", RULE, "the first clause stands alone"],
	["never add yet another wrapper", RULE, "'yet another' is no request for now"],
];

const WITHDRAWALS: readonly Row[] = [
	["forget the tabs rule", NOT, "a withdrawal, no rule word"],
	["never mind the lint step", NOT, "'never mind' withdraws"],
	["nevermind, don't bother", NOT, "'don't bother' is 'no need to'"],
	["never mind the docs, always run the tests", RULE, "the rule clause withdraws nothing"],
	["you don't need to run lint anymore", NOT, "'don't need to' withdraws"],
	["from now on, forget the tabs rule", NOT, "'from now on' that withdraws something"],
	["never cancel a running deploy", RULE, "a withdrawal word after the rule word is what the rule forbids"],
	["the tabs rule no longer applies, always use spaces", RULE, "the rule clause withdraws nothing"],
	["forget what I said about always using tabs", NOT, "the withdrawal comes before the rule word"],
];

const SUBJECTS: readonly Row[] = [
	// The seed: a description of what is being built is not a rule. A norm is: "must" lays down how the work goes
	// whatever its subject, and only what a thing does or is ("a flag that only prints errors") describes it.
	["add a flag that only prints errors", NOT, "describes the flag ('that only')"],
	// These two rows changed with issue 15's reader: today's reader read a spec's "must" as describing the thing,
	// but the clause instructs how the code is to be from now on (a norm, like "the tests must always pass").
	["the function must return -1 on failure", RULE, "a norm on the code being built: 'must' instructs"],
	["it must return -1 on failure", RULE, "a norm whatever its subject: 'must' instructs"],
	["you must return -1 on failure", RULE, "the subject is the agent"],
	["we must always rebase before merging", RULE, "the subject is the user's team"],
	["always rebase before merging", RULE, "an imperative"],
	["every commit must be signed", RULE, "a quantified policy"],
	["the code must run on Node 22", RULE, "'the code' is the project, a policy noun"],
	["make sure it never throws", RULE, "'make sure' makes an instruction of anything"],
	["I never want to see tabs again", RULE, "the user's own will"],
	["I really don't want new dependencies", RULE, "'I don't want' is a rule"],
	["I don't know", NOT, "'don't' of a state of mind"],
	["I always forget the changelog", NOT, "the user describing themselves"],
	["you don't understand the problem", NOT, "a person's 'don't' of a state of mind"],
	["we don't use semicolons here", RULE, "the team's practice"],
	["I said never push to main", RULE, "what follows a verb of saying is said"],
	["I told you never to push to main", RULE, "'you' binds the rule"],
	["it doesn't stop", NOT, "'stop' describing a thing"],
	["the build never finishes", NOT, "a report about a thing"],
	["it's only a draft", NOT, "'only' describing a thing"],
	["the only way is to rewrite it", NOT, "'the only' is an adjective"],
	["please only commit when the tests pass", RULE, "an imperative after 'please'"],
	["run the fast tests only", RULE, "an imperative verb before 'only'"],
	["keep functions short, and never use any", RULE, "an imperative after 'and'"],
	["the parser is fast and never allocates", NOT, "'and never' keeps the thing the clause describes"],
	["let's always write the test first", RULE, "'let's' binds the user and the agent"],
];

const RELATIVES: readonly Row[] = [
	// "Describing a thing" (docs/how-it-works.md, Taking over from another compactor) in the sentences users write: a
	// rule word in a relative clause about a thing describes that thing, whatever opens the sentence.
	["add an option that keeps only lines", NOT, "'only' in the clause about the option, though 'add' opens it"],
	[
		"add a --grep option that keeps only lines matching the pattern",
		NOT,
		"'only' describes the --grep option; the nearest word before it is the verb 'keeps'",
	],
	["Add a flag that keeps only lines with errors", NOT, "'only' describes the flag"],
	["write a script that never touches the network", NOT, "'never' describes the script"],
	["add a test which always runs first", NOT, "'which' opens a clause about the test"],
	["hire a reviewer who never approves without tests", NOT, "'who' opens a clause about the reviewer"],
	["add an option that must be set", NOT, "a modal right after the relative is the option's"],
	["write a parser that is fast and never allocates", NOT, "the relative clause runs to the end of the clause"],
	["make sure that you never push to main", RULE, "'that' after 'make sure' opens what is said, not a relative"],
	["I told you that you must never push to main", RULE, "'that you' opens what was told"],
	["don't add an option that only prints errors", RULE, "the rule word before the relative lays down a rule"],
	["never write code that only works on Linux", RULE, "'never' before the relative binds the agent"],
	[
		"every function that touches the network must be mocked",
		RULE,
		"a modal after the relative clause's own verb is the main clause's: a policy",
	],
	["add a flag that prints errors, and never push to main", RULE, "the comma ends the relative clause"],
];

const IDIOMS: readonly Row[] = [
	["you must be right", NOT, "'must be right' is a guess, not a duty"],
	["you must have missed the second file", NOT, "'must have' and a participle is a guess"],
	["you must be careful with migrations", RULE, "'must be careful' is a duty"],
	["as always, thanks", NOT, "'as always' is an idiom"],
	["not only is it slow, it is wrong", NOT, "'not only' hedges"],
	["don't worry about the lint warnings", NOT, "'don't worry' lays down nothing"],
	["ok so do not want to lose anything", NOT, "a lead-in is no one wanting: the words before 'do not' leave it out"],
	["stop", NOT, "a bare 'stop' halts this turn"],
	["stop the dev server", NOT, "'stop' of a process is a one-off"],
	["stop adding comments to every line", RULE, "'stop' of a habit"],
	["never again", RULE, "'never' with nothing to scope it"],
];

const OWN_WORDS: readonly Row[] = [
	['he said "never use tabs in this file ever again"', NOT, "a quote of six words or more is not the user's"],
	// Changed with issue 15's reader: today's reader took a short quote for the user's own words, but a clause that
	// quotes or relays someone else describes what they said; the model labels the message.
	['he said "never use tabs"', NOT, "a quote, however short, relays someone else's words"],
	["git says 'fatal: you must specify a branch'", NOT, "a single-quoted passage is a quote too"],
	["the README says never run it as root", NOT, "what follows someone else's 'says' is relayed"],
	["the tool prints: you must be logged in", NOT, "what follows a verb of printing and a colon is output"],
	["Error: Only absolute URLs are supported", NOT, "a pasted error line"],
	["```\nnever push to main\n```", NOT, "a code fence"],
	["here is the hook:\n```sh\n# never push to main\n```\nwhat does it do?", NOT, "a fence, then a question"],
	["> never push to main\nthat is what the old README says", NOT, "a blockquote"],
	["never use `var`", RULE, "inline code is left out, the prose around it stays"],
	["the `--only` flag is broken", NOT, "a flag is no rule word"],
	["Template text.\n<objective>\nship the CLI\n</objective>\nDo not repeat completed work.", NOT, "goal template"],
	["Template text.\n<objective>\nship it; never add dependencies\n</objective>", RULE, "the goal's own words"],
];

const SPLITTING: readonly Row[] = [
	["thanks for the fix. Never push to main.", RULE, "one sentence of the message is enough"],
	["looks good\nalways run the linter before committing", RULE, "a line break ends a sentence"],
	["never use tabs, e.g. in Makefiles?", NOT, "'e.g.' ends no sentence, so the whole is a question"],
	["never edit index.ts or the v1.2 files?", NOT, "file names and versions end no sentence"],
	["edit src/only.ts and index.ts, e.g. the header.", NOT, "'only' inside a file name is no rule word"],
	["NEVER push to main", RULE, "case does not matter"],
	["Don\u2019t push to main, ok?", RULE, "a curly apostrophe"],
	["dont add dependencies", RULE, "'dont' without its apostrophe"],
	["we commonly use tabs", NOT, "'only' inside 'commonly' does not count"],
	["use the stopwatch", NOT, "'stop' inside 'stopwatch' does not count"],
	["do not touch the lockfile", RULE, "'do not' from its two words"],
	["a must-have for the release", NOT, "'must-have' is one word"],
	["", NOT, "an empty message"],
];

/** The probes (issue 15): today's reader read the first five as standing rules and missed the last four. */
const PROBES: readonly Row[] = [
	["Only 3 tests fail now", NOT, "a fact: 'only' counts"],
	["Never seen this error before", NOT, "a report: a past form after 'never'"],
	["Don't know why it fails", NOT, "a state of mind after 'don't'"],
	["You never listen.", NOT, "a complaint: it describes the agent"],
	["git says 'fatal: you must specify a branch'", NOT, "a quote of git's output"],
	["The tests must always pass", RULE, "a norm on the work"],
	["The build must stay green", RULE, "a norm on the work"],
	["this plan must be written so that you can start a new session", RULE, "a norm on how the plan is written"],
	["that should never happen", RULE, "'should never' lays down an invariant"],
];

describe("the standing-rule reader", () => {
	const tables: readonly (readonly [string, readonly Row[]])[] = [
		["the issue's probes", PROBES],
		["the definition's examples", SEED],
		["questions", QUESTIONS],
		["requests for now", FOR_NOW],
		["withdrawals", WITHDRAWALS],
		["who a rule word binds", SUBJECTS],
		["relative clauses", RELATIVES],
		["idioms", IDIOMS],
		["the user's own words", OWN_WORDS],
		["sentences and words", SPLITTING],
	];
	for (const [name, rows] of tables) {
		describe(name, () => {
			it.each(rows)("%j reads as a standing rule: %s (%s)", (text, standing) => {
				expect(readsAsStandingRule(text)).toBe(standing);
			});
		});
	}
});

describe("standing rules of earlier messages", () => {
	it("keeps the messages that read as standing rules, in message order", () => {
		const messages = [
			userMessage(1, "always run the tests"),
			userMessage(2, "what does this do?"),
			userMessage(3, "don't push yet"),
			userMessage(4, "from now on, use pnpm"),
			userMessage(5, "never mind"),
		];
		expect(standingRules(messages).map((m) => m.ref)).toEqual(["u1", "u4"]);
	});

	it("gives nothing for no messages", () => {
		expect(standingRules([])).toEqual([]);
	});
});

/** Words to build messages from: rule words, scopes, withdrawals, subjects and punctuation, but no fence marks. */
const PIECES = [
	"never",
	"always",
	"don't",
	"do not",
	"must",
	"stop",
	"only",
	"from now on",
	"going forward",
	"push",
	"to main",
	"use tabs",
	"you",
	"we",
	"it",
	"the function",
	"for now",
	"yet",
	"forget",
	"never mind",
	",",
	".",
	"?",
	"ok?",
	"\n",
	'"',
];
const message = fc.array(fc.constantFrom(...PIECES), { maxLength: 20 }).map((pieces) => pieces.join(" "));

describe("laws of the standing-rule reader", () => {
	it("never throws on any text and is deterministic, whatever it read in between", () => {
		const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), message);
		law([text, text], (first, between) => {
			const before = readsAsStandingRule(first);
			readsAsStandingRule(between);
			return readsAsStandingRule(first) === before;
		});
	});

	it("never reads a rule wrapped in a fenced code block as a standing rule", () => {
		law(
			[fc.constantFrom("", "here is the log:\n", "see below\n"), message, fc.constantFrom("```", "~~~")],
			(lead, body, fence) => {
				return !readsAsStandingRule(`${lead}${fence}\n${body}\n${fence}`);
			},
		);
	});

	it("never reads a blockquoted rule as a standing rule", () => {
		law(
			[message],
			(body) =>
				!readsAsStandingRule(
					body
						.split("\n")
						.map((line) => `> ${line}`)
						.join("\n"),
				),
		);
	});
});

describe("the sentences the reader reads as rules", () => {
	const read = (text: string) => ruleSentences(text).map((r) => text.slice(r.start, r.end));

	it("are runs of the user's own characters: case, inner white space and quote marks as typed", () => {
		const text = "ok, that works.  Never  use \u201ctabs\u201d in\tthe parser!\nwe tried it yesterday.";
		expect(read(text)).toEqual(["Never  use \u201ctabs\u201d in\tthe parser!"]);
	});

	it("keep a 'dont' as typed, though the reader reads it as \"don't\"", () => {
		expect(read("looked fine. Dont push to main. mustnt skip lint\nthanks")).toEqual([
			"Dont push to main.",
			"mustnt skip lint",
		]);
	});

	it("stand where the message has them when lowercasing lengthens a character before them, and end on whole characters", () => {
		expect(read("\u0130stanbul was fun. Never ship on a Friday \u{1f680}")).toEqual([
			"Never ship on a Friday \u{1f680}",
		]);
		expect(read("Never ship on a Friday \u{1f680}")).toEqual(["Never ship on a Friday \u{1f680}"]);
	});

	it("leave out questions, quoted and pasted text, and sentences with no rule", () => {
		const text = [
			"should we never use tabs?",
			"> never push to main",
			"```",
			"never deploy on Friday",
			"```",
			"Error: you must provide a token",
			"the build never finishes. always run the linter first.",
		].join("\n");
		expect(read(text)).toEqual(["always run the linter first."]);
	});

	const specials = ["dont", "\u0130", "\u{1f680}", "\u201c", "\u201d", "  ", "\t", "\u2019", "e.g.", "```", "> "];
	const hostile = fc.oneof(
		fc.string(),
		fc.string({ unit: "binary" }),
		fc.array(fc.constantFrom(...PIECES, ...specials), { maxLength: 24 }).map((pieces) => pieces.join(" ")),
	);

	it("law: ordered, disjoint, trimmed runs on whole characters, found exactly when the reader reads the message as a rule", () => {
		law([hostile], (text) => {
			const regions = ruleSentences(text);
			const ordered = regions.every((r, i) => r.start < r.end && (i === 0 || (regions[i - 1]?.end ?? 0) <= r.start));
			const whole = regions.every((r) => {
				const first = text.charCodeAt(r.start);
				const last = text.charCodeAt(r.end - 1);
				const run = text.slice(r.start, r.end);
				return !(first >= 0xdc00 && first <= 0xdfff) && !(last >= 0xd800 && last <= 0xdbff) && run.trim() === run;
			});
			return ordered && whole && regions.length > 0 === readsAsStandingRule(text);
		});
	});

	it("law: every unit the reader reads comes from the message, in order", () => {
		law([hostile], (text) => {
			const { text: read, from } = proseOf(text);
			return (
				from.length === read.length &&
				from.every((at, i) => at >= 0 && at < text.length && (i === 0 || (from[i - 1] ?? 0) <= at))
			);
		});
	});
});

import { describe, expect, it } from "vitest";
import { readsAsStandingRule, ruleSentences } from "../../../../src/pass/reader/standing-rules.js";
import { proseOf } from "../../../../src/pass/reader/text.js";

/**
 * The reader's rules one by one, each with a message it must pick and a like one it must not (precision and
 * recall both): the behaviour, the message read as a standing rule, and the message left to the model's label.
 */
type Pair = readonly [behaviour: string, picks: string, leaves: string];

const PIECES_AND_CLAUSES: readonly Pair[] = [
	[
		"a closing 'ok' with no question mark is a clause of its own, not a request for now",
		"never push to main, ok",
		"don't bump the version for now, ok",
	],
	["'do' is a rule word only before 'not'", "do not squash the commits", "do squash the commits"],
	["'not' after any other word is no 'do not'", "use pnpm, never npm", "use pnpm not npm"],
	[
		"'and' opens a piece of its own past 'please' before a rule word",
		"don't push yet and please always run the tests first",
		"don't push yet and please run the tests first",
	],
	[
		"a request for now in a later piece leaves the piece before it standing",
		"always run the tests and don't push yet",
		"run the tests and don't push yet",
	],
	[
		"a request for now scopes only its own piece",
		"don't push yet and never skip the changelog",
		"don't push yet and never mind the changelog",
	],
	["a request for now that opens the message scopes it", "don't merge anything to main", "today don't merge anything"],
	[
		"a withdrawal after the rule word of a later piece is what the rule forbids",
		"run lint first and never cancel a running deploy",
		"run lint first and never mind the deploy",
	],
	[
		"a withdrawal before the rule word withdraws, though lead-ins open the clause",
		"ok so always use tabs",
		"ok so forget what i said about always using tabs",
	],
	["'make sure' after a lead-in still instructs", "please make sure it never throws", "i'm not sure it never throws"],
];

const NOUN_CLAUSES: readonly Pair[] = [
	[
		"a determiner four words before the relative opens a noun phrase",
		"add a very fast option and only keep what matches",
		"add a very fast option that keeps only what matches",
	],
	[
		"a pronoun right after a determiner ('those who') is no noun phrase",
		"tell those who deploy to always tag the release",
		"ask a reviewer who always checks the changelog",
	],
	[
		"'that' after a verb of agreeing opens what was agreed, not a clause about the team",
		"remind the team we agreed that we always squash",
		"remind the team about the bot that we always ignore",
	],
	[
		"a rule word between the determiner and 'that' ends the noun phrase",
		"the only thing that matters is we never push to main",
		"the only thing that never breaks is the linter",
	],
	[
		"'do not' after a clause about a noun with a verb of its own is the main clause's",
		"for the tests that hit the network do not run them in ci",
		"skip the tests that do not hit the network",
	],
	[
		"'don't' after a clause about a noun with a verb of its own is the main clause's",
		"for the tests that hit the network don't run them in ci",
		"skip the tests that don't hit the network",
	],
	[
		"a modal after a relative and 'you' is the noun's",
		"you must call the helper before every query",
		"write a helper that you must call before every query",
	],
	[
		"a modal after a relative and a thing is the noun's",
		"the server must never bind port 80",
		"keep a list of the ports that the server must never bind",
	],
	[
		"a modal after a relative and 'we' is the noun's",
		"we must go through the checklist before release",
		"add a checklist that we must go through before release",
	],
	[
		"a modal after a relative and 'I' is the noun's",
		"i must run the script by hand",
		"add a script that i must run by hand",
	],
	["'mustn't' right after a relative is the noun's", "the field mustn't be empty", "add a field that mustn't be empty"],
	[
		"a modal after a relative and passed-over words is the noun's",
		"the column still must be backfilled",
		"add a column that still must be backfilled",
	],
];

const BINDERS: readonly Pair[] = [
	["'I' wanting two words after the rule word", "i don't really want new deps", "i don't really think so"],
	[
		"a verb of wanting far after the rule word is not what 'I' wants of it",
		"i always want the changelog updated when we ship",
		"i always forget the changelog when i want to ship fast",
	],
	[
		"a verb of wanting before 'I' is not what 'I' wants",
		"I always want the docs to be the spec",
		"like I always tell people, the docs are the spec",
	],
	[
		"'you' after an opening word that asks nothing is described",
		"could you always run lint before pushing",
		"honestly you never listen",
	],
	[
		"a request word asks of 'you' only when it opens the clause",
		"will you always ping me when it breaks",
		"if it breaks will you always ping me",
	],
	[
		"'lets' for \"let's\" opens an instruction, though it looks like a plural",
		"lets both always squash before merging",
		"tests both always pass before merging",
	],
	[
		"a clause opened by 'I' instructs only when 'I' wants it",
		"i honestly never want tabs",
		"i honestly always forget the changelog",
	],
	[
		"a clause opened by 'you' with a word before the rule word describes the agent",
		"you honestly must never force-push",
		"you honestly never listen",
	],
	[
		"passed-over words from the opening leave the rule word opening its clause",
		"needs to always pass ci before merge",
		"users need to always pass ci",
	],
	[
		"the team binds a rule late in a clause that opens with a thing",
		"the next time the build breaks we will always revert first",
		"the next time the build breaks it will always revert first",
	],
	[
		"'I' late in a clause binds only when wanting",
		"when the build breaks i never want a revert",
		"when the build breaks i always forget the changelog",
	],
	[
		"a verb of saying binds when it opens the clause",
		"said never push to main, twice now",
		"the docs say never run it as root",
	],
	["a verb of saying binds after 'I'", "i say never run it as root", "the docs say never run it as root"],
	["a thing before the rule word describes it", "make sure it always passes", "check if it always passes"],
	["a plural opening the clause is a fact", "never show users the stack trace", "users never see the stack trace"],
	["a verb ending in 'ns' is no plural", "install only what you need", "installs only what you need"],
	["a verb ending in 'us' is no plural", "focus only on the parser", "docs only cover the parser"],
];

const EXCEPTION_EDGES: readonly Pair[] = [
	[
		"'ever' after the rule word is passed over to the past form",
		"never ever use this error class",
		"never ever seen this error before",
	],
	[
		"'even' after the rule word is passed over to the past form",
		"never even touch the lockfile",
		"never even got a warning",
	],
	[
		"'never worry' is a rule; 'don't worry' lays down nothing",
		"never worry about backwards compat",
		"don't worry about backwards compat",
	],
	["a past form after 'always' is a report", "always use tabs in this repo", "always hated tabs in this repo"],
	["a past form after 'only' is a report", "only test on linux", "only tested on linux so far"],
	["a short past form after 'always' is a report", "always use tabs in this repo", "always used tabs in this repo"],
	["an '-eed' past form after 'never' is a report", "never agree to a deadline for me", "we never agreed to that"],
	["a past form of four letters after 'never' is a report", "never keep the temp files", "never kept the temp files"],
	["a past form after 'don't' is no report", "don't shred the audit logs", "never shredded the audit logs"],
	["a state of mind only after 'don't'", "always remember the changelog", "don't remember the changelog"],
	[
		"'to' after a state of mind is no state of mind ('to' for 'too')",
		"dont get to clever with the types",
		"dont get why it fails",
	],
	["a state of mind after 'do not'", "do not guess why it fails", "do not know why it fails"],
	[
		"'want' with no one wanting only after 'don't' or 'do not'",
		"always want a regression test with each bug fix",
		"are we all committed? do not want to lose anything",
	],
	["'mustn't be' and a guess is a guess", "it mustn't be cached then", "it mustn't be the cache then"],
	["a guess only after 'must be'", "don't be a hero with migrations", "you must be a genius"],
	[
		"'must' and a verb is a duty whatever follows",
		"you must update the changelog with every fix",
		"you must be the one who broke it",
	],
	["'only' and the thing at hand is a rule", "only use them", "don't use them"],
	["the thing at hand is the whole clause after the verb", "don't run it on main", "don't run it"],
	["'them' is the thing at hand", "don't merge prs, i will review first", "don't merge them, i will review first"],
	["a bare rule word is a rule; after a subject, an ellipsis", "always", "we always"],
];

const OWN_WORDS: readonly Pair[] = [
	[
		"a verb of printing relays only before a colon",
		"if the api returns 500, always retry twice",
		"the api returns: always retry twice",
	],
	[
		"a colon after another word relays nothing",
		"one more thing: never push to main",
		"the hook prints: never push to main",
	],
	[
		"a verb of saying that opens the sentence is the user's",
		"said it before, never push to main",
		"git said it before: never push to main",
	],
	["a question mark before a closing bracket asks", "(never push to main)", "(never push to main?)"],
	[
		"a question mark before closing brackets asks",
		"(and the rule from before (never push to main))",
		"(and the rule from before (never push to main?))",
	],
	["a question mark before the closing tag's comma asks", "never push to main, ok?", "never push to main?, ok?"],
	[
		"'a.k.a.' ends no sentence",
		"never pull in the underscore lib, a.k.a. lodash",
		"never pull in the underscore lib, a.k.a. lodash?",
	],
	["only a plural after 'only' is a fact", "only lint files under src/", "only files under src/ get linted"],
];

describe("the reader, rule by rule", () => {
	const tables: readonly (readonly [string, readonly Pair[]])[] = [
		["pieces and clauses", PIECES_AND_CLAUSES],
		["clauses about a noun", NOUN_CLAUSES],
		["who a rule word binds", BINDERS],
		["the named exceptions' edges", EXCEPTION_EDGES],
		["the user's own words and questions", OWN_WORDS],
	];
	for (const [name, pairs] of tables) {
		describe(name, () => {
			it.each(pairs)("%s: picks %j, leaves %j", (_, picks, leaves) => {
				expect(readsAsStandingRule(picks)).toBe(true);
				expect(readsAsStandingRule(leaves)).toBe(false);
			});
		});
	}
});

describe("the sentences the reader picks, as they stand in the message", () => {
	const read = (text: string) => ruleSentences(text).map((r) => text.slice(r.start, r.end));

	it("an abbreviation ends no sentence at a period, but a line break still ends it", () => {
		expect(read("the bundle is 2mb approx\nnever commit the dist folder")).toEqual(["never commit the dist folder"]);
		expect(read("the bundle is 2mb approx. never commit the dist folder")).toEqual([]);
	});

	it("a 'dont' before the sentence's end leaves the sentence ending on its own last character", () => {
		expect(read("never push to main, just dont. thanks")).toEqual(["never push to main, just dont."]);
	});

	it("sentences before and after a 'dont' stand where they are when lowercasing lengthens a character", () => {
		expect(read("\u0130stanbul was fun. Dont push to main. Never ship on a Friday")).toEqual([
			"Dont push to main.",
			"Never ship on a Friday",
		]);
		expect(read("\u0130stanbul was fun. Never ship on a Friday. dont worry about it")).toEqual([
			"Never ship on a Friday.",
		]);
	});

	it("a last character at the edge of the basic plane (U+FFFF) is one unit", () => {
		const text = "never push to main \uffff";
		expect(ruleSentences(text)).toEqual([{ start: 0, end: text.length }]);
	});

	it("each unit of a 'dont' read as \"don't\" comes from the message, the apostrophe from its 't'", () => {
		const read = (text: string) => {
			const { text: prose, from } = proseOf(text);
			return { text: prose, from: Array.from(from) };
		};
		expect(read("dont x")).toEqual({ text: "don't x", from: [0, 1, 2, 3, 3, 4, 5] });
		expect(read("Mustnt")).toEqual({ text: "mustn't", from: [0, 1, 2, 3, 4, 5, 5] });
	});
});

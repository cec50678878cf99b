/*
 * The reader's vocabulary: the word classes its reading (standing-rules.ts) and its exceptions (exceptions.ts) name,
 * one table, each class a line of words. A word is lowercase with straight apostrophes, as `tokenize` gives it.
 */

const CLASSES = {
	/**
	 * The standing-rule reader's rule words (docs/how-it-works.md, Taking over from another compactor); "do not" is
	 * read from its two words, "mustn't" is "must".
	 */
	rule: "never always don't must mustn't stop only",
	/** Words that only lead into a sentence and say nothing of its form. */
	leadIn:
		"please pls plz and but or so then also just oh ah ok okay hey again really seriously yes yeah no nope well " +
		"now btw ps nb hi hello hmm um uh kindly thx thanks",
	/** Auxiliaries that open a question when a subject follows ("should we", "do you", "is it"). */
	questionAux:
		"should shall do does did is are was were am have has had must isn't aren't wasn't weren't doesn't didn't " +
		"shouldn't haven't hasn't",
	questionSubject: "i we you they it he she this that there these those the a an our my your anyone someone everyone",
	wh: "why how what when where which who whom whose",
	whFollower:
		"should shall do does did is are was were am have has had must isn't aren't wasn't weren't doesn't didn't " +
		"shouldn't haven't hasn't can could would will don't can't won't not",
	/** "can you …" without its question mark asks for something: an imperative. */
	request: "can could would will",
	/** The agent. */
	you: "you you'll you've you're u ya",
	/** The user and the agent, or the team. */
	we: "we we'll we've we're let's lets us everyone everybody nobody y'all",
	/** The user. */
	self: "i i'd i'll i'm i've",
	/** A thing: pronouns, articles, determiners, possessives. */
	thing:
		"it it's its itself this that these those he she they them there there's what which who whom whose " +
		"something nothing anything everything the a an their his her some another that's they're he's she's " +
		"what's who's it'll that'll our my your each every any no",
	/** Words that open a noun phrase, for relative clauses ("a flag that …"). */
	determiner: "a an the this these those every each any some no another our my your their its his her",
	/** Pronouns that open a clause about the noun before them. */
	relative: "that which who",
	/** Words after which "that" opens what is said, known or wanted, not a clause about a thing. */
	complementTaker:
		"sure certain ensure remember note know think believe mean means understand agree agreed decided decide " +
		"given promise hope feel notice realize see check verify confirm assume expect require demand suggest " +
		"recommend request rule is was are be so such now except provided in wrote write",
	/** Words passed over between a rule word and the word that says who or what it binds. */
	passedOver:
		"should shall will would can could may might must need needs to have has also really still just absolutely " +
		"seriously please then definitely certainly truly ever kindly actually literally generally always never only " +
		"do does basically simply strictly totally all ought",
	/** Modals that make a norm of their clause ("the tests must always pass", "that should never happen"). */
	deontic: "must mustn't should shouldn't shall ought",
	/** What the user must want for a rule ("I never want …", "i need you to always …"). */
	wanting: "want wanna need expect prefer like insist require rather",
	/** The user's verbs of saying: what follows them is the user's ("I said never push to main"). */
	saying: "said say says told tell tells asked ask mean meant repeat insist",
	/** Someone else's verbs of saying: what follows them is relayed ("git says …", "the README says …"). */
	reporting: "says said complains complained warns warned reads writes wrote tells told",
	/** Verbs of printing: what follows them and a colon is output ("npm prints: …"); without one, a verb like another. */
	printing: "prints printed shows showed outputs returns returned throws threw logs logged",
	/** "and", "but", … before a rule word open a piece of their own. */
	conjunction: "and but or so then plus",
	/** Words that may stand between a conjunction and the rule word it opens. */
	beforeRule: "also please then just you we definitely really i",
	/** A state of mind after "don't": "don't know why", "I don't think so". */
	stateOfMind: "know think tink understand remember see get care mind believe have need",
	/**
	 * Past forms the "-ed" rule does not take: irregular ones ("never seen", "we never got"), "-ed" forms of four
	 * letters ("always used") and "-eed" ones ("never agreed"). None is also a verb's plain form ("put", "read",
	 * "set", "become" are left out: "never put secrets in the code" is a rule).
	 */
	pastForm:
		"been seen had said told thought got gotten went gone knew known saw did done was were made ran wrote " +
		"written came took taken found heard gave given broke broken forgot forgotten left lost meant sent built " +
		"understood caught brought felt spent kept paid held met led fed fled sped bought sold slept stood won " +
		"taught fought sought chose chosen drove driven hid hidden spoke spoken stole stolen swore thrown wore worn " +
		"began begun drew drawn flew flown grew grown sang sank shook stuck struck fell fallen " +
		"used owed agreed disagreed freed guaranteed",
	/** Words ending in "-ed" that are no past form. */
	notPast: "need needed embed shed red bed feed seed speed proceed exceed succeed bleed breed heed",
	/** Counts: "only 3 tests", "only two files". */
	count: "one two three four five six seven eight nine ten few half first last once",
	/** Words right before a rule word that hedge it or make it an idiom. */
	hedge: "as almost nearly not if hardly practically virtually the",
	/** After "must be", a guess: "you must be right", "it must be the cache". */
	guessed:
		"right wrong joking kidding mistaken confused tired crazy it that the a an something some why because " + "broken",
	/** Words a clause-scoping "for now" may stand beside ("for now, only run …"). */
	scopeFiller: "just only but and or please ok okay though at least not all so",
} as const;

export type WordClass = keyof typeof CLASSES;

const SETS = new Map<WordClass, ReadonlySet<string>>();

/** `word` belongs to the class. */
export function is(cls: WordClass, word: string): boolean {
	let set = SETS.get(cls);
	if (set === undefined) {
		set = new Set(CLASSES[cls].split(" "));
		SETS.set(cls, set);
	}
	return set.has(word);
}

/** A past form: "seen", "had", "used" ("need", "embed" are none). */
export function isPast(word: string): boolean {
	return (
		is("pastForm", word) || (word.length > 4 && word.endsWith("ed") && !is("notPast", word) && !word.endsWith("eed"))
	);
}

/** A plural noun, not a verb: "tests", "users" ("pass", "focus" are no plurals). */
export function isPlural(word: string): boolean {
	return /[^su]s$/.test(word) && word.length > 3;
}

/** A count: a number or a count word ("3", "two", "few"). */
export function isCount(word: string): boolean {
	return /^\d/.test(word) || is("count", word);
}

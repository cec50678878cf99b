import {
	contentWords,
	type Entry,
	type EventData,
	type Located,
	leastFitting,
	looseIndex,
	looseSearch,
	ownWords,
	type Region,
	readWithdrawal,
	type UserMessage,
	userMessages,
	userText,
	type Withdrawing,
	withdrawsWords,
} from "../events/index.js";
import type { RuleGate } from "./evolve.js";
import type { Anomaly, Rule } from "./state.js";

/*
 * The fold's check of the rule events a branch stores (issue 28): a `compaction-state.event` entry or a compaction's
 * details can be written by any extension or by hand, so a rule is in force only if what the file itself shows backs
 * it, as acceptance backed it when Longhaul recorded it. A rule's words stand in its source, a user message on the
 * branch before the event (whitespace runs and quote marks read loosely, as acceptance finds a model's words); a lift
 * by another message than the rule's passes the store's lift check on the whole message (withdrawal words in the
 * user's own words and a word shared with the rule). A lift of a rule by its own message is acceptance's withdrawal
 * of a rule it recorded from a message it judged again, which the store applies without that check, and so does the
 * fold.
 */

/** A user message the check met, with what it reads of it made once, when first needed. */
interface Said {
	readonly message: UserMessage;
	/** The message's place on the branch. */
	readonly at: number;
	/** The stretches the user wrote, pi's material (a skill's file, a named file) left out. */
	own?: readonly Region[];
	/** The message read loosely (`looseSearch`), made when a rule is first not found in order. */
	search?: (words: string) => Region[];
	/** How many rules not found in order were searched for one by one: past `SEARCHES`, the index decides. */
	searched?: number;
	/** Whether words stand loosely in the user's stretches (`looseIndex`), made once `SEARCHES` were searched for. */
	holds?: (words: string) => boolean;
	withdrawing?: Withdrawing;
	/**
	 * Where the words of the last rule found stand, while each of the message's rules has been found verbatim in the
	 * user's words at or after the place of the one stored before it; null once one was not. Longhaul stores a
	 * message's rules in the order they stand, so each search starts where the last rule's words stood and the message
	 * is read once; the first rule not so found (stored out of order, retyped, forged) hands this and every later
	 * rule of the message to the loose search.
	 */
	found?: number | null;
}

/** What the check reads of a branch: its user messages by ref and each entry's place, both made when first needed. */
interface Seen {
	users?: Map<string, Said>;
	places?: Map<string, number>;
}

function placesOf(seen: Seen, branch: readonly Entry[]): Map<string, number> {
	if (seen.places !== undefined) return seen.places;
	const places = new Map<string, number>();
	branch.forEach((entry, i) => {
		if (!places.has(entry.id)) places.set(entry.id, i);
	});
	seen.places = places;
	return places;
}

/** The user message `ref` if it stands on the branch before the entry that carries the event. */
function saidBefore(seen: Seen, branch: readonly Entry[], ref: string, entry: string): Said | undefined {
	const places = placesOf(seen, branch);
	if (seen.users === undefined) {
		const users = new Map<string, Said>();
		for (const message of userMessages(branch))
			users.set(message.ref, { message, at: places.get(message.entryId) ?? -1 });
		seen.users = users;
	}
	const said = seen.users.get(ref);
	const eventAt = places.get(entry);
	return said !== undefined && eventAt !== undefined && said.at < eventAt ? said : undefined;
}

/**
 * Searches of a message, one rule each, before its index is made: the index costs the message's length times its log,
 * a search its length; Longhaul's own rules of a message are found in order, and a few stored otherwise are cheaper
 * searched, while thousands of them (forged) would cost the message's length each.
 */
const SEARCHES = 64;

/**
 * The words stand in what the user wrote of the message (not in a skill's or a file's text pi put into it), read
 * loosely. Words found verbatim in the user's words stand loosely too, since the stretches the user wrote are
 * trimmed: a run of whitespace the words cut lies whole inside the stretch, and the loose reading's place (the whole
 * run) with it. So the search in order, which reads the message once for all its rules, decides for all but a rule
 * stored out of order, retyped or forged; those a loose search of the message decides, one rule at a time up to
 * `SEARCHES` of them, and past that the index, so that no message costs more than `SEARCHES` times its length, and
 * its index.
 */
function stands(said: Said, words: string): boolean {
	const text = said.message.text;
	said.own ??= userText(text).own;
	const own = said.own;
	if (standsInOrder(said, own, words)) return true;
	said.searched = (said.searched ?? 0) + 1;
	if (said.searched > SEARCHES) {
		said.holds ??= looseIndex(text, own);
		return said.holds(words);
	}
	said.search ??= looseSearch(text);
	return said.search(words).some((found) => insideOne(own, found.start, found.end));
}

/** How many places of one rule's words in pi's material or across a stretch's end the search in order passes over. */
const PASSED = 4;

/**
 * The words stand verbatim in one of the user's stretches, first found at or after where the last rule's stood (from
 * the first stretch on, for a message's first rule). A place in pi's material before the user's words (a file named
 * in the message that holds them too) or across a stretch's end is passed over, and the words searched for again
 * from the next stretch, up to `PASSED` places a rule: a periodic message whose every stretch the words run past
 * would cost each search its length again.
 */
function standsInOrder(said: Said, own: readonly Region[], words: string): boolean {
	let from = said.found === null || words === "" ? -1 : Math.max(said.found ?? 0, own[0]?.start ?? 0);
	for (let passed = 0; from >= 0 && passed <= PASSED; passed++) {
		const at = said.message.text.indexOf(words, from);
		if (at < 0) break;
		const k = stretchAt(own, at);
		if (k >= 0 && at + words.length <= (own[k]?.end ?? 0)) {
			said.found = at;
			return true;
		}
		from = own[k + 1]?.start ?? -1;
	}
	said.found = null;
	return false;
}

/** The last of `regions` (in order, none overlapping) that starts at or before `at`; -1 when none does. */
function stretchAt(regions: readonly Region[], at: number): number {
	return leastFitting(regions.length, (k) => (regions[k]?.start ?? 0) > at) - 1;
}

/** True when `start` to `end` lies inside one of `regions` (in order, none overlapping). */
function insideOne(regions: readonly Region[], start: number, end: number): boolean {
	const region = regions[stretchAt(regions, start)];
	return region !== undefined && end <= region.end;
}

function withdraws(said: Said, ruleText: string): boolean {
	said.withdrawing ??= readWithdrawal(ownWords(said.message.text));
	return withdrawsWords(said.withdrawing, contentWords(ruleText));
}

function refusal(at: Located, what: string, why: string): Anomaly {
	const seq = at.seq === null ? "" : `seq ${at.seq}: `;
	return { entry: at.entry, reason: `${seq}${what} refused: ${why}` };
}

const notBefore = (ref: string) => `${ref} is no user message on the branch before it`;

function addedRefusal(
	seen: Seen,
	branch: readonly Entry[],
	at: Located,
	data: EventData<"rule-added">,
): Anomaly | undefined {
	const what = `rule-added from ${data.source}`;
	const said = saidBefore(seen, branch, data.source, at.entry);
	if (said === undefined) return refusal(at, what, notBefore(data.source));
	return stands(said, data.words) ? undefined : refusal(at, what, `its words stand nowhere in ${data.source}`);
}

function liftedRefusal(
	seen: Seen,
	branch: readonly Entry[],
	at: Located,
	{ target, by }: EventData<"rule-lifted">,
	rule: Rule,
): Anomaly | undefined {
	const what = `rule-lifted of ${target} by ${by}`;
	const said = saidBefore(seen, branch, by, at.entry);
	if (said === undefined) return refusal(at, what, notBefore(by));
	if (rule.source === by || withdraws(said, rule.text)) return undefined;
	return refusal(at, what, `${by} does not withdraw ${rule.id} in the user's own words (the store's lift check)`);
}

/**
 * The fold's check of a branch's rule events (`RuleGate`): a refused event is an anomaly named with its entry, and
 * changes no rule; each refusal is also kept in `refused`, by the event it refuses, so that the fold's events show
 * the anomaly in its place. Reads the branch's user messages only once a rule event asks for them.
 */
export function ruleGate(branch: readonly Entry[], refused: Map<Located, Anomaly>): RuleGate<Located> {
	const seen: Seen = {};
	const kept = (at: Located, anomaly: Anomaly | undefined): Anomaly | undefined => {
		if (anomaly !== undefined) refused.set(at, anomaly);
		return anomaly;
	};
	return {
		added: (at, data) => kept(at, addedRefusal(seen, branch, at, data)),
		lifted: (at, data, rule) => kept(at, liftedRefusal(seen, branch, at, data, rule)),
	};
}

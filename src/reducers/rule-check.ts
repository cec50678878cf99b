import {
	contentWords,
	type Entry,
	type EventData,
	type Located,
	looseSearch,
	ownWords,
	placeWithin,
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
	search?: (words: string) => Region[];
	withdrawing?: Withdrawing;
	/**
	 * Where the words of the last rule found verbatim in the message stand, while its rules have stood in the order
	 * they are stored in; null once one stood before the one stored before it. A message's rules are mostly stored in
	 * the order they stand, so the next search starts there and a message of many rules is read once.
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
 * The words stand in what the user wrote of the message (not in a skill's or a file's text pi put into it), read
 * loosely. Words standing verbatim stand loosely too (a run of whitespace they cut reads as the one space its whole
 * run reads as), and Longhaul records a message's own characters, so the verbatim test first spares the loose reading
 * of the message for all but a retyped or forged rule.
 */
function stands(said: Said, words: string): boolean {
	const text = said.message.text;
	said.own ??= userText(text).own;
	const own = said.own;
	if (own.some((region) => standsVerbatim(said, words, region))) return true;
	said.search ??= looseSearch(text);
	return said
		.search(words)
		.some((found) => own.some((region) => found.start >= region.start && found.end <= region.end));
}

/**
 * The words stand verbatim in one region of the message: searched from where the last rule's words were found when
 * that lies in the region (a place found there is in the region), else, or when none is found there, from the
 * region's start. A look ahead that finds nothing reads on to the end of the text, so once the words stand before the
 * last place, the message's rules are out of order and no more looks ahead are made for it: out of order, a message
 * costs one look more than searches from the region's start, and words that stand nowhere verbatim one look more,
 * which reads no further than their own search from the start. The verdict does not depend on any of this: words
 * that stand verbatim stand loosely too.
 */
function standsVerbatim(said: Said, words: string, region: Region): boolean {
	const text = said.message.text;
	const from = said.found;
	const near = typeof from === "number" && from > region.start && from < region.end;
	const ahead = near ? placeWithin(text, words, { start: from, end: region.end }) : -1;
	const at = ahead >= 0 ? ahead : placeWithin(text, words, region);
	if (at < 0) return false;
	// Found only from the region's start: the words stand before the last place, and the looks ahead end.
	const outOfOrder = near && ahead < 0;
	said.found = outOfOrder || from === null ? null : at;
	return true;
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

import fc from "fast-check";
import { describe, it } from "vitest";
import { type Event, looseFinder, userText } from "../../src/events/index.js";
import { renderSummary } from "../../src/projections/index.js";
import { foldTranscript, initialState } from "../../src/reducers/index.js";
import { applied } from "../support/applied.js";
import { ruleAdded, spanClosed } from "../support/events.js";
import { type EntrySpec, place, transcriptText } from "../support/transcript.js";
import { law, sameJson } from "./laws.js";

// The fold's check of stored rule events (issue 28, item 2), over arbitrary messages and rules: a rule the branch does
// not back never reaches the summary, and a rule whose words stand in its source folds as the reducer alone folds it.

/** Text of few letters, spaces, line breaks and quote marks, so that words often stand, retyped or not. */
const said = fc
	.array(fc.constantFrom("a", "b", "never", "push", " ", "  ", "\n", "\t", "'", '"', "\u201c", "\u201d", "."), {
		minLength: 1,
		maxLength: 30,
	})
	.map((parts) => parts.join(""));

/** The words as a model or a hand may retype them: each whitespace run and each quote mark written another way. */
function retyped(words: string, styles: readonly number[]): string {
	let i = 0;
	const style = () => styles[i++ % Math.max(styles.length, 1)] ?? 0;
	return words.replace(/\s+|["'\u201c\u201d]/g, (found) =>
		/\s/.test(found)
			? ([" ", "\n", "\t ", found][style() % 4] ?? found)
			: (['"', "'", "\u201c", found][style() % 4] ?? found),
	);
}

interface Pick {
	readonly i: number;
	readonly start: number;
	readonly length: number;
	readonly styles: readonly number[];
}

/** A stretch of one of `count` messages, to be quoted retyped. */
const quoting = (count: number): fc.Arbitrary<Pick> =>
	fc.record({
		i: fc.integer({ min: 0, max: count - 1 }),
		start: fc.nat(),
		length: fc.integer({ min: 1, max: 12 }),
		styles: fc.array(fc.nat(), { maxLength: 4 }),
	});

/**
 * Rules quoting the picked stretches of what the user wrote of their source messages (`userText(text).own`, as
 * acceptance quotes them), retyped: each stands in its source by construction. A message with nothing of its own
 * (only whitespace) gives no rule.
 */
function rulesFrom(messages: readonly string[], picks: readonly Pick[]): Event[] {
	return picks.flatMap(({ i, start, length, styles }): Event[] => {
		const text = messages[i] ?? "";
		const own = userText(text).own;
		const region = own[start % Math.max(own.length, 1)];
		if (region === undefined) return [];
		const from = region.start + (start % (region.end - region.start));
		const words = text.slice(from, Math.min(from + length, region.end));
		return [ruleAdded(retyped(words, styles), `u${i + 1}`)];
	});
}

const close = (span: number): Event => spanClosed(span);

/** The messages, then a pass with `rules`, then the event entries: a branch as Longhaul writes it. */
function branch(messages: readonly string[], rules: readonly Event[], entries: readonly Event[] = []): string {
	const specs: EntrySpec[] = [
		...messages.map((text) => ({ kind: "user" as const, text })),
		{ kind: "longhaul-compaction", span: 1, events: [...rules, close(1)] },
		...entries.map((event) => ({ kind: "event-entry" as const, event })),
	];
	return transcriptText(place(specs));
}

/** A forged rule: words its source does not hold, a source the branch lacks, or one that comes only after it. */
const forgery = (messages: readonly string[]) =>
	fc.oneof(
		fc
			.record({
				i: fc.integer({ min: 0, max: messages.length - 1 }),
				words: fc.string({ minLength: 1, maxLength: 20 }),
			})
			.filter(({ i, words }) => {
				const text = messages[i] ?? "";
				return looseFinder(words)(text, { start: 0, end: text.length }).length === 0;
			})
			.map(({ i, words }) => ({ words, source: `u${i + 1}` })),
		fc
			.record({ n: fc.integer({ min: messages.length + 1, max: 99 }), words: said })
			.map(({ n, words }) => ({ words, source: `u${n}` })),
	);

describe("forged rule events", () => {
	it("a forged rule never reaches the summary: the summary is the one of the branch without it", () => {
		law(
			[
				fc.array(said, { minLength: 1, maxLength: 5 }).chain((messages) =>
					fc.tuple(
						fc.constant(messages),
						fc.array(quoting(messages.length), { maxLength: 5 }),
						fc.array(fc.tuple(forgery(messages), fc.boolean(), fc.option(fc.integer({ min: 1, max: 9 }))), {
							minLength: 1,
							maxLength: 4,
						}),
					),
				),
			],
			([messages, picks, forged]) => {
				const genuine = rulesFrom(messages, picks);
				const inPass: Event[] = [...genuine];
				const between: Event[] = [];
				for (const [{ words, source }, asEntry, id] of forged) {
					const event = ruleAdded(words, source, id === null ? undefined : `R${id}`);
					(asEntry ? between : inPass).push(event);
				}
				const withForged = foldTranscript(branch(messages, inPass, between));
				const without = foldTranscript(branch(messages, genuine));
				return (
					withForged.state.anomalies.length === forged.length &&
					sameJson(withForged.state.rules, without.state.rules) &&
					renderSummary(withForged.state).text === renderSummary(without.state).text
				);
			},
		);
	});

	it("a forged source after the event never stands, though the message it names comes later", () => {
		law([said, said], (early, late) => {
			const text = transcriptText(
				place([
					{ kind: "user", text: early },
					{ kind: "event-entry", event: ruleAdded(late, "u2") },
					{ kind: "user", text: late },
				]),
			);
			const folded = foldTranscript(text);
			return folded.state.rules.length === 0 && folded.state.anomalies.length === 1;
		});
	});

	it("a message's rules, stored in any order, stand exactly when their words stand loosely in one stretch the user wrote", () => {
		const withFile = fc
			.tuple(said, fc.option(said), said)
			.map(([before, file, after]) =>
				file === null ? before : `${before}\n<file name="/repo/NOTES.md">\n${file}\n</file>\n${after}`,
			);
		const stored = (text: string) =>
			fc.oneof(
				fc
					.record({
						start: fc.nat(),
						length: fc.integer({ min: 1, max: 12 }),
						styles: fc.array(fc.nat(), { maxLength: 4 }),
					})
					.map(({ start, length, styles }) => {
						const from = start % text.length;
						return retyped(text.slice(from, from + length), styles);
					}),
				said,
			);
		law(
			[
				withFile.chain((text) =>
					fc.tuple(
						fc.constant(text),
						// A few rules, searched one by one; or more than SEARCHES (64) not found in order: the index decides.
						fc.oneof(
							fc.array(stored(text), { minLength: 1, maxLength: 12 }),
							fc.array(stored(text), { minLength: 70, maxLength: 100 }),
						),
					),
				),
			],
			([text, words]) => {
				const rules = words.map((w) => ruleAdded(w, "u1"));
				const own = userText(text).own;
				const kept = rules.filter(
					(rule) =>
						rule.type === "rule-added" && own.some((region) => looseFinder(rule.data.words)(text, region).length > 0),
				);
				const folded = foldTranscript(branch([text], rules));
				return (
					folded.state.anomalies.length === rules.length - kept.length &&
					sameJson(folded.state.rules, applied(initialState, kept).rules)
				);
			},
		);
	});

	it("a rule whose words stand in its source, retyped or not, folds as the reducer alone folds it", () => {
		law(
			[
				fc
					.array(said, { minLength: 1, maxLength: 5 })
					.chain((messages) =>
						fc.tuple(fc.constant(messages), fc.array(quoting(messages.length), { minLength: 1, maxLength: 8 })),
					),
			],
			([messages, picks]) => {
				const rules = rulesFrom(messages, picks);
				const folded = foldTranscript(branch(messages, rules));
				const reducerAlone = applied(
					initialState,
					[...rules, close(1)],
					[...rules, close(1)].map((_, i) => i + 1),
				);
				return folded.state.anomalies.length === 0 && sameJson(folded.state, reducerAlone);
			},
		);
	});
});

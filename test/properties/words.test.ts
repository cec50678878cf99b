import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, it } from "vitest";
import type { UserMessage } from "../../src/events/messages.js";
import { trimRegion } from "../../src/events/user-text.js";
import { looseAnchors, looseFinder, onWordBoundaries } from "../../src/events/words.js";
import { ruleWords, WHOLE_UP_TO } from "../../src/pass/accept/verify/rule-words.js";
import { CUT_MARK, cutProse } from "../../src/pass/answer/repair.js";
import { law } from "./laws.js";

// A model retypes what it quotes: runs of whitespace come back as one space (or a line break), quote marks as
// another kind. Found words are always the user's own characters.

const QUOTES = ['"', "'", "`", "\u2018", "\u2019", "\u201c", "\u201d", "\u201e", "\u00ab", "\u00bb"];
const SPACES = [" ", "  ", "\n", "\n\n", "\t", " \n "];

/** A user message: words, quote marks and whitespace runs of every kind. */
const message = fc
	.array(
		fc.oneof(
			fc.constantFrom("never", "use", "tabs", "starta", "new", "session", "don't", "ça", "😀", "x", "-", ",", "."),
			fc.constantFrom(...QUOTES),
			fc.constantFrom(...SPACES),
		),
		{ minLength: 1, maxLength: 60 },
	)
	.map((parts) => parts.join(""));

/** The text as a model may retype it: every whitespace run and every quote mark replaced by one of its kind. */
function retyped(text: string, picks: readonly number[]): string {
	let i = 0;
	const pick = <T>(from: readonly T[]) => from[(picks[i++ % picks.length] ?? 0) % from.length];
	return text.replace(/\s+|["'`\u2018\u2019\u201c\u201d\u201e\u00ab\u00bb]/gu, (m) =>
		/\s/u.test(m) ? (pick(SPACES) ?? " ") : (pick(QUOTES) ?? '"'),
	);
}

/** A message, a stretch of it (trimmed, not empty) and the picks that retype it. */
const stretch = message
	.chain((text) =>
		fc.record({
			text: fc.constant(text),
			a: fc.nat({ max: text.length }),
			b: fc.nat({ max: text.length }),
			picks: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
		}),
	)
	.map(({ text, a, b, picks }) => ({
		text,
		region: trimRegion(text, { start: Math.min(a, b), end: Math.max(a, b) }),
		picks,
	}))
	.filter(({ text, region }) => {
		if (region.end <= region.start) return false;
		// A whole code point at each end: a stretch never starts or ends inside a surrogate pair.
		const low = (at: number) => /[\udc00-\udfff]/.test(text.charAt(at));
		return !low(region.start) && !low(region.end);
	});

describe("rule words found modulo whitespace and quote marks", () => {
	it("any retyping of a stretch of a user message finds that stretch, in the user's own characters", () => {
		law([stretch], ({ text, region, picks }) => {
			const given = retyped(text.slice(region.start, region.end), picks);
			const found = looseFinder(given)(text, { start: 0, end: text.length });
			return found.some((r) => r.start === region.start && r.end === region.end);
		});
	});

	it("a text that holds words loosely holds each of their anchors verbatim, so a text without one is passed over", () => {
		law([stretch, message], ({ text, region, picks }, other) => {
			const given = retyped(text.slice(region.start, region.end), picks);
			const anchors = looseAnchors(given);
			const found = (hay: string) => looseFinder(given)(hay, { start: 0, end: hay.length }).length > 0;
			const holdsAll = (hay: string) => anchors.every((anchor) => hay.includes(anchor));
			return holdsAll(text) && (!found(other) || holdsAll(other)) && anchors.every((a) => !/[\s"'`]/u.test(a));
		});
	});

	it("a long message labeled a rule with retyped words records the user's characters, never the model's", () => {
		const long = (text: string) => `${"keep going with the work. ".repeat(Math.ceil((WHOLE_UP_TO + 1) / 26))}${text}`;
		law([stretch], ({ text, region, picks }) => {
			const body = long(text);
			const shift = body.length - text.length;
			const at = { start: region.start + shift, end: region.end + shift };
			const m: UserMessage = { ref: "u1", entryId: "e1", text: body };
			const out = ruleWords(m, retyped(body.slice(at.start, at.end), picks), [m]);
			if (E.isLeft(out)) return !onWordBoundaries(body, at) || body.trim().length > 600;
			return (
				body.includes(out.right.text) && out.right.text === body.slice(out.right.region.start, out.right.region.end)
			);
		});
	});
});

describe("prose cut to its bound", () => {
	it("fits the bound, keeps a prefix of the text up to a whole code point, and marks the cut", () => {
		law([fc.string({ unit: "binary", maxLength: 80 }), fc.integer({ min: 1, max: 90 })], (text, max) => {
			const cut = cutProse(text, max);
			if (text.length <= max) return cut === text;
			const head = cut.slice(0, -CUT_MARK.length);
			const lastIsHigh = /[\ud800-\udbff]$/.test(head) && !/[\ud800-\udbff][\udc00-\udfff]$/.test(head);
			return cut.length <= max && cut.endsWith(CUT_MARK) && text.startsWith(head) && !lastIsHigh;
		});
	});

	it("cuts where a word ends whenever a space stands within reach", () => {
		const prose = fc.array(fc.constantFrom("alpha", "be", "c", "😀😀", "déjà"), { minLength: 2, maxLength: 40 });
		law([prose, fc.integer({ min: 8, max: 100 })], (parts, max) => {
			const text = parts.join(" ");
			const cut = cutProse(text, max);
			if (text.length <= max) return cut === text;
			const head = cut.slice(0, -CUT_MARK.length);
			const reach = text.slice(0, max - CUT_MARK.length + 1);
			return !reach.includes(" ") || text.charAt(head.length) === " ";
		});
	});
});

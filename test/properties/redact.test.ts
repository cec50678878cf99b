import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRedactor } from "../../src/adapters/redact/index.js";
import { errorHead } from "../../src/pass/ledger/ledger.js";
import { SHOWN_MESSAGE_CHARS } from "../../src/pass/prompt/prompt.js";
import { cut, headTail } from "../../src/pass/prompt/prompt-parts.js";
import { FINDERS, type SecretSpan } from "../../src/pass/secrets/index.js";
import { nameWords } from "../../src/pass/secrets/names.js";
import { findAll } from "../../src/pass/secrets/span.js";
import { anyPlanted, leakedPiece, type Planted } from "../support/secrets.js";
import { law, params, sameJson } from "./laws.js";

const redactor = createRedactor(true);

/** Ordinary tool output around the secret; any length, so a cut can fall anywhere in the secret. */
const filler = fc.stringMatching(/^[a-z0-9 .,:=\n]{0,260}$/);

/** Where a secret stands: a line of output, a JSON string, a URL's query, an error's head. */
const contexts: { readonly [name: string]: (text: string) => string } = {
	"a line of output": (text) => text,
	"a JSON string": (text) => JSON.stringify({ output: text }),
	"a URL": (text) => `open https://example.com/callback?next=${text}&state=1 now`,
	"an error head": (text) => errorHead(`Error: ${text}`, "(no output)"),
};

/** How a text is cut before it is shown: as the prompt shows a message and a tool result. */
const cuts: { readonly [name: string]: (text: string) => string } = {
	"the message excerpt limit": (text) => cut(text, SHOWN_MESSAGE_CHARS),
	"a tool result's head and tail": (text) => headTail(text, 80, 50),
};

function around(planted: Planted, pre: string, post: string): string {
	return `PORT=5173\n${pre}\n${planted.text}\n${post}\nPORT=5173`;
}

/** The piece of the secret that survived, named for the failure message (undefined when none did). */
function leak(output: string, planted: Planted): string | undefined {
	const piece = leakedPiece(output, planted);
	return piece === undefined ? undefined : `${planted.kind}: ${piece} in ${JSON.stringify(output)}`;
}

describe("redaction leaves no secret of any supported kind, wherever it stands", () => {
	for (const [where, place] of Object.entries(contexts)) {
		it(`placed in ${where}`, async () => {
			await fc.assert(
				fc.asyncProperty(anyPlanted, filler, filler, async (planted, pre, post) => {
					const text = place(around(planted, pre, post));
					const out = await redactor.redact(text);
					expect(leak(out, planted)).toBeUndefined();
					if (where !== "an error head") expect(out.split("PORT=5173").length).toBe(text.split("PORT=5173").length);
				}),
				params({ numRuns: 60 }),
			);
		});
	}
	for (const [limit, cutAt] of Object.entries(cuts)) {
		// Redaction runs on the whole text, before any cut (the pass redacts a span's texts first): a cut then shows
		// a marker or nothing of the secret, never a piece that no rule could tell from a path.
		it(`cut at ${limit} after the whole text was redacted`, async () => {
			await fc.assert(
				fc.asyncProperty(anyPlanted, filler, filler, fc.boolean(), async (planted, pre, post, json) => {
					const text =
						(json ? contexts["a JSON string"] : contexts["a line of output"])?.(around(planted, pre, post)) ?? "";
					expect(leak(cutAt(await redactor.redact(text)), planted)).toBeUndefined();
				}),
				params({ numRuns: 80 }),
			);
		});
	}
});

describe("finders paused between steps keep their own place", () => {
	// The redactor gives the event loop a turn between a finder's steps, and another redaction may step the same
	// finders meanwhile: the finders share their module's patterns, so each search must keep its place itself.
	it("stepped in turn over two texts, each finder finds in each what it finds alone", () => {
		const text = fc.tuple(anyPlanted, filler, filler).map(([planted, pre, post]) => around(planted, pre, post));
		law([text, text], (a, b) =>
			FINDERS.every((find) => {
				const inA: SecretSpan[] = [];
				const inB: SecretSpan[] = [];
				const stepsA = find(a, inA);
				const stepsB = find(b, inB);
				let doneA = false;
				let doneB = false;
				while (!doneA || !doneB) {
					doneA = doneA || stepsA.next().done === true;
					doneB = doneB || stepsB.next().done === true;
				}
				return sameJson(inA, findAll(find, a)) && sameJson(inB, findAll(find, b));
			}),
		);
	});
});

describe("a name's words", () => {
	// The definition: split at camelCase humps (a lower-case letter or digit, then a capital), lower-cased, then at
	// anything but ASCII letters and digits. Lower-casing may make ASCII of a letter that was not (`\u212a`, the
	// Kelvin sign, is `k`).
	const defined = (name: string) =>
		name
			.replace(/([a-z0-9])([A-Z])/g, "$1 $2")
			.toLowerCase()
			.split(/[^a-z0-9]+/)
			.filter((w) => w !== "");
	const from = (chars: string) => fc.string({ unit: fc.constantFrom(...chars.split("")), maxLength: 40 });
	const asciiName = from("aqZz09AK_-./ :{|}~");
	const mixedName = from("aZz09AK_-./ :\u212a\u0130\u00e9\u00c9\u{1f600}");
	it("are the defined words, for any text", () => {
		law(
			[fc.oneof(asciiName, mixedName, fc.string({ unit: "binary", maxLength: 40 }))],
			(name) => sameJson(nameWords(name), defined(name)),
			{ numRuns: 300 },
		);
	});
});

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	FORMS,
	leakedPiece,
	type Planted,
	plantedSecrets,
	SECRET_KINDS,
	shown,
} from "../../../../bench/redact-corpus.js";
import { ordinaryStrings } from "../../../../bench/redact-ordinary-corpus.js";
import { redactingModel } from "../../../../src/adapters/pass/redacting-model.js";
import { createRedactor, marker } from "../../../../src/adapters/redact/index.js";
import { decodeMessage, type Message } from "../../../../src/events/messages.js";
import { bashCall, chain, toolResult, user } from "../../../support/entries.js";
import { carefulModel, passOver } from "../../../support/passes.js";
import { hasShared, sharedTranscripts } from "../../../support/shared.js";

const redactor = createRedactor(true);
/** A new corpus each run; the seed is in every failure's message, so a failure can be made again. */
const seed = Number(process.env.REDACT_CORPUS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const secrets = plantedSecrets(seed, Math.ceil(300 / SECRET_KINDS));
const MARKER = "[redacted:";

/** The secret shown in `form`, in lines of ordinary output. */
function inOutput(planted: Planted, form: (typeof FORMS)[number], n: number): string {
	return `$ cat .env\nPORT=5173\n${shown(planted, form, n)}\nDEBUG=1\n`;
}

/** Each leak, named for the failure message: the kind, the form, the piece that survived. */
function leaks(outputs: readonly string[], form: string): string[] {
	return secrets.flatMap((planted, i) => {
		const out = outputs[i] ?? "";
		const piece = leakedPiece(out, planted);
		if (piece === undefined && out.includes(MARKER)) return [];
		return [`seed ${seed}: ${planted.kind} ${form}: ${piece ?? "no marker"} in ${JSON.stringify(out)}`];
	});
}

describe("the secret corpus", () => {
	it("holds at least 300 secrets of at least 40 kinds, generated (no literal token in git)", () => {
		expect(secrets.length).toBeGreaterThanOrEqual(300);
		expect(new Set(secrets.map((s) => s.kind)).size).toBe(SECRET_KINDS);
		expect(SECRET_KINDS).toBeGreaterThanOrEqual(40);
		expect(plantedSecrets(seed + 1, 1)[0]?.body).not.toBe(plantedSecrets(seed, 1)[0]?.body);
	});

	it("counts a secret left in any form as a leak: the check reads escapes decoded, zero-width characters dropped", () => {
		const unseen = FORMS.flatMap((form, n) =>
			secrets.flatMap((planted, i) =>
				leakedPiece(inOutput(planted, form, n + i), planted) === undefined
					? [`seed ${seed}: ${planted.kind} ${form} not seen in ${JSON.stringify(shown(planted, form, n + i))}`]
					: [],
			),
		);
		expect(unseen).toEqual([]);
	});

	it("shows each form differently from the plain text (so each form is a case of its own)", () => {
		const planted = secrets[0];
		if (planted === undefined) throw new Error(`seed ${seed}: no secret`);
		const texts = FORMS.map((form) => shown(planted, form, 0));
		expect(new Set(texts).size).toBe(FORMS.length);
	});
});

describe("every secret of the corpus is redacted in every form: plain, coloured, escaped, zero-width split, JSON-escaped, URL-encoded (full recall)", () => {
	for (const [n, form] of FORMS.entries())
		it(`by the redactor, ${form}`, async () => {
			// One batch per form: a secret found in one form must not hide a miss in another as its copy.
			const outputs = await redactor.redactAll(secrets.map((s, i) => inOutput(s, form, n + i)));
			expect(leaks(outputs, form)).toEqual([]);
			for (const out of outputs) expect(out).toContain("PORT=5173");
		});

	for (const [n, form] of FORMS.entries())
		it(`in the diff prompt and the stored summary, where each stood in a failed command's output, ${form}`, async () => {
			const raws = chain([
				user("deploy it"),
				...secrets.flatMap((s, i) => [
					bashCall(`t${i}`, `cat .env.${i}`),
					toolResult(`t${i}`, `Error: bad credentials ${inOutput(s, form, n + i)}`, true),
				]),
				user("go on"),
			]);
			const model = carefulModel();
			const outcome = await passOver(raws, redactingModel(model, redactor), redactor.redactAll);
			const prompt = model.requests.map((r) => r.prompt).join("\n");
			const summary = await redactor.redact(outcome.summary);
			expect(summary).toContain("E1");
			const found = [prompt, summary].flatMap((text) =>
				secrets.flatMap((s) => {
					const piece = leakedPiece(text, s);
					return piece === undefined ? [] : [`seed ${seed}: ${s.kind} ${form}: ${piece}`];
				}),
			);
			expect(found).toEqual([]);
		});
});

/** Lines of the real transcripts' commands and tool output (they hold no secret), when ../shared is there. */
function realLines(): string[] {
	if (!hasShared) return [];
	const lines = new Set<string>();
	for (const name of ["before-compaction.jsonl", "large-session.jsonl"])
		for (const line of readFileSync(join(sharedTranscripts, name), "utf8").split("\n")) {
			if (line.trim() === "") continue;
			const message: Message | undefined = decodeMessage(JSON.parse(line).message);
			const text =
				message?.role === "toolResult" ? message.text : message?.role === "bashExecution" ? message.output : "";
			for (const l of text.split("\n")) if (l.trim().length >= 12) lines.add(l);
		}
	return [...lines];
}

describe("no ordinary string of developer tools' output is redacted (no false positive)", () => {
	const ordinary = ordinaryStrings(seed, 300);

	it("holds at least 500 ordinary strings", () => {
		expect(ordinary.length).toBeGreaterThanOrEqual(500);
	});

	it("env, npm, pnpm and yarn logs, lockfiles, git, docker, compose, kubectl, CI logs, fetch options, auth config, public keys, hashes, UUIDs, cache keys, URLs, paths", async () => {
		const outputs = await redactor.redactAll(ordinary);
		expect(
			ordinary.flatMap((text, i) =>
				outputs[i] === text ? [] : [`seed ${seed}: ${JSON.stringify(text)} became ${JSON.stringify(outputs[i])}`],
			),
		).toEqual([]);
	});

	it("each line of the real transcripts' tool output and commands (read from ../shared where present)", async () => {
		const lines = realLines();
		if (hasShared) expect(lines.length).toBeGreaterThan(1000);
		const outputs = await redactor.redactAll(lines);
		expect(lines.filter((text, i) => outputs[i] !== text)).toEqual([]);
	});

	it("a marker is what a secret becomes, so finding one in an ordinary string fails the test", () => {
		expect(marker("github token").startsWith(MARKER)).toBe(true);
	});
});

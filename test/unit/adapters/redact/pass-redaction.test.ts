import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../../src/adapters/redact/index.js";
import { bashCall, chain, toolResult, user } from "../../../support/entries.js";
import { answeringModel, passOver } from "../../../support/passes.js";

const redactor = createRedactor(true);
const token = ["ghp", "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"].join("_");
const ESC = String.fromCharCode(27);

async function pass() {
	const raws = chain([
		user(`never push to main; the deploy token is ${token}`),
		bashCall("t1", `GITHUB_TOKEN=${token} git push`),
		toolResult("t1", `${ESC}[31mfatal: bad credentials ${ESC}[1m${token}${ESC}[0m\n${"more output ".repeat(80)}`, true),
		user("go on"),
	]);
	// The model here is the summarizer as the pass calls it, with no redaction of its own around it.
	const model = answeringModel(() =>
		JSON.stringify({ labels: [{ msg: "u1", label: "rule" }], narrative: "tried to push", now: "push" }),
	);
	const outcome = await passOver(raws, model, redactor.redactAll);
	return { prompt: model.requests.map((r) => r.prompt).join("\n"), outcome };
}

describe("the pass redacts the span's texts whole before it cuts them", () => {
	it("shows the prompt no piece of a token in a command, a coloured error or a user's message", async () => {
		const { prompt } = await pass();
		expect(prompt).not.toContain(token.slice(4, 16));
		expect(prompt).toContain("[redacted: github token]");
		expect(prompt).toContain("never push to main");
	});

	it("stores the error head and the command redacted, and the user's rule in the user's own bytes", async () => {
		const { outcome } = await pass();
		const events = JSON.stringify(outcome.details.events);
		expect(events).toContain("fatal: bad credentials");
		expect(events).toContain(`never push to main; the deploy token is ${token}`);
		expect(events.split(token).length).toBe(2);
	});
});

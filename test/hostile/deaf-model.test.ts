import { describe, expect, it } from "vitest";
import { chain, user } from "../support/entries.js";
import { answeringModel, compactBranch } from "../support/passes.js";

describe("a summarizer that ignores the abort signal", () => {
	it("cannot hold the pass: it rejects as soon as the compaction is aborted", async () => {
		let asked: () => void = () => undefined;
		const called = new Promise<void>((resolve) => {
			asked = resolve;
		});
		// Never settles, whatever the signal says: a provider that does not honour abort.
		const deaf = answeringModel(
			() =>
				new Promise<string>(() => {
					asked();
				}),
		);
		const controller = new AbortController();
		const pass = compactBranch(chain([user("never add dependencies"), user("next")]), deaf, "c1", controller.signal);
		await called;
		controller.abort();
		await expect(pass).rejects.toThrow("aborted");
	}, 10_000);
});

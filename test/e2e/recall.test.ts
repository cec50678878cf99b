import { describe, expect, it } from "vitest";
import { ONE_OF } from "../../src/adapters/pi/tools.js";
import { foldEntries } from "../../src/reducers/index.js";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { labeler } from "../support/fake-summarizer.js";
import { longhaulSession, tick } from "../support/longhaul-session.js";
import { callBash, callTool, compactionsOn, say } from "../support/pi-harness.js";
import { recallResults } from "../support/recall-results.js";

const kept = disposedAfterEach();

/** An output line no value rule keeps, so only recall can bring it back once its span is compacted. */
const LINE = "release train: kestrel-quokka-77 leaves from siding 9";

describe("longhaul_recall in a real pi session", () => {
	it("brings back an output line compacted out of the summary, by its command's id and by its words", async () => {
		const h = kept(await longhaulSession());
		h.model.scriptSide(labeler());
		h.model.scriptAgent(callBash(`printf '%s\\n' 'build ok' '${LINE}'`), say("the build is out"), say("ok"));
		await h.prompt("build the release and tell me what it prints");
		await h.prompt("fine, carry on");
		await h.compact();
		await tick();

		const summary = compactionsOn(h.branch()).map((c) => c.summary);
		expect(summary).toHaveLength(1);
		expect(summary[0]).not.toContain("kestrel-quokka-77");
		const command = foldEntries(h.branch()).state.commands.find((c) => c.command.includes("printf"));
		expect(command?.id).toBe("C1");

		h.model.scriptAgent(
			callTool("longhaul_recall", { ref: "C1" }),
			callTool("longhaul_recall", { query: "kestrel quokka siding" }),
			callTool("longhaul_recall", { ref: "C1", query: "kestrel" }),
			callTool("longhaul_recall", {}),
			say("found it"),
		);
		await h.prompt("what did the release train line say?");
		const [byRef, byQuery, both, neither] = recallResults(h.branch());
		expect(byRef).toContain("C1 (span 1, bash tool) exit 0:");
		expect(byRef).toContain(LINE);
		expect(byQuery?.split("\n")[1]).toBe("C1 (span 1, u1):");
		expect(byQuery).toContain(`  ${LINE}`);
		expect(both).toBe(ONE_OF);
		expect(neither).toBe(ONE_OF);
	});
});

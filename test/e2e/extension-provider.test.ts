import { describe, expect, it } from "vitest";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { logPath, records } from "../support/e2e-log.js";
import { isDiffCall } from "../support/fake-summarizer.js";
import { compactAfterRule, longhaulSession } from "../support/longhaul-session.js";
import { compactionsOn } from "../support/pi-harness.js";

// Every pi version the suite runs (0.73.1 in `npm test`, 1.6.0 in `npm run test:pi1`), whatever LONGHAUL_PI_PROVIDER
// says: pi 1.x reaches the provider through its model registry, pi 0.73.1 through pi-ai's global registry, where its
// model registry puts an extension's stream.

const kept = disposedAfterEach();

describe("the session's model served by an extension's own provider stream (pi.registerProvider with streamSimple)", () => {
	it("Longhaul's diff reaches it, and the rule lands verbatim", async () => {
		const log = logPath();
		const h = kept(
			await longhaulSession({
				env: { PI_COMPACT_STATE_DEBUG: log },
				provider: "extension",
			}),
		);
		await compactAfterRule(h);
		expect(h.model.calls.filter(isDiffCall)).toHaveLength(1);
		const [compaction] = compactionsOn(h.branch());
		expect(compaction?.summary ?? "").toContain("> never add dependencies");
		expect(records(log).find((r) => r.event === "compaction")).toMatchObject({
			narrative: { kind: "whole", calls: 1 },
			route: { used: "faux/faux-1" },
		});
		expect(h.ui.notices.filter((n) => n.message.startsWith("Longhaul: span"))).toEqual([]);
	});
});

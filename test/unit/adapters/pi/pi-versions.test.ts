import { describe, expect, it } from "vitest";
import type { PassModel } from "../../../../src/adapters/pass/model.js";
import { compactFailedReason } from "../../../../src/adapters/pi/compact-failed.js";
import { closeNotice } from "../../../../src/adapters/pi/longhaul.js";
import { versionVerified } from "../../../../src/adapters/pi/selection.js";

describe("piVersionVerified", () => {
	it("is true for the versions the e2e suite runs", () => {
		expect([versionVerified("0.73.1"), versionVerified("1.6.0")]).toEqual([true, true]);
	});

	it('is "line" for another patch of their release lines', () => {
		expect(["0.73.0", "0.73.9", "1.6.1", "1.6.12"].map(versionVerified)).toEqual(["line", "line", "line", "line"]);
	});

	it("is false for other lines, prereleases and strings that are no version", () => {
		expect(["0.74.0", "1.5.3", "1.7.0", "0.86.0", "1.6.0-beta.1", "1.6", "", "1.6.x"].map(versionVerified)).toEqual(
			Array(8).fill(false),
		);
	});
});

describe("session_compact_failed as Longhaul reads it", () => {
	it("tells an aborted or cancelled compaction from a failed one", () => {
		expect(compactFailedReason({ type: "session_compact_failed", reason: "manual", aborted: true })).toBe(
			"compaction-aborted",
		);
		expect(
			compactFailedReason({ type: "session_compact_failed", reason: "threshold", aborted: false, errorMessage: "x" }),
		).toBe("compaction-error");
	});

	it("reads an event of another shape as a failure, never throwing", () => {
		for (const event of [undefined, null, "failed", { aborted: "yes" }, []])
			expect(compactFailedReason(event)).toBe("compaction-error");
	});
});

describe("the notice of a pass that closed without a narrative", () => {
	const model: PassModel = {
		name: "faux/m",
		maxTokens: 1,
		contextWindow: 1,
		reasoning: null,
		routeNotUsed: null,
		call: async () => ({ text: "", stopReason: "stop", errorMessage: "", inputTokens: 0, outputTokens: 0 }),
	};

	it("says why where no call path reaches the provider (pi 0.80 to 0.85 and an extension's own stream)", () => {
		const notice = closeNotice(
			{ span: 2, kind: "narrative-less", reason: "provider-unreachable" },
			{ kind: "none", reason: "provider-unreachable", provider: "my-proxy" },
		);
		expect(notice).toContain("span 2 closed narrative-less (provider-unreachable)");
		expect(notice).toContain('"my-proxy" is registered by an extension with its own stream');
		expect(notice).toContain("pi 0.80 to 0.85; pi 0.86 and later do");
	});

	it("names only the reason otherwise", () => {
		expect(closeNotice({ span: 1, kind: "narrative-less", reason: "model-error" }, { kind: "model", model })).toBe(
			"Longhaul: span 1 closed narrative-less (model-error).",
		);
		expect(
			closeNotice({ span: 3, kind: "narrative-less", reason: "no-model" }, { kind: "none", reason: "no-model" }),
		).toBe("Longhaul: span 3 closed narrative-less (no-model).");
	});
});

import { describe, expect, it } from "vitest";
import { resolveLogConfig } from "../../../../src/adapters/log/index.js";

const agentDir = "/home/alice/.pi/agent";
const cwd = "/home/alice/projects/atlas";

describe("resolveLogConfig", () => {
	it("logs to logs/compaction-state.jsonl in the agent dir when PI_COMPACT_STATE_DEBUG is unset", () => {
		expect(resolveLogConfig({}, agentDir, cwd).path).toBe("/home/alice/.pi/agent/logs/compaction-state.jsonl");
	});

	it.each(["off", "none", "0", "false", "no", "", "OFF", "None", "False", "NO", "  off  "])(
		"turns logging off for the off value %j",
		(value) => {
			expect(resolveLogConfig({ PI_COMPACT_STATE_DEBUG: value }, agentDir, cwd).path).toBeNull();
		},
	);

	it("takes only the default logs directory as Longhaul's own, even when named explicitly", () => {
		expect(resolveLogConfig({}, agentDir, cwd).ownDirectory).toBe(true);
		const named = { PI_COMPACT_STATE_DEBUG: "/home/alice/.pi/agent/logs/other.jsonl" };
		expect(resolveLogConfig(named, agentDir, cwd).ownDirectory).toBe(true);
		expect(resolveLogConfig({ PI_COMPACT_STATE_DEBUG: "1" }, agentDir, cwd).ownDirectory).toBe(false);
		expect(
			resolveLogConfig({ PI_COMPACT_STATE_DEBUG: "/home/alice/.pi/agent/x.jsonl" }, agentDir, cwd).ownDirectory,
		).toBe(false);
		expect(resolveLogConfig({ PI_COMPACT_STATE_DEBUG: "off" }, agentDir, cwd).ownDirectory).toBe(false);
	});

	it("takes 1 as a file named 1 in the working directory, not as a flag", () => {
		expect(resolveLogConfig({ PI_COMPACT_STATE_DEBUG: "1" }, agentDir, cwd).path).toBe("/home/alice/projects/atlas/1");
	});

	it("uses an absolute path as given", () => {
		expect(resolveLogConfig({ PI_COMPACT_STATE_DEBUG: "/var/tmp/lh.jsonl" }, agentDir, cwd).path).toBe(
			"/var/tmp/lh.jsonl",
		);
	});

	it("resolves a relative path against the working directory passed in", () => {
		expect(resolveLogConfig({ PI_COMPACT_STATE_DEBUG: "../debug/lh.jsonl" }, agentDir, cwd).path).toBe(
			"/home/alice/projects/debug/lh.jsonl",
		);
	});

	it("turns excerpts and stacks on only with =1", () => {
		const on = resolveLogConfig(
			{ PI_COMPACT_STATE_DEBUG_EXCERPTS: "1", PI_COMPACT_STATE_DEBUG_STACK: "1" },
			agentDir,
			cwd,
		);
		expect({ excerpts: on.excerpts, stack: on.stack }).toEqual({ excerpts: true, stack: true });
		const off = resolveLogConfig(
			{ PI_COMPACT_STATE_DEBUG_EXCERPTS: "0", PI_COMPACT_STATE_DEBUG_STACK: "" },
			agentDir,
			cwd,
		);
		expect({ excerpts: off.excerpts, stack: off.stack }).toEqual({ excerpts: false, stack: false });
		const unset = resolveLogConfig({}, agentDir, cwd);
		expect({ excerpts: unset.excerpts, stack: unset.stack }).toEqual({ excerpts: false, stack: false });
	});
});

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	CONFIG_MAX_BYTES,
	DEFAULT_CONFIG,
	loadConfig,
	PROJECT_REDACT_IGNORED,
	redactNotice,
} from "../../../src/adapters/config.js";
import { isTerminalSafe } from "../../../src/projections/index.js";

let root: string;
let agentDir: string;
let cwd: string;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "longhaul-config-"));
	agentDir = join(root, "agent");
	cwd = join(root, "project");
	mkdirSync(agentDir);
	mkdirSync(join(cwd, ".pi"), { recursive: true });
});

afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

const agentFile = () => join(agentDir, "longhaul.json");
const projectFile = () => join(cwd, ".pi", "longhaul.json");

function writeAgent(value: unknown): void {
	writeFileSync(agentFile(), JSON.stringify(value));
}

function writeProject(value: unknown): void {
	writeFileSync(projectFile(), JSON.stringify(value));
}

describe("loadConfig", () => {
	it("gives the defaults and no problem when neither file exists", () => {
		expect(loadConfig(agentDir, cwd)).toEqual({ config: DEFAULT_CONFIG, problems: [] });
	});

	it("gives the defaults and no problem when the agent dir itself does not exist", () => {
		expect(loadConfig(join(root, "nowhere"), join(root, "elsewhere"))).toEqual({
			config: DEFAULT_CONFIG,
			problems: [],
		});
	});

	it("takes the agent dir's values, and the project's over them key by key", () => {
		writeAgent({ narrativeMode: "turns", maxChunks: 8, summaryChars: 20_000 });
		writeProject({ maxChunks: 2, turnBudgetMs: 60_000 });

		expect(loadConfig(agentDir, cwd)).toEqual({
			config: { ...DEFAULT_CONFIG, narrativeMode: "turns", maxChunks: 2, summaryChars: 20_000, turnBudgetMs: 60_000 },
			problems: [],
		});
	});

	it("reads every key (the agent dir's file: only it can turn redaction off)", () => {
		const all = {
			narrativeMode: "turns",
			summarizer: "anthropic/claude-haiku-4-5:low",
			retryNoteChars: 0,
			maxChunks: 16,
			summaryChars: 1_000,
			turnsBudgetMs: 3_600_000,
			turnBudgetMs: 1_000,
			redact: false,
		};
		writeAgent(all);

		expect(loadConfig(agentDir, cwd)).toEqual({
			config: { ...all, summarizer: { provider: "anthropic", model: "claude-haiku-4-5", thinking: "low" } },
			problems: [],
		});
	});

	it.each([
		["narrativeMode", "both", 'narrativeMode must be "single" or "turns"; using "single"'],
		["narrativeMode", 1, 'narrativeMode must be "single" or "turns"; using "single"'],
		["maxChunks", 0, "maxChunks must be an integer from 1 to 16; using 4"],
		["maxChunks", 17, "maxChunks must be an integer from 1 to 16; using 4"],
		["maxChunks", 2.5, "maxChunks must be an integer from 1 to 16; using 4"],
		["maxChunks", "4", "maxChunks must be an integer from 1 to 16; using 4"],
		["maxChunks", null, "maxChunks must be an integer from 1 to 16; using 4"],
		["retryNoteChars", -1, "retryNoteChars must be an integer from 0 to 100000; using 2000"],
		["summaryChars", 999, "summaryChars must be an integer from 1000 to 1000000; using 12000"],
		["turnsBudgetMs", true, "turnsBudgetMs must be an integer from 1000 to 3600000; using 300000"],
		["turnBudgetMs", 1e12, "turnBudgetMs must be an integer from 1000 to 3600000; using 120000"],
		["summarizer", "gpt-5", "summarizer must be"],
		["summarizer", 42, "summarizer must be"],
		["summarizer", { provider: "a", model: "b" }, "summarizer must be"],
		["redact", "no", "redact must be true or false; using true"],
		["redact", 0, "redact must be true or false; using true"],
	])("names a bad %s (%j) once and keeps the default", (key, value, line) => {
		writeProject({ [key]: value });

		const { config, problems } = loadConfig(agentDir, cwd);

		expect(config).toEqual(DEFAULT_CONFIG);
		expect(problems).toHaveLength(1);
		expect(problems[0]?.startsWith(`.pi/longhaul.json: ${line}`)).toBe(true);
	});

	it("says a bad route falls back to none, the session's model", () => {
		writeProject({ summarizer: "no-slash" });

		expect(loadConfig(agentDir, cwd).problems[0]).toMatch(/: summarizer must be .*; using none$/);
	});

	it("keeps a good agent-dir value when the project's value for the key is bad, and says so", () => {
		writeAgent({ maxChunks: 8, summarizer: "faux/faux-2" });
		writeProject({ maxChunks: 99, summarizer: "faux" });

		const { config, problems } = loadConfig(agentDir, cwd);

		expect(config.maxChunks).toBe(8);
		expect(config.summarizer).toEqual({ provider: "faux", model: "faux-2" });
		expect(problems).toEqual([
			".pi/longhaul.json: maxChunks must be an integer from 1 to 16; using 8",
			expect.stringMatching(/^\.pi\/longhaul\.json: summarizer must be .*; using "faux\/faux-2"$/),
		]);
	});

	it("lets the project clear the agent dir's summarizer with null", () => {
		writeAgent({ summarizer: "faux/faux-2" });
		writeProject({ summarizer: null });

		expect(loadConfig(agentDir, cwd)).toEqual({ config: DEFAULT_CONFIG, problems: [] });
	});

	it("ignores a project file that is not JSON, keeping the agent dir's values", () => {
		writeAgent({ maxChunks: 8 });
		writeFileSync(projectFile(), "{ maxChunks: 2 ");

		expect(loadConfig(agentDir, cwd)).toEqual({
			config: { ...DEFAULT_CONFIG, maxChunks: 8 },
			problems: [".pi/longhaul.json: not valid JSON; file ignored"],
		});
	});

	it.each([[[1, 2]], ["text"], [null], [42]])("ignores a file that holds %j, not an object", (value) => {
		writeProject(value);

		expect(loadConfig(agentDir, cwd)).toEqual({
			config: DEFAULT_CONFIG,
			problems: [".pi/longhaul.json: not a JSON object; file ignored"],
		});
	});

	it("names the agent dir's file by its path", () => {
		writeFileSync(agentFile(), "[]");

		expect(loadConfig(agentDir, cwd).problems).toEqual([`${agentFile()}: not a JSON object; file ignored`]);
	});

	it("uses the known keys of a file and names its unknown keys in one line", () => {
		writeProject({ maxChunks: 3, maxchunks: 5 });

		expect(loadConfig(agentDir, cwd)).toEqual({
			config: { ...DEFAULT_CONFIG, maxChunks: 3 },
			problems: ['.pi/longhaul.json: unknown key "maxchunks" ignored'],
		});
	});

	it("names at most five unknown keys and counts the rest", () => {
		writeProject(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, i])));

		expect(loadConfig(agentDir, cwd).problems).toEqual([
			'.pi/longhaul.json: unknown keys "k0", "k1", "k2", "k3", "k4" and 3 more ignored',
		]);
	});

	it("escapes control characters in an unknown key's name", () => {
		writeProject({ "\u001b]0;pwned\u0007\u009b": 1 });

		const { problems } = loadConfig(agentDir, cwd);

		expect(problems).toHaveLength(1);
		expect(problems.every(isTerminalSafe)).toBe(true);
	});

	it("reads a file that starts with a byte order mark", () => {
		writeFileSync(projectFile(), `\uFEFF${JSON.stringify({ maxChunks: 2 })}`);

		expect(loadConfig(agentDir, cwd).config.maxChunks).toBe(2);
	});

	it("refuses a symlink to /dev/zero without reading it", () => {
		symlinkSync("/dev/zero", projectFile());

		expect(loadConfig(agentDir, cwd).problems).toEqual([".pi/longhaul.json: not a regular file; file ignored"]);
	});

	it("refuses a FIFO without waiting for a writer", () => {
		execFileSync("mkfifo", [projectFile()]);

		expect(loadConfig(agentDir, cwd).problems).toEqual([".pi/longhaul.json: not a regular file; file ignored"]);
	});

	it("refuses a directory where the file should be", () => {
		mkdirSync(agentFile());

		expect(loadConfig(agentDir, cwd).problems).toEqual([`${agentFile()}: not a regular file; file ignored`]);
	});

	it("refuses a file over 64 KiB, even one of valid JSON", () => {
		writeFileSync(projectFile(), `${" ".repeat(CONFIG_MAX_BYTES)}{}`);

		expect(loadConfig(agentDir, cwd)).toEqual({
			config: DEFAULT_CONFIG,
			problems: [".pi/longhaul.json: larger than 64 KiB; file ignored"],
		});
	});

	it("reads a file of exactly 64 KiB", () => {
		const body = JSON.stringify({ maxChunks: 2 });
		writeFileSync(projectFile(), `${" ".repeat(CONFIG_MAX_BYTES - body.length)}${body}`);

		expect(loadConfig(agentDir, cwd)).toEqual({ config: { ...DEFAULT_CONFIG, maxChunks: 2 }, problems: [] });
	});

	it("never throws on arbitrary JSON, and every problem is one printable line", () => {
		fc.assert(
			fc.property(fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue())), (value) => {
				writeProject(value);
				const { config, problems } = loadConfig(agentDir, cwd);
				expect(Object.keys(config).sort()).toEqual(Object.keys(DEFAULT_CONFIG).sort());
				expect(problems.every((line) => !line.includes("\n") && isTerminalSafe(line))).toBe(true);
			}),
			{ numRuns: 200 },
		);
	});
});

describe("redact", () => {
	it("is on by default, with no notice", () => {
		const { config } = loadConfig(agentDir, cwd);

		expect(config.redact).toBe(true);
		expect(redactNotice(config)).toBeUndefined();
	});

	it("is off only when the user sets it false, and then says so in one notice", () => {
		writeAgent({ redact: false });

		const { config, problems } = loadConfig(agentDir, cwd);

		expect(config.redact).toBe(false);
		expect(problems).toEqual([]);
		expect(redactNotice(config)).toMatch(/^Longhaul: redaction is off .*redact.*false/);
	});

	it("is not turned off by a project's .pi/longhaul.json, which gets one problem line saying it was ignored", () => {
		writeProject({ redact: false, maxChunks: 2 });

		const { config, problems } = loadConfig(agentDir, cwd);

		expect(config).toEqual({ ...DEFAULT_CONFIG, maxChunks: 2 });
		expect(problems).toEqual([PROJECT_REDACT_IGNORED]);
		expect(redactNotice(config)).toBeUndefined();
	});

	it("lets the project turn it back on over the agent dir's false", () => {
		writeAgent({ redact: false });
		writeProject({ redact: true });

		expect(loadConfig(agentDir, cwd).config.redact).toBe(true);
	});
});

describe("the summarizer route", () => {
	it.each([
		["anthropic/claude-sonnet-4-5", { provider: "anthropic", model: "claude-sonnet-4-5" }],
		["anthropic/claude-sonnet-4-5:high", { provider: "anthropic", model: "claude-sonnet-4-5", thinking: "high" }],
		["openai/gpt-5:off", { provider: "openai", model: "gpt-5", thinking: "off" }],
		["openrouter/qwen/qwen3:free", { provider: "openrouter", model: "qwen/qwen3:free" }],
		["ollama/llama3:8b:minimal", { provider: "ollama", model: "llama3:8b", thinking: "minimal" }],
		["google-vertex/claude-3-5-sonnet@20240620", { provider: "google-vertex", model: "claude-3-5-sonnet@20240620" }],
	])("reads %s", (route, expected) => {
		writeAgent({ summarizer: route });
		expect(loadConfig(agentDir, cwd)).toEqual({ config: { ...DEFAULT_CONFIG, summarizer: expected }, problems: [] });
	});

	it.each([
		[""],
		["anthropic"],
		["/claude"],
		["anthropic/"],
		["anthropic/:high"],
		["anth ropic/claude"],
		["anthropic/claude\u001b[2J"],
		[`anthropic/${"m".repeat(200)}`],
	])("refuses %j", (route) => {
		writeAgent({ summarizer: route });
		const { config, problems } = loadConfig(agentDir, cwd);
		expect(config.summarizer).toBeNull();
		expect(problems).toEqual([expect.stringMatching(/: summarizer must be /)]);
	});
});

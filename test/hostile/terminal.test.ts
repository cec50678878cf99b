import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runStateCli } from "../../src/adapters/cli/state-cli.js";
import type { Event } from "../../src/events/index.js";
import { isTerminalSafe } from "../../src/projections/index.js";
import { chain, longhaulDetails, type Raw, user } from "../support/entries.js";
import * as ev from "../support/events.js";
import { TERMINAL_ATTACKS, unsafeCharacters } from "../support/terminal-attacks.js";

const dir = mkdtempSync(join(tmpdir(), "longhaul-terminal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A field `state` prints, the marker that opens its hostile text, and the views that must show it. */
interface Field {
	readonly marker: string;
	readonly views: readonly View[];
}
type View = "state" | "span1" | "spans" | "anomalies" | "json";

const FIELDS = {
	objective: { marker: "<objective>", views: ["state", "json"] },
	rule: { marker: "<rule words>", views: ["state", "span1", "json"] },
	decision: { marker: "<decision>", views: ["state", "json"] },
	deadEnd: { marker: "<dead end>", views: ["state", "json"] },
	note: { marker: "<note>", views: ["state", "json"] },
	valueName: { marker: "<value name>", views: ["state", "json"] },
	value: { marker: "<value>", views: ["state", "json"] },
	command: { marker: "<command>", views: ["spans", "json"] },
	toolCallId: { marker: "<tool call id>", views: ["json"] },
	errorTool: { marker: "<error tool>", views: ["state", "spans", "json"] },
	errorHead: { marker: "<error head>", views: ["state", "spans", "json"] },
	fixedHead: { marker: "<fixed error head>", views: ["spans", "json"] },
	read: { marker: "<file read>", views: ["state", "json"] },
	modified: { marker: "<file modified>", views: ["state", "json"] },
	branch: { marker: "<world branch>", views: ["span1"] },
	head: { marker: "<world head>", views: ["span1"] },
	status: { marker: "<world status>", views: ["span1"] },
	log: { marker: "<world log>", views: ["span1"] },
	diffStat: { marker: "<world diff stat>", views: ["span1"] },
	worldReason: { marker: "<world reason>", views: ["state", "json"] },
	workLog: { marker: "<work log>", views: ["state", "spans", "json"] },
	now: { marker: "<now>", views: ["state", "json"] },
	closeReason: { marker: "<close reason>", views: ["spans", "json"] },
	entryId: { marker: "<entry id>", views: ["spans", "anomalies", "json", "state"] },
	missingParent: { marker: "<missing parent>", views: ["anomalies", "json"] },
	eventType: { marker: "<event type>", views: ["anomalies", "json"] },
	offChainId: { marker: "<off-chain id>", views: ["anomalies", "json"] },
	duplicateId: { marker: "<duplicate id>", views: ["anomalies", "json"] },
} as const satisfies Record<string, Field>;

type Name = keyof typeof FIELDS;

function compaction(span: number, firstSeq: number, events: readonly Event[]): Raw {
	return {
		type: "compaction",
		summary: "s",
		firstKeptEntryId: "x",
		tokensBefore: 1,
		fromHook: true,
		details: longhaulDetails(span, events, firstSeq),
	};
}

const custom = (data: unknown): Raw => ({ type: "custom", customType: "compaction-state.event", data });

/** A transcript in which every field `state` prints holds `attack`, behind that field's marker. */
function transcript(attack: string): string {
	const t = (name: Name) => `${FIELDS[name].marker}${attack}`;
	const span1: Event[] = [
		ev.objective(t("objective")),
		ev.ruleAdded(t("rule"), "u1"),
		ev.command("C1", t("command"), 1, 1, t("toolCallId")),
		ev.errorRecorded("E1", t("errorHead"), "C1", 1, t("errorTool")),
		ev.errorRecorded("E2", t("fixedHead")),
		ev.errorFixed("E2", "C1"),
		ev.decision(t("decision"), ["C1"]),
		ev.deadEnd(t("deadEnd"), ["E1"]),
		ev.value(t("valueName"), t("value"), "C1"),
		ev.files([t("read")], [t("modified")]),
		ev.worldTaken(1, {
			taken: true,
			branch: t("branch"),
			head: t("head"),
			status: t("status"),
			log: t("log"),
			diffStat: t("diffStat"),
		}),
		ev.narrative(1, t("workLog")),
		ev.nowSet(t("now")),
		ev.spanClosed(1, "partial", ["u1"], t("closeReason")),
	];
	const span2: Event[] = [ev.worldTaken(2, ev.noWorld(t("worldReason"))), ev.spanClosed(2)];
	const onChain = chain(
		[
			// The message the rule cites holds its words, as the fold checks.
			user(`please ${t("rule")}`),
			compaction(1, 1, span1),
			custom({ stateFormat: 1, seq: 15, event: ev.note(t("note")) }),
			{ type: "compaction", summary: attack, firstKeptEntryId: "x", tokensBefore: 1 },
			custom({ stateFormat: 1, seq: 16, event: { type: t("eventType"), data: {} } }),
			custom({ stateFormat: 1, seq: 17, event: ev.ruleAdded("w", attack) }),
			custom({ stateFormat: 7, seq: 18, event: ev.note(attack) }),
			compaction(2, 19, span2),
			user("the last word"),
		],
		t("entryId"),
		t("missingParent"),
	);
	const offChain = [
		{ type: "custom", id: t("offChainId"), parentId: 5 },
		{ type: "message", id: t("duplicateId"), parentId: null, message: { role: "user", content: attack } },
		{ type: "message", id: t("duplicateId"), parentId: null, message: { role: "user", content: attack } },
		{ type: "message", parentId: null, message: { role: "user", content: attack } },
	];
	const lines = [
		JSON.stringify({ type: "session", version: 3, id: attack, cwd: attack }),
		...offChain.map((line) => JSON.stringify(line)),
		`{not json ${attack}`,
		...onChain.map((line) => JSON.stringify(line)),
	];
	return `${lines.join("\n")}\n`;
}

/** Runs every view of `state` over the file; each must succeed. */
async function views(file: string): Promise<Record<View | "span2", string>> {
	const run = async (...args: string[]) => {
		const result = await runStateCli([file, ...args], {});
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		return result.stdout;
	};
	return {
		state: await run(),
		spans: await run("--spans"),
		anomalies: await run("--anomalies"),
		json: await run("--json"),
		span1: await run("--span", "1"),
		span2: await run("--span", "2", "--json"),
	};
}

describe("state prints no control character, whatever the transcript holds", () => {
	it.each(TERMINAL_ATTACKS.map((attack, index) => [index, attack]))(
		"attack %i, in every field, in every view",
		async (index, attack) => {
			const file = join(dir, `attack-${index}.jsonl`);
			writeFileSync(file, transcript(attack));
			const printed = await views(file);
			for (const [view, text] of Object.entries(printed)) {
				expect({ view, unsafe: unsafeCharacters(text) }).toEqual({ view, unsafe: [] });
				expect(isTerminalSafe(text)).toBe(true);
			}
			for (const [name, field] of Object.entries(FIELDS))
				for (const view of field.views)
					expect({ name, view, shown: printed[view].includes(field.marker) }).toEqual({
						name,
						view,
						shown: true,
					});
		},
	);

	it("--json escapes without loss: every hostile string reads back exactly", async () => {
		const attack = TERMINAL_ATTACKS.join("");
		const file = join(dir, "all.jsonl");
		writeFileSync(file, transcript(attack));
		const json = JSON.parse((await views(file)).json);
		expect(json.objective).toBe(`${FIELDS.objective.marker}${attack}`);
		expect(json.rules[0].text).toBe(`${FIELDS.rule.marker}${attack}`);
		expect(json.commands[0].toolCallId).toBe(`${FIELDS.toolCallId.marker}${attack}`);
		expect(json.world).toEqual({ taken: false, reason: `${FIELDS.worldReason.marker}${attack}` });
		expect(json.foreign[0].entry).toBe(`${FIELDS.entryId.marker}${attack}4`);
	});

	it("reports each hostile entry as an anomaly, named by its (escaped) id", async () => {
		const attack = TERMINAL_ATTACKS[0] ?? "";
		const file = join(dir, "anomalies.jsonl");
		writeFileSync(file, transcript(attack));
		const anomalies: { entry: string; reason: string }[] = JSON.parse((await views(file)).json).anomalies;
		const reasons = anomalies.map((a) => a.reason);
		const named = (name: Name) => `${FIELDS[name].marker}${attack}`;
		expect(anomalies.map((a) => a.entry)).toEqual(
			expect.arrayContaining([
				named("offChainId"),
				named("duplicateId"),
				named("missingParent"),
				`${named("entryId")}5`,
				`${named("entryId")}6`,
				`${named("entryId")}7`,
			]),
		);
		expect([...reasons].sort()).toEqual(
			[
				"entry has no valid parentId",
				"entry has no id",
				"malformed JSON",
				"duplicate id; the later entry is used",
				"parent entry is missing; the branch stops here",
				`seq 16: unknown event type ${FIELDS.eventType.marker}${attack}`,
				"seq 17: event rule-added failed its codec",
				"compaction-state.event: stateFormat 7 is newer than 1; refused",
			].sort(),
		);
	});

	it("error messages escape a hostile file name and a hostile option", async () => {
		const attack = TERMINAL_ATTACKS.join("");
		const missing = await runStateCli([join(dir, `missing${attack}.jsonl`)], {});
		const option = await runStateCli([`--${attack}`], {});
		const agent = await runStateCli([], { PI_CODING_AGENT_DIR: join(dir, attack) });
		for (const result of [missing, option, agent]) {
			expect(result.code).toBe(2);
			expect(result.stderr).not.toBe("");
			expect(unsafeCharacters(result.stderr)).toEqual([]);
		}
	});
});

import type { Event } from "../src/events/index.js";
import { encodeEvent } from "../src/events/index.js";
import { foldTranscript } from "../src/reducers/index.js";
import { median, report, timeRuns } from "./measure.js";

/**
 * A transcript of `passes` Longhaul compactions, each after the user message its rules quote and with `perPass` events
 * of mixed kinds; every other decision carries the id its producer decided, the rest are numbered by the fold.
 */
export function syntheticTranscript(passes: number, perPass: number): { text: string; events: number } {
	const lines = [JSON.stringify({ type: "session", version: 3, id: "s", cwd: "/w" })];
	let parentId: string | null = null;
	let seq = 1;
	let command = 1;
	for (let span = 1; span <= passes; span++) {
		const events: Event[] = [];
		for (let i = 0; events.length < perPass - 1; i++) {
			const k = i % 5;
			if (k === 0)
				events.push({ type: "rule-added", data: { words: `never touch file ${span}-${i}`, source: `u${span}` } });
			else if (k === 1)
				events.push({
					type: "command-recorded",
					data: {
						id: `C${command++}`,
						command: `npm test -- ${i}`,
						exitCode: 0,
						span,
						toolCallId: `t${i}`,
						by: "tool",
					},
				});
			else if (k === 2) {
				const text = `use approach ${i}`;
				const id = `D${span * perPass + i}`;
				events.push({ type: "decision-made", data: i % 2 === 0 ? { text, evidence: [], id } : { text, evidence: [] } });
			} else if (k === 3)
				events.push({ type: "value-recorded", data: { name: `port ${i}`, value: `${5000 + i}`, source: "C1" } });
			else events.push({ type: "narrative-line", data: { span, text: `did part ${i}` } });
		}
		events.push({ type: "span-closed", data: { span, kind: "whole", unlabeled: [], reason: null } });
		// The span's user message, whose words its rules are: the fold checks each rule against its source.
		const words = events.flatMap((event) => (event.type === "rule-added" ? [event.data.words] : []));
		const said = `u${span}`;
		const message = { role: "user", content: words.join("\n"), timestamp: 0 };
		lines.push(JSON.stringify({ type: "message", id: said, parentId, message }));
		parentId = said;
		const id = `c${span}`;
		const stored = events.map((event) => ({ seq: seq++, event: encodeEvent(event) }));
		const details = { stateFormat: 1, longhaul: true, span, events: stored };
		lines.push(
			JSON.stringify({
				type: "compaction",
				id,
				parentId,
				summary: "s",
				firstKeptEntryId: id,
				tokensBefore: 1,
				details,
			}),
		);
		parentId = id;
	}
	return { text: `${lines.join("\n")}\n`, events: passes * perPass };
}

/**
 * A transcript of about `chars` characters: one user message of standing rules and a Longhaul compaction that stores
 * them retyped (each space doubled) and last first, the worst input of the fold's check of a message's rules: none is
 * found in order, so each one is searched for (and past 64, the index decides).
 */
export function retypedRulesTranscript(chars: number): string {
	const rules = Array.from({ length: Math.ceil(chars / 120) }, (_, i) => `never touch file number ${i} of the tree`);
	const message = { role: "user", content: rules.join("\n"), timestamp: 0 };
	const events: Event[] = rules
		.map((words): Event => ({ type: "rule-added", data: { words: words.replaceAll(" ", "  "), source: "u1" } }))
		.reverse();
	events.push({ type: "span-closed", data: { span: 1, kind: "whole", unlabeled: [], reason: null } });
	const details = {
		stateFormat: 1,
		longhaul: true,
		span: 1,
		events: events.map((event, i) => ({ seq: i + 1, event: encodeEvent(event) })),
	};
	const compaction = { type: "compaction", id: "c1", parentId: "u1", summary: "s", firstKeptEntryId: "c1" };
	return `${[
		JSON.stringify({ type: "session", version: 3, id: "s", cwd: "/w" }),
		JSON.stringify({ type: "message", id: "u1", parentId: null, message }),
		JSON.stringify({ ...compaction, tokensBefore: 1, details }),
	].join("\n")}\n`;
}

/** Milliseconds of this process's CPU time `f` took: on a machine others load too, closer to an idle run's time. */
function cpuMs(f: () => void): number {
	const start = process.cpuUsage();
	f();
	const used = process.cpuUsage(start);
	return (used.user + used.system) / 1000;
}

/** Fold throughput and its growth at ten times the events. */
export function foldBench(): void {
	const small = syntheticTranscript(20, 500);
	const large = syntheticTranscript(200, 500);
	const smallMs = median(timeRuns(7, () => foldTranscript(small.text)));
	const largeMs = median(timeRuns(3, () => foldTranscript(large.text)));
	const largeCpuMs = median([1, 2, 3].map(() => cpuMs(() => foldTranscript(large.text))));
	const perSecond = Math.round(large.events / (largeMs / 1000));
	const perCpuSecond = Math.round(large.events / (largeCpuMs / 1000));
	report(
		"fold: events per second (100k events)",
		`${perSecond.toLocaleString("en")} ev/s (cpu ${perCpuSecond.toLocaleString("en")})`,
		">= 200,000",
		perSecond >= 200_000,
	);
	const growth = largeMs / smallMs;
	report(
		"fold: time at 10x the events",
		`${growth.toFixed(2)}x (${smallMs.toFixed(1)} -> ${largeMs.toFixed(1)} ms)`,
		"<= 12x",
		growth <= 12,
	);
}

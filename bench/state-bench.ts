import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median, report } from "./measure.js";

const here = dirname(fileURLToPath(import.meta.url));
const stateMain = resolve(here, "../src/adapters/cli/state-main.js");
const floorScript = `const fs=require("fs");for(const l of fs.readFileSync(process.argv[1],"utf8").split("\\n")){if(l)JSON.parse(l)}`;

function wall(args: readonly string[]): number {
	const start = performance.now();
	const result = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
	if (result.status !== 0) throw new Error(`bench child failed: ${args.join(" ")}`);
	return performance.now() - start;
}

/** `state` on a transcript as a whole process, against a process that only reads and parses its lines, side by side. */
export function stateBench(transcript: string | undefined): void {
	if (transcript === undefined || !existsSync(transcript)) {
		process.stdout.write(
			"skip state vs parse floor: ../shared/fixtures/transcripts/before-compaction.jsonl is absent\n",
		);
		return;
	}
	const floor: number[] = [];
	const state: number[] = [];
	for (let i = 0; i < 11; i++) {
		floor.push(wall(["-e", floorScript, transcript]));
		state.push(wall([stateMain, transcript, "--json"]));
	}
	const ratio = median(state) / median(floor);
	const figure = `${ratio.toFixed(2)}x (${median(state).toFixed(0)} vs ${median(floor).toFixed(0)} ms)`;
	report(
		`state --json on ${join("…", transcript.split("/").slice(-1)[0] ?? "")}`,
		figure,
		"<= 3x parse floor",
		ratio <= 3,
	);
}

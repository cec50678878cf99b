import { basename, join } from "node:path";
import { report } from "./measure.js";
import { absent, PARSE_SCRIPT, sideBySide, wall } from "./state-bench.js";

/**
 * (docs/contracts.md, Performance targets): `longhaul preview FILE` as a whole node process, at most 3 s; the parse
 * floor beside it for scale.
 */
export function previewBench(root: string, transcript: string): void {
	if (absent("preview, whole process", transcript)) return;
	const launcher = join(root, "bin", "longhaul.js");
	const { a: preview, b: floor } = sideBySide(
		() => wall(process.execPath, [launcher, "preview", transcript], root),
		() => wall(process.execPath, ["-e", PARSE_SCRIPT, transcript], root),
	);
	report(
		`node bin/longhaul.js preview ${basename(transcript)}`,
		`${preview.toFixed(0)} ms (${(preview / floor).toFixed(2)}x parsing, ${floor.toFixed(0)} ms)`,
		"<= 3000 ms whole process",
		preview <= 3000,
	);
}

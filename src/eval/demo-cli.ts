import { readFileSync } from "node:fs";
import * as E from "fp-ts/lib/Either.js";
import type { CliResult } from "../adapters/cli/state-cli.js";
import { sanitize, stateView } from "../projections/index.js";
import { DEMO_KEEP_RECENT_TOKENS, demoTranscript } from "./demo.js";
import { replayTranscript } from "./replay.js";
import { replayReport } from "./replay-report.js";

/** The demo takes no arguments. */
const DEMO_USAGE = "usage: longhaul demo";

/** Said before anything else: what the demo is, and which part of it is faked. */
const DEMO_HEAD = `Longhaul demo: a session recorded by scripts/make-demo.ts (test/fixtures/demo/demo.jsonl: rules given in passing,
a lift, failing and passing commands, and a first compaction made by pi's own compactor) replayed through a real
pi session with Longhaul loaded. No key is needed and nothing leaves the machine.

FAKED: the model. The agent's replies and the tool results are the recorded ones (no command runs), pi's own
summarizer is answered with the summary it gave in the recording, and Longhaul's summarizer is a stand-in that
answers with what the recording's passes accepted (labels, objective, decisions, dead ends, narrative, Now).
REAL: pi (session, extension runner, compaction) and all of Longhaul: ledger, fold, verification of the answer,
state, summary. The first compaction is pi's again (PI_COMPACTOR=pi), the others are Longhaul's.
`;

/** Runs the demo: replays the demo transcript with its compactions as recorded and prints the state it built. */
export async function runDemoCli(
	argv: readonly string[],
	caps: { readonly root: string; readonly now: () => number },
): Promise<CliResult> {
	if (argv.length > 0) return { stdout: "", stderr: `${DEMO_USAGE}\n`, code: 2 };
	const text = E.tryCatch(
		() => readFileSync(demoTranscript(caps.root), "utf8"),
		() => "the demo transcript is missing: run npm run make-demo",
	);
	if (E.isLeft(text)) return { stdout: "", stderr: `${text.left}\n`, code: 2 };
	const start = caps.now();
	const replayed = await replayTranscript(text.right, {
		extensionPath: caps.root,
		compactors: "recorded",
		every: 0,
		diff: "stand-in",
		keepRecentTokens: DEMO_KEEP_RECENT_TOKENS,
	});
	const report = replayReport([{ name: "demo", counts: replayed.counts, ms: caps.now() - start }]);
	const state = stateView(replayed.state);
	const lifted = replayed.state.lifted.map((r) => `- ${r.id} (${r.source}) lifted by ${r.by}: ${r.text}`);
	const liftedText =
		lifted.length === 0
			? ""
			: sanitize(`\nRules the user lifted (kept in the state, not in force):\n${lifted.join("\n")}\n`);
	return {
		stdout: `${sanitize(DEMO_HEAD)}\n${report}\nThe state Longhaul built (as npm run state prints it):\n\n${state}${liftedText}`,
		stderr: "",
		code: Object.keys(replayed.counts.handlerErrors).length > 0 ? 1 : 0,
	};
}

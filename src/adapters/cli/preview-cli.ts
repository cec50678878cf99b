import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { Entry, ReadAnomaly, Transcript, World } from "../../events/index.js";
import { branchOf } from "../../events/index.js";
import { PI_KEEP_RECENT_TOKENS, piCut } from "../../pass/span/index.js";
import { sanitize, taggedRulesNotice } from "../../projections/index.js";
import { agentDir, newestTranscript } from "../agent-dir.js";
import { loadConfig } from "../config.js";
import { type PassOutcome, runPass } from "../pass/run-pass.js";
import { createRedactor } from "../redact/index.js";
import { readSession } from "./session-file.js";
import type { CliResult } from "./state-cli.js";

// `longhaul preview` (docs/contracts.md, Commands a user runs): what Longhaul would keep if the session were compacted
// now, at the cut pi would make, with no model: a narrative-less pass over the transcript's bytes, read only, its
// summary printed.

export const PREVIEW_USAGE = "usage: longhaul preview [FILE] [--world] [--keep-recent-tokens N]";

/** What the preview needs from the world: the environment, a directory to fall back on, and git's snapshot. */
export interface PreviewCapabilities {
	readonly env: NodeJS.ProcessEnv;
	/** The directory the session ran in when its header names none. */
	readonly cwd: string;
	readonly takeWorld: (cwd: string) => Promise<World>;
	readonly now: () => number;
}

interface PreviewArgs {
	readonly file: string | undefined;
	readonly world: boolean;
	readonly keepRecentTokens: number;
}

/** The reason the pass gives for closing without a model, shown in the work log. */
export const PREVIEW_REASON = "preview, no model";

const NOT_ASKED: World = { taken: false, reason: "not asked for (longhaul preview --world takes it)" };

const Header = t.type({ cwd: t.string });

function fail(message: string): CliResult {
	return { stdout: "", stderr: `${sanitize(message)}\n`, code: 2 };
}

/** Reads the preview command line; a wrong one is a message. */
function parsePreviewArgs(argv: readonly string[]): E.Either<string, PreviewArgs> {
	let file: string | undefined;
	let world = false;
	let keepRecentTokens = PI_KEEP_RECENT_TOKENS;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] ?? "";
		if (arg === "--world") world = true;
		else if (arg === "--keep-recent-tokens") {
			const n = argv[++i];
			if (n === undefined || !/^[1-9][0-9]{0,6}$/.test(n))
				return E.left(`--keep-recent-tokens needs a number of tokens\n${PREVIEW_USAGE}`);
			keepRecentTokens = Number(n);
		} else if (arg === "--help" || arg === "-h") return E.left(PREVIEW_USAGE);
		else if (arg.startsWith("-")) return E.left(`unknown option ${arg}\n${PREVIEW_USAGE}`);
		else if (file === undefined) file = arg;
		else return E.left(`only one FILE may be given\n${PREVIEW_USAGE}`);
	}
	return E.right({ file, world, keepRecentTokens });
}

/** The directory the session ran in, from its header, or `fallback`. */
function sessionCwd(transcript: Transcript, fallback: string): string {
	const decoded = Header.decode(transcript.header);
	return E.isRight(decoded) ? decoded.right.cwd : fallback;
}

/** The branch's entries as pi holds them in memory (ids included, also the ones derived for a v1 file). */
function asObjects(branch: readonly Entry[]): Record<string, unknown>[] {
	return branch.map((entry) => ({ ...entry.raw, id: entry.id, parentId: entry.parentId }));
}

/**
 * A preview: the entry pi would keep from, the pass Longhaul would run there, its summary as pi would store it
 * (redacted unless `longhaul.json` says `"redact": false`, the rules verbatim), and the config's problems.
 */
export interface Preview {
	readonly firstKeptEntryId: string;
	readonly outcome: PassOutcome;
	readonly summary: string;
	readonly problems: readonly string[];
}

/**
 * The pass Longhaul would run on a session's text if pi compacted it now keeping `keepRecentTokens`, with no
 * model and the World only when `world`; undefined where pi would not compact. Writes nothing. Exported for tests.
 */
export async function previewOf(
	transcript: Transcript,
	options: { readonly keepRecentTokens: number; readonly world: boolean },
	caps: PreviewCapabilities,
): Promise<Preview | undefined> {
	const branch = branchOf(transcript.entries).entries;
	const firstKeptEntryId = piCut(branch, options.keepRecentTokens);
	if (firstKeptEntryId === undefined) return undefined;
	const cwd = sessionCwd(transcript, caps.cwd);
	const { config, problems } = loadConfig(agentDir(caps.env), cwd);
	const redactor = createRedactor(config.redact);
	const outcome = await runPass(
		{
			branch: asObjects(branch),
			firstKeptEntryId,
			cwd,
			signal: new AbortController().signal,
			settings: config,
			readsEveryMessage: true,
		},
		{
			model: undefined,
			noModelReason: PREVIEW_REASON,
			takeWorld: options.world ? caps.takeWorld : async () => NOT_ASKED,
			status: () => undefined,
			now: caps.now,
			redact: redactor.redactAll,
			redactSummary: redactor.redact,
		},
	);
	return { firstKeptEntryId, outcome, summary: outcome.summary, problems };
}

/** What the reader could not use, one line each for stderr (the preview goes on without it). */
function anomalyLines(anomalies: readonly ReadAnomaly[]): string {
	return anomalies.map((a) => `${sanitize(`anomaly at ${a.entry}: ${a.reason}`)}\n`).join("");
}

/**
 * Runs `preview`: reads the transcript (never writes it), cuts it as pi would, and prints the pass's summary,
 * redacted as the summary pi would store is.
 */
export async function runPreviewCli(argv: readonly string[], caps: PreviewCapabilities): Promise<CliResult> {
	const args = parsePreviewArgs(argv);
	if (E.isLeft(args)) return fail(args.left);
	const dir = agentDir(caps.env);
	const file = args.right.file ?? newestTranscript(dir);
	if (file === undefined) return fail(`no transcript given and none found under ${dir}/sessions`);
	const transcript = readSession(file);
	if (E.isLeft(transcript)) return fail(`${file}: ${transcript.left}`);
	const preview = await previewOf(transcript.right, args.right, caps);
	const read = anomalyLines(transcript.right.anomalies);
	if (preview === undefined)
		return {
			stdout: "pi would not compact this session now (it is empty or ends in a compaction)\n",
			stderr: read,
			code: 0,
		};
	const hidden = taggedRulesNotice(preview.outcome.taggedRules);
	const notices = [...preview.problems, ...(hidden === undefined ? [] : [hidden])];
	return {
		stdout: `${sanitize(preview.summary)}\n`,
		stderr: `${read}${notices.length === 0 ? "" : `${sanitize(notices.join("\n"))}\n`}`,
		code: 0,
	};
}

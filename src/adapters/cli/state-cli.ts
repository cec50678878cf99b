import * as E from "fp-ts/lib/Either.js";
import { anomaliesView, safeJson, sanitize, spansView, stateObject, stateView } from "../../projections/index.js";
import type { State } from "../../reducers/index.js";
import { foldRead, stateAtSpan } from "../../reducers/index.js";
import { agentDir, newestTranscript } from "../agent-dir.js";
import { loadConfig } from "../config.js";
import { createRedactor, type Redactor, redactJson } from "../redact/index.js";
import { readSession } from "./session-file.js";

/** What the state inspector prints, and its exit code. */
export interface CliResult {
	readonly stdout: string;
	readonly stderr: string;
	readonly code: number;
}

type View = "state" | "spans" | "anomalies" | "json";

interface Args {
	readonly file: string | undefined;
	readonly view: View;
	readonly span: number | undefined;
}

const USAGE = "usage: longhaul state [FILE] [--spans | --anomalies | --span N | --json]";

function fail(message: string): CliResult {
	return { stdout: "", stderr: `${sanitize(message)}\n`, code: 2 };
}

/** Reads the command line; a wrong one is a message, not an exception. */
export function parseArgs(argv: readonly string[]): E.Either<string, Args> {
	let file: string | undefined;
	let view: View = "state";
	let span: number | undefined;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] ?? "";
		if (arg === "--spans" || arg === "--anomalies" || arg === "--json") {
			if (view !== "state") return E.left(`only one of --spans, --anomalies, --json may be given\n${USAGE}`);
			view = arg === "--spans" ? "spans" : arg === "--anomalies" ? "anomalies" : "json";
		} else if (arg === "--span") {
			const n = argv[++i];
			if (n === undefined || !/^[1-9][0-9]{0,8}$/.test(n)) return E.left(`--span needs a span number\n${USAGE}`);
			span = Number(n);
		} else if (arg === "--help" || arg === "-h") {
			return E.left(USAGE);
		} else if (arg.startsWith("-")) {
			return E.left(`unknown option ${arg}\n${USAGE}`);
		} else if (file === undefined) {
			file = arg;
		} else {
			return E.left(`only one FILE may be given\n${USAGE}`);
		}
	}
	if (span !== undefined && (view === "spans" || view === "anomalies"))
		return E.left(`--span N goes alone or with --json\n${USAGE}`);
	return E.right({ file, view, span });
}

/** `state --json` with its secrets replaced: every string, a rule's words too, walked in the decoded object. */
async function redactedJson(redactor: Redactor, state: State): Promise<string> {
	return `${safeJson(await redactJson(redactor, stateObject(state)), 2)}\n`;
}

/**
 * Runs `state` over argv and the environment; read only, never throws on a transcript. What it prints is redacted
 * as /longhaul redacts unless `longhaul.json` (pi's agent dir, then `<cwd>/.pi`) says
 * `"redact": false`; a bad config line goes to stderr.
 */
export async function runStateCli(
	argv: readonly string[],
	env: NodeJS.ProcessEnv,
	cwd: string = process.cwd(),
): Promise<CliResult> {
	const args = parseArgs(argv);
	if (E.isLeft(args)) return fail(args.left);
	const { view, span } = args.right;
	const dir = agentDir(env);
	const file = args.right.file ?? newestTranscript(dir);
	if (file === undefined) return fail(`no transcript given and none found under ${dir}/sessions`);
	const transcript = readSession(file);
	if (E.isLeft(transcript)) return fail(`${file}: ${transcript.left}`);
	const folded = foldRead(transcript.right);
	const state = span === undefined ? folded.state : stateAtSpan(folded, span);
	if (state === undefined) return fail(`span ${span} is not on this branch (it has ${folded.state.spans} spans)`);
	const { config, problems } = loadConfig(dir, cwd);
	const redactor = createRedactor(config.redact);
	const stderr = problems.map((p) => `${sanitize(p)}\n`).join("");
	const stdout =
		view === "spans"
			? await redactor.redact(spansView(folded))
			: view === "anomalies"
				? await redactor.redact(anomaliesView(folded.state))
				: view === "json"
					? await redactedJson(redactor, state)
					: await redactor.redact(stateView(state));
	return { stdout, stderr, code: 0 };
}

import * as E from "fp-ts/lib/Either.js";
import { anomaliesView, sanitize, spansView, stateJson, stateView } from "../../projections/index.js";
import { foldTranscript, stateAtSpan } from "../../reducers/index.js";
import { agentDir, newestTranscript } from "../agent-dir.js";
import { readSessionFile } from "./session-file.js";

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

export const USAGE = "usage: longhaul state [FILE] [--spans | --anomalies | --span N | --json]";

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

/** Runs `state` over argv and the environment; read only, never throws on a transcript. */
export function runStateCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliResult {
	const args = parseArgs(argv);
	if (E.isLeft(args)) return fail(args.left);
	const { view, span } = args.right;
	const dir = agentDir(env);
	const file = args.right.file ?? newestTranscript(dir);
	if (file === undefined) return fail(`no transcript given and none found under ${dir}/sessions`);
	const text = readSessionFile(file);
	if (E.isLeft(text)) return fail(`${file}: ${text.left}`);
	const folded = foldTranscript(text.right);
	if (view === "spans") return { stdout: spansView(folded), stderr: "", code: 0 };
	if (view === "anomalies") return { stdout: anomaliesView(folded.state), stderr: "", code: 0 };
	const state = span === undefined ? folded.state : stateAtSpan(folded, span);
	if (state === undefined) return fail(`span ${span} is not on this branch (it has ${folded.state.spans} spans)`);
	return { stdout: view === "json" ? stateJson(state) : stateView(state), stderr: "", code: 0 };
}

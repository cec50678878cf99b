import { sanitize } from "../../projections/index.js";
import type { CliResult } from "./state-cli.js";

// `longhaul <command>` (bin/longhaul.js runs this file's build): one command line for the inspector, the
// evaluation tools and the benchmarks. Each command's module is imported only when it runs, so `state`, `preview`
// and `facts` load neither pi nor the other tools (importing pi's index costs over a second). The benchmarks live in
// bench/, outside the package (src never imports it): the launcher passes them in where a build of them exists.

/** Loads the benchmarks' entry (`runBench`, bench/run.ts): given by the launcher in a clone, absent in an install. */
export type LoadBench = () => Promise<(argv: readonly string[]) => Promise<CliResult>>;

/** What a command may use besides its arguments. */
interface CommandContext {
	readonly loadBench: LoadBench | undefined;
}

/** A command of `longhaul`. */
interface Command {
	/** What it does, for the usage text. */
	readonly summary: string;
	/** It drives real pi sessions, so it needs pi's SDK: a dev dependency, there in a clone after `npm ci`. */
	readonly needsPi: boolean;
	readonly run: (argv: readonly string[], context: CommandContext) => Promise<CliResult>;
}

const now = () => performance.now();

async function root(): Promise<string> {
	return (await import("../../eval/repo-root.js")).repoRoot();
}

const COMMANDS: Readonly<Record<string, Command>> = {
	state: {
		summary: "[FILE] [--spans | --anomalies | --span N | --json]  a session's state (no model, read only)",
		needsPi: false,
		run: async (argv) => (await import("./state-cli.js")).runStateCli(argv, process.env),
	},
	preview: {
		summary:
			"[FILE] [--world] [--keep-recent-tokens N]  what Longhaul would keep if compacted now (no model, read only)",
		needsPi: false,
		run: async (argv) => {
			const { runPreviewCli } = await import("./preview-cli.js");
			const { takeWorld } = await import("../git/world.js");
			return runPreviewCli(argv, { env: process.env, cwd: process.cwd(), takeWorld: (cwd) => takeWorld(cwd), now });
		},
	},
	replay: {
		summary: "[FILE…] [options]  recorded sessions through a real pi session, only the model faked",
		needsPi: true,
		run: async (argv) => (await import("../../eval/replay-cli.js")).runReplayCli(argv, { root: await root(), now }),
	},
	facts: {
		summary: "[FILE…]  how many reused values each compactor's summary kept (no model)",
		needsPi: false,
		run: async (argv) => (await import("../../eval/facts-cli.js")).runFactsCli(argv, { root: await root() }),
	},
	score: {
		summary: "--model provider/id [FILE…]  Longhaul against pi's own compaction, judged by a real model",
		needsPi: true,
		run: async (argv) => {
			const { resolveRoute } = await import("../../eval/probe-model.js");
			const { runScoreCli } = await import("../../eval/score-cli.js");
			return runScoreCli(argv, { root: await root(), resolve: (route) => resolveRoute(route, process.env) });
		},
	},
	demo: {
		summary: "the demo session replayed with Longhaul loaded, then its state (no key)",
		needsPi: true,
		run: async (argv) => (await import("../../eval/demo-cli.js")).runDemoCli(argv, { root: await root(), now }),
	},
	bench: {
		summary: "the performance figures, as ratios to baselines measured in the same run",
		needsPi: true,
		run: async (argv, { loadBench }) =>
			loadBench === undefined
				? {
						stdout: "",
						stderr:
							"longhaul bench runs in a clone after npm ci: this copy has no build of bench/ (the package does not ship it)\n",
						code: 2,
					}
				: (await loadBench())(argv),
	},
};

/** The usage text: every command, and which need a clone. Exported for tests. */
export const LONGHAUL_USAGE = [
	"usage: longhaul <command> [options]   (in a clone: npm run <command> -- [options])",
	...Object.entries(COMMANDS).map(
		([name, c]) => `  ${name.padEnd(8)}${c.summary}${c.needsPi ? "  (needs a clone: pi's SDK)" : ""}`,
	),
].join("\n");

/**
 * True where pi's SDK resolves from here (a clone after `npm ci`); an install without dev dependencies has none.
 * Exported for tests.
 */
export function piResolves(): boolean {
	try {
		import.meta.resolve("@mariozechner/pi-coding-agent");
		return true;
	} catch {
		return false;
	}
}

/** Runs `longhaul argv`: a command, or one line saying what is wrong (exit 2). Exported for tests. */
export async function longhaul(
	argv: readonly string[],
	hasPi: () => boolean = piResolves,
	loadBench?: LoadBench,
): Promise<CliResult> {
	const [name, ...rest] = argv;
	if (name === undefined) return { stdout: "", stderr: `${LONGHAUL_USAGE}\n`, code: 2 };
	if (name === "--help" || name === "-h" || name === "help")
		return { stdout: `${LONGHAUL_USAGE}\n`, stderr: "", code: 0 };
	const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
	if (command === undefined)
		return { stdout: "", stderr: `${sanitize(`longhaul: no command ${name}`)}\n${LONGHAUL_USAGE}\n`, code: 2 };
	if (command.needsPi && !hasPi())
		return {
			stdout: "",
			stderr: `longhaul ${name} drives real pi sessions and needs pi's SDK (@mariozechner/pi-coding-agent, a dev dependency): run it in a clone after npm ci\n`,
			code: 2,
		};
	return command.run(rest, { loadBench });
}

/** The launcher's entry: runs the command, writes its output, returns its exit code. Exported for tests. */
export async function runLonghaul(argv: readonly string[], loadBench?: LoadBench): Promise<number> {
	const result = await longhaul(argv, piResolves, loadBench);
	process.stdout.write(result.stdout);
	process.stderr.write(result.stderr);
	return result.code;
}

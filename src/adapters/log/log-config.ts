import * as path from "node:path";

/** Where the log goes (null: off), whether its directory is Longhaul's own, and whether excerpts and stacks are added. */
export interface LogConfig {
	readonly path: string | null;
	/** The directory is `<agentDir>/logs`, which Longhaul may tighten to 0700; a directory the user chose is never chmodded. */
	readonly ownDirectory: boolean;
	readonly excerpts: boolean;
	readonly stack: boolean;
}

const OFF_VALUES = new Set(["", "off", "none", "0", "false", "no"]);

/** The log's place when `PI_COMPACT_STATE_DEBUG` is unset: in pi's agent dir. */
export function defaultLogPath(agentDir: string): string {
	return path.join(agentDir, "logs", "compaction-state.jsonl");
}

function logPath(value: string | undefined, agentDir: string, cwd: string): string | null {
	if (value === undefined) return defaultLogPath(agentDir);
	const trimmed = value.trim();
	// A path, not a flag: `=1` names a file called `1`.
	return OFF_VALUES.has(trimmed.toLowerCase()) ? null : path.resolve(cwd, trimmed);
}

/** The log config from the environment; a relative path is taken from `cwd` (the process's working directory). */
export function resolveLogConfig(env: Record<string, string | undefined>, agentDir: string, cwd: string): LogConfig {
	const file = logPath(env.PI_COMPACT_STATE_DEBUG, agentDir, cwd);
	return {
		path: file,
		ownDirectory: file !== null && path.dirname(file) === path.dirname(defaultLogPath(agentDir)),
		excerpts: env.PI_COMPACT_STATE_DEBUG_EXCERPTS?.trim() === "1",
		stack: env.PI_COMPACT_STATE_DEBUG_STACK?.trim() === "1",
	};
}

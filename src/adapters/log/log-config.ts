import * as path from "node:path";

/** Where the log goes (null: off) and whether excerpts and stacks are added. */
export interface LogConfig {
	readonly path: string | null;
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
	return {
		path: logPath(env.PI_COMPACT_STATE_DEBUG, agentDir, cwd),
		excerpts: env.PI_COMPACT_STATE_DEBUG_EXCERPTS?.trim() === "1",
		stack: env.PI_COMPACT_STATE_DEBUG_STACK?.trim() === "1",
	};
}

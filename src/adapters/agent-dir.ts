import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** pi's agent dir: `PI_CODING_AGENT_DIR` (with `~` expanded) or `~/.pi/agent`, as pi resolves it. */
export function agentDir(env: NodeJS.ProcessEnv, home: string = homedir()): string {
	const dir = env.PI_CODING_AGENT_DIR;
	if (dir === undefined || dir === "") return join(home, ".pi", "agent");
	if (dir === "~") return home;
	return dir.startsWith("~/") ? join(home, dir.slice(2)) : dir;
}

function jsonlFiles(dir: string, depth: number): string[] {
	const found: string[] = [];
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return found;
	}
	for (const name of names) {
		const path = join(dir, name);
		if (name.endsWith(".jsonl")) found.push(path);
		else if (depth > 0) found.push(...jsonlFiles(path, depth - 1));
	}
	return found;
}

function mtime(path: string): number {
	try {
		const stats = statSync(path);
		return stats.isFile() ? stats.mtimeMs : Number.NEGATIVE_INFINITY;
	} catch {
		return Number.NEGATIVE_INFINITY;
	}
}

/** The newest session file under the agent dir's `sessions/` (one folder per project), if any. */
export function newestTranscript(dir: string): string | undefined {
	let best: { path: string; at: number } | undefined;
	for (const path of jsonlFiles(join(dir, "sessions"), 1)) {
		const at = mtime(path);
		if (at === Number.NEGATIVE_INFINITY) continue;
		if (best === undefined || at > best.at || (at === best.at && path > best.path)) best = { path, at };
	}
	return best?.path;
}

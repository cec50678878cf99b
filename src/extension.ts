import { homedir } from "node:os";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { getAgentDir, VERSION } from "@mariozechner/pi-coding-agent";
import { takeWorld } from "./adapters/git/world.js";
import { createLog, resolveLogConfig } from "./adapters/log/index.js";
import { runPass } from "./adapters/pass/run-pass.js";
import { registerLonghaul } from "./adapters/pi/longhaul.js";

/** Longhaul's production wiring: the real clock, git, log file and pass. */
export default function longhaul(pi: ExtensionAPI): void {
	const agentDir = getAgentDir();
	const logConfig = resolveLogConfig(process.env, agentDir, process.cwd());
	registerLonghaul(pi, {
		env: process.env,
		home: homedir(),
		agentDir,
		piVersion: VERSION,
		now: () => Date.now(),
		takeWorld: (cwd) => takeWorld(cwd),
		runPass,
		log: createLog(logConfig),
		logConfig,
		defer: (f) => {
			setTimeout(f, 0);
		},
	});
}

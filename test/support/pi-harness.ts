import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AssistantMessage, fauxAssistantMessage, fauxToolCall } from "@mariozechner/pi-ai";
import { EnvOverride } from "../../src/adapters/env-override.js";
import {
	type BackendSetup,
	type BranchEntry,
	type FauxModelSpec,
	type Harness,
	type HarnessOptions,
	type ModelCall,
	Script,
	writeFiles,
} from "./harness-parts.js";
import { startPi073 } from "./pi-073.js";

export type {
	BranchEntry,
	CapturedUi,
	FauxModelSpec,
	Harness,
	HarnessOptions,
	ModelCall,
	Notice,
	Reply,
	ScriptedModel,
} from "./harness-parts.js";
export { FAUX_PROVIDER } from "./harness-parts.js";

// A real pi session (pi's SDK and runtime, real tools in a temp cwd, extensions loaded by path) where only the
// model is faked, with pi-ai's faux provider. Which pi: LONGHAUL_PI=1 runs pi 1.x (`@earendil-works/pi-coding-agent`,
// Node >= 22.19), anything else pi 0.73.1 (`@mariozechner/pi-coding-agent`). Who serves the model:
// LONGHAUL_PI_PROVIDER=extension an extension's own stream, else pi-ai's API registry (see HarnessOptions.provider).
// Sessions share process.env and pi-ai's provider registry, so run one harness at a time per worker (vitest runs
// the tests of a file one after another).

/** Which pi the harness runs, from LONGHAUL_PI. */
export const PI_LINE: Harness["pi"] = process.env.LONGHAUL_PI === "1" ? "1.x" : "0.73";

/** An assistant message that says `text`. */
export function say(text: string): AssistantMessage {
	return fauxAssistantMessage(text);
}

/** An assistant message that calls tool `name` with `args` (and says `text` first, when given). */
export function callTool(name: string, args: Record<string, unknown>, text?: string): AssistantMessage {
	const call = fauxToolCall(name, args);
	return fauxAssistantMessage(text === undefined ? call : [{ type: "text", text }, call], { stopReason: "toolUse" });
}

/** An assistant message that runs `command` with pi's bash tool. */
export function callBash(command: string): AssistantMessage {
	return callTool("bash", { command });
}

/** A failed model call, as a provider error reaches pi. */
export function fail(errorMessage: string): AssistantMessage {
	return fauxAssistantMessage([], { stopReason: "error", errorMessage });
}

/** The text of a request's last user message (pi's summarizer and most extension calls put their prompt there). */
export function lastUserText(call: ModelCall): string {
	const user = call.context.messages.filter((message) => message.role === "user").at(-1);
	if (user === undefined) return "";
	if (typeof user.content === "string") return user.content;
	return user.content.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("");
}

/** The text of each result of tool `name` on `branch`, in order (a result's text blocks joined). */
export function toolResultTexts(branch: readonly BranchEntry[], name: string): string[] {
	return branch.flatMap((entry) =>
		entry.type === "message" && entry.message.role === "toolResult" && entry.message.toolName === name
			? [entry.message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("")]
			: [],
	);
}

/** A compaction entry on a branch, whoever wrote it. */
export type CompactionOnBranch = Extract<BranchEntry, { type: "compaction" }>;

/** The compaction entries on `branch`, oldest first. */
export function compactionsOn(branch: readonly BranchEntry[]): CompactionOnBranch[] {
	return branch.flatMap((entry) => (entry.type === "compaction" ? [entry] : []));
}

/** The content of the last assistant message on `branch`: what the session said last. */
export function lastReply(branch: readonly BranchEntry[]): AssistantMessage["content"] | undefined {
	return branch
		.flatMap((entry) => (entry.type === "message" && entry.message.role === "assistant" ? [entry.message.content] : []))
		.at(-1);
}

const DEFAULT_MODELS: readonly FauxModelSpec[] = [{ id: "faux-1" }];

function providerOf(options: HarnessOptions): BackendSetup["provider"] {
	return (options.provider ?? process.env.LONGHAUL_PI_PROVIDER) === "extension" ? "extension" : "registry";
}

/** Starts a pi session with the given extensions, a temp agent dir and a scripted faux model. */
export async function startSession(options: HarnessOptions): Promise<Harness> {
	const agentDir = mkdtempSync(join(tmpdir(), "longhaul-agent-"));
	const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), "longhaul-cwd-"));
	writeFiles(agentDir, options.agentFiles);
	writeFiles(cwd, options.projectFiles);
	const env = new EnvOverride();
	env.set({ PI_CODING_AGENT_DIR: agentDir, ...options.env });
	const setup: BackendSetup = {
		options,
		provider: providerOf(options),
		specs: options.models ?? DEFAULT_MODELS,
		script: new Script(),
		cwd,
		agentDir,
		env,
		removeOnDispose: options.cwd === undefined ? [agentDir, cwd] : [agentDir],
	};
	if (PI_LINE === "0.73") return startPi073(setup);
	// Imported only here: pi 1.x does not load on Node 20 (its node:fs imports need Node 22), where 0.73 runs.
	const { startPi1x } = await import("./pi-1x.js");
	return startPi1x(setup);
}

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AssistantMessage, ThinkingLevelMap } from "@mariozechner/pi-ai";
import type { ExtensionFactory, SessionEntry } from "@mariozechner/pi-coding-agent";
import type { EnvOverride } from "../../src/adapters/env-override.js";

// What both pi backends of the harness share (pi 0.73 in `pi-073.ts`, pi 1.x in `pi-1x.ts`): the scripted model,
// the shapes tests read, the recording UI and the environment override. Types here are the harness's own, narrow
// enough that either pi's objects fit them, so the same test files run under both.

/** The provider name the faux models are registered under: routes read `faux/<model id>`. */
export const FAUX_PROVIDER = "faux";

/** A message of a request, as either pi sends it: its role and its content (text or blocks). */
export interface CallMessage {
	readonly role: string;
	readonly content: string | readonly { readonly type: string; readonly text?: string }[];
}

/** A request's context: pi 1.x carries the system prompt and tools in system messages; here they are taken out. */
export interface CallContext {
	readonly systemPrompt: string | undefined;
	readonly messages: readonly CallMessage[];
	/** The names of the tools the request offers. */
	readonly tools: readonly string[];
}

/** What the caller passed to the provider's stream (`reasoning`, `maxTokens`, `signal`, …). */
export interface CallOptions {
	readonly reasoning?: string;
	readonly maxTokens?: number;
	readonly signal?: AbortSignal;
}

/** One request the faked model received. */
export interface ModelCall {
	/** 1 for the first request of the harness, counting every kind. */
	readonly index: number;
	/** `agent` when the request offers tools (an agent turn, a turns-mode conversation), `side` otherwise. */
	readonly kind: "agent" | "side";
	readonly model: { readonly provider: string; readonly id: string };
	readonly context: CallContext;
	readonly options: CallOptions | undefined;
}

/** What the model answers: text, a whole assistant message, or either computed from the request (stamped when served). */
export type Reply =
	| string
	| AssistantMessage
	| ((call: ModelCall) => string | AssistantMessage | Promise<string | AssistantMessage>);

/** The faked model's script: replies are used in order; a kind's own queue goes before the shared one. */
export interface ScriptedModel {
	/** Queues replies for any request. */
	script(...replies: Reply[]): void;
	/** Queues replies for agent turns only. */
	scriptAgent(...replies: Reply[]): void;
	/** Queues replies for side calls only (requests without tools). */
	scriptSide(...replies: Reply[]): void;
	/** Every request so far, in order. */
	readonly calls: readonly ModelCall[];
	/** How many queued replies are left, over all queues. */
	pending(): number;
}

/** A model the harness registers under {@link FAUX_PROVIDER}; the first of a session's list is the session's model. */
export interface FauxModelSpec {
	readonly id: string;
	readonly reasoning?: boolean;
	readonly thinkingLevelMap?: ThinkingLevelMap;
	readonly contextWindow?: number;
	readonly maxTokens?: number;
}

/** The parts of an answer a backend turns into its own pi's assistant message. */
export interface Answer {
	readonly content: AssistantMessage["content"];
	readonly stopReason: AssistantMessage["stopReason"];
	readonly errorMessage: string | undefined;
}

function answerOf(message: AssistantMessage): Answer {
	return { content: message.content, stopReason: message.stopReason, errorMessage: message.errorMessage };
}

const text = (t: string): Answer => ({
	content: [{ type: "text", text: t }],
	stopReason: "stop",
	errorMessage: undefined,
});

/** The script's queues; {@link Script.take} records a request and takes its reply. */
export class Script implements ScriptedModel {
	readonly calls: ModelCall[] = [];
	private readonly shared: Reply[] = [];
	private readonly byKind: Record<ModelCall["kind"], Reply[]> = { agent: [], side: [] };

	script(...replies: Reply[]): void {
		this.shared.push(...replies);
	}

	scriptAgent(...replies: Reply[]): void {
		this.byKind.agent.push(...replies);
	}

	scriptSide(...replies: Reply[]): void {
		this.byKind.side.push(...replies);
	}

	pending(): number {
		return this.shared.length + this.byKind.agent.length + this.byKind.side.length;
	}

	/** Records a request and takes the reply it gets; nothing left to take is a provider error, not a hang. */
	take(model: ModelCall["model"], context: CallContext, options: CallOptions | undefined): () => Promise<Answer> {
		const kind = context.tools.length > 0 ? "agent" : "side";
		const call: ModelCall = { index: this.calls.length + 1, kind, model, context, options };
		this.calls.push(call);
		const reply = this.byKind[kind].shift() ?? this.shared.shift();
		return async () => {
			if (reply === undefined)
				return {
					content: [],
					stopReason: "error",
					errorMessage: `harness: no scripted reply for ${kind} call #${call.index}`,
				};
			const answer = typeof reply === "function" ? await reply(call) : reply;
			return typeof answer === "string" ? text(answer) : answerOf(answer);
		};
	}
}

/** A `ctx.ui.notify` call. */
export interface Notice {
	readonly message: string;
	readonly type: "info" | "warning" | "error" | undefined;
}

/** What extensions did to the UI: notices in order, and the footer statuses (current and every change). */
export interface CapturedUi {
	readonly notices: Notice[];
	readonly statuses: Map<string, string>;
	readonly statusChanges: { readonly key: string; readonly text: string | undefined }[];
}

/** The two UI calls the harness records, in the shape both pis' `ExtensionUIContext` have. */
export interface RecordedCalls {
	notify(message: string, type?: "info" | "warning" | "error"): void;
	setStatus(key: string, text: string | undefined): void;
}

// pi's headless context (no UI bound: print mode) ignores notify and setStatus and reports `hasUI` false; binding
// any other context makes `hasUI` true, as in RPC mode, whose notify and setStatus are fire-and-forget too.
/** pi's UI context with notify and setStatus recorded into `captured`. */
export function recordingUi<U extends RecordedCalls>(base: U, captured: CapturedUi): U {
	return {
		...base,
		notify: (message: string, type?: "info" | "warning" | "error") => {
			captured.notices.push({ message, type });
		},
		setStatus: (key: string, text: string | undefined) => {
			captured.statusChanges.push({ key, text });
			if (text === undefined) captured.statuses.delete(key);
			else captured.statuses.set(key, text);
		},
	};
}

/** How to start a harness session. */
export interface HarnessOptions {
	/** Extension files or package directories, loaded by path as `pi -e` does; nothing else is discovered. */
	readonly extensionPaths: readonly string[];
	/** Extensions written inline in the test (pi's `extensionFactories`), loaded beside the paths; pi 0.73.1 only. */
	readonly extensionFactories?: readonly ExtensionFactory[];
	/** The project directory tools run in; a fresh temp dir (removed at dispose) when not given. */
	readonly cwd?: string;
	/** pi's `compaction.keepRecentTokens` (default 20, so a short conversation has something to summarize). */
	readonly keepRecentTokens?: number;
	/** pi's `compaction.reserveTokens` (default 16384, pi's own). */
	readonly reserveTokens?: number;
	/** pi's auto-compaction (default on, as in pi; it fires when a reply's usage nears the model's contextWindow). */
	readonly autoCompaction?: boolean;
	/** The faux models; the first is the session's (default one model, `faux-1`, no reasoning). */
	readonly models?: readonly FauxModelSpec[];
	/** The session's thinking level (default `off`). */
	readonly thinkingLevel?: "off" | "minimal" | "low" | "medium" | "high" | "xhigh";
	/** Environment variables set for the harness's life and restored at dispose; `PI_CODING_AGENT_DIR` is set. */
	readonly env?: Readonly<Record<string, string | undefined>>;
	/** Bind a recording UI (default true, `ctx.hasUI` true); false leaves pi's headless UI (`hasUI` false). */
	readonly ui?: boolean;
	/** Keep the session in a JSONL file under the temp agent dir (default false: in memory, as `--no-session`). */
	readonly persist?: boolean;
	/** Resume this session file in the harness cwd, as `pi --session` does (pi migrates a v1 file in place: pass a copy). */
	readonly sessionFile?: string;
	/** Files to write into the temp agent dir before start, by relative path (e.g. `longhaul.json`). */
	readonly agentFiles?: Readonly<Record<string, string>>;
	/** Files to write into the cwd before start, by relative path (e.g. `.pi/longhaul.json`). */
	readonly projectFiles?: Readonly<Record<string, string>>;
	/** Skill files or directories pi loads as `--skill` does (default none; nothing else is discovered). */
	readonly skillPaths?: readonly string[];
	/** Start even when an extension failed to load or a path loaded none (default false: the start throws). */
	readonly allowLoadErrors?: boolean;
	/**
	 * Who serves the faux models: `registry`, pi-ai's API registry (the models registered on pi's model registry);
	 * `extension`, an extension that registers the provider with its own stream (`pi.registerProvider` with
	 * `streamSimple`). Default: `LONGHAUL_PI_PROVIDER` from the environment, else `registry`.
	 */
	readonly provider?: "registry" | "extension";
}

/** An image pasted into a prompt, as pi-ai's `ImageContent`. */
export interface PromptImage {
	readonly type: "image";
	readonly data: string;
	readonly mimeType: string;
}

/** The session as tests drive it directly; both pis' `AgentSession` have these. */
export interface HarnessSession {
	compact(customInstructions?: string): Promise<{ readonly summary: string }>;
	abortCompaction(): void;
	getActiveToolNames(): string[];
	readonly sessionFile: string | undefined;
	setAutoCompactionEnabled(enabled: boolean): void;
	readonly settingsManager: { applyOverrides(overrides: { compaction?: { keepRecentTokens?: number } }): void };
}

/** An entry of a kind pi 0.73 does not write: pi 1.x's `usage` (from 0.81) and `context_edit` (from 0.87). */
export interface LaterEntry {
	readonly type: "usage" | "context_edit";
	readonly id: string;
	readonly parentId: string | null;
}

/** An entry of the branch: one of the kinds pi 0.73 writes, or a later kind. */
export type BranchEntry = SessionEntry | LaterEntry;

/** A session event as the harness records it: its type, and the reason of a `compaction_start`. */
export interface HarnessEvent {
	readonly type: string;
	readonly reason?: string;
}

/** An error an extension handler threw (pi swallows it and goes on), or an extension that failed to load. */
export interface HarnessError {
	readonly event?: string;
	readonly path?: string;
	readonly error: string;
}

/** A running pi session with a scripted model. */
export interface Harness {
	/** Which pi runs: `0.73` (`@mariozechner/pi-coding-agent`) or `1.x` (`@earendil-works/pi-coding-agent`). */
	readonly pi: "0.73" | "1.x";
	/** The active session; it changes after `fork` (or an extension's `ctx.newSession`/`ctx.fork`). */
	readonly session: HarnessSession;
	readonly sessionManager: {
		getLeafId(): string | null;
		appendCompaction(
			summary: string,
			firstKeptEntryId: string,
			tokensBefore: number,
			details?: unknown,
			fromHook?: boolean,
		): string;
	};
	readonly cwd: string;
	/** The temp agent dir (`PI_CODING_AGENT_DIR` while the harness lives). */
	readonly agentDir: string;
	readonly model: ScriptedModel;
	readonly ui: CapturedUi;
	/** Every session event (agent, tool, compaction_start/end, …) over all sessions of the harness. */
	readonly events: readonly HarnessEvent[];
	/** Errors extension handlers threw; pi swallows them and goes on. */
	readonly extensionErrors: readonly HarnessError[];
	/** Extensions that failed to load, as pi reported them. */
	readonly loadErrors: readonly HarnessError[];
	/**
	 * Sends a user message (or runs a `/command`), with images pasted beside it when given, and waits until the agent,
	 * and any auto-compaction, is done.
	 */
	prompt(text: string, images?: readonly PromptImage[]): Promise<void>;
	/** Runs a command as the user's `!command` does: pi stores its output as a `bashExecution` message, not the user's. */
	bash(command: string): Promise<void>;
	/** Runs pi's manual compaction (`/compact`) and waits for it; rejects as pi does when it fails. */
	compact(customInstructions?: string): Promise<{ readonly summary: string }>;
	/** The entries from the root to the leaf. */
	branch(): BranchEntry[];
	/** pi's own token estimate of the branch's message entries from `entryId` on (each pi counts some content its own way). */
	tokensFrom(entryId: string): number;
	/** Moves the leaf as `/tree` does. */
	navigateTree(targetId: string, options?: { summarize?: boolean; label?: string }): Promise<{ cancelled: boolean }>;
	/** Forks from an entry into a new session, as `/fork` does; the harness follows the new session. */
	fork(entryId: string, options?: { position?: "before" | "at" }): Promise<{ cancelled: boolean }>;
	/** Reloads extensions as `/reload` does (the faux provider is put back where pi's reload cleared it). */
	reload(): Promise<void>;
	/** Shuts the session down (`session_shutdown`), restores the environment and removes the temp dirs. */
	dispose(): Promise<void>;
}

/** What a backend is handed: the options, the script, the dirs, and what dispose must undo. */
export interface BackendSetup {
	readonly options: HarnessOptions;
	readonly provider: "registry" | "extension";
	readonly specs: readonly FauxModelSpec[];
	readonly script: Script;
	readonly cwd: string;
	readonly agentDir: string;
	readonly env: EnvOverride;
	readonly removeOnDispose: readonly string[];
}

/** Writes `files` under `root`, by relative path. */
export function writeFiles(root: string, files: Readonly<Record<string, string>> | undefined): void {
	for (const [relative, content] of Object.entries(files ?? {})) {
		const path = join(root, relative);
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, content);
	}
}

/** The faux provider as pi's `registerProvider` takes it (both pis), serving `api`. */
export function fauxProvider(specs: readonly FauxModelSpec[], api: string) {
	return { api, baseUrl: "http://localhost:0", apiKey: "faux-key", models: modelDefinitions(specs) };
}

/** The faux models' definitions, as pi's `registerProvider` takes them (both pis). */
export function modelDefinitions(specs: readonly FauxModelSpec[]) {
	return specs.map((spec) => ({
		id: spec.id,
		name: spec.id,
		reasoning: spec.reasoning ?? false,
		thinkingLevelMap: spec.thinkingLevelMap,
		input: ["text" as const],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: spec.contextWindow ?? 128_000,
		maxTokens: spec.maxTokens ?? 16_384,
	}));
}

/** The harness's settings for pi's compaction and retries. */
export function harnessSettings(options: HarnessOptions) {
	return {
		compaction: {
			enabled: options.autoCompaction ?? true,
			keepRecentTokens: options.keepRecentTokens ?? 20,
			reserveTokens: options.reserveTokens ?? 16_384,
		},
		retry: { enabled: false },
	};
}

/** The resource loader's options: the given extension paths, nothing discovered. */
export function loaderOptions(options: HarnessOptions) {
	return {
		additionalExtensionPaths: [...options.extensionPaths],
		additionalSkillPaths: [...(options.skillPaths ?? [])],
		noExtensions: true,
		noSkills: true,
		noPromptTemplates: true,
		noThemes: true,
		noContextFiles: true,
	};
}

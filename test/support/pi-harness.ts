import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
	type Api,
	type AssistantMessage,
	type AssistantMessageEventStream,
	type Context,
	fauxAssistantMessage,
	fauxToolCall,
	getApiProvider,
	type Model,
	type ModelThinkingLevel,
	registerApiProvider,
	registerFauxProvider,
	type SimpleStreamOptions,
	type ThinkingLevelMap,
	unregisterApiProviders,
} from "@mariozechner/pi-ai";
import {
	type AgentSession,
	type AgentSessionEvent,
	type AgentSessionRuntime,
	AuthStorage,
	type CompactionResult,
	type CreateAgentSessionRuntimeFactory,
	createAgentSessionFromServices,
	createAgentSessionRuntime,
	createAgentSessionServices,
	type ExtensionCommandContextActions,
	type ExtensionError,
	type ExtensionFactory,
	type ExtensionUIContext,
	ModelRegistry,
	type SessionEntry,
	SessionManager,
	SettingsManager,
} from "@mariozechner/pi-coding-agent";
import { Settler } from "../../src/adapters/eval/settler.js";

// A real pi session (pi's SDK and runtime, real tools in a temp cwd, extensions loaded by path) where only the
// model is faked, with pi-ai's faux provider. Sessions share process.env and pi-ai's provider registry, so run
// one harness at a time per worker (vitest runs the tests of a file one after another).

// ---------------------------------------------------------------------------------------------------------------
// The scripted model
// ---------------------------------------------------------------------------------------------------------------

/** The provider name the faux models are registered under: routes read `faux/<model id>`. */
export const FAUX_PROVIDER = "faux";

/** One request the faked model received. */
export interface ModelCall {
	/** 1 for the first request of the harness, counting every kind. */
	readonly index: number;
	/** `agent` when the request offers tools (an agent turn), `side` otherwise (pi's summarizer, an extension's call). */
	readonly kind: "agent" | "side";
	readonly model: Model<Api>;
	readonly context: Context;
	/** What the caller passed to pi-ai (`reasoning`, `maxTokens`, `signal`, …). */
	readonly options: SimpleStreamOptions | undefined;
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
	return user.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

class Script implements ScriptedModel {
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
	take(model: Model<Api>, context: Context, options: SimpleStreamOptions | undefined): () => Promise<AssistantMessage> {
		const kind = (context.tools?.length ?? 0) > 0 ? "agent" : "side";
		const call: ModelCall = { index: this.calls.length + 1, kind, model, context, options };
		this.calls.push(call);
		const reply = this.byKind[kind].shift() ?? this.shared.shift();
		return async () => {
			if (reply === undefined) return fail(`harness: no scripted reply for ${kind} call #${call.index}`);
			const answer = typeof reply === "function" ? await reply(call) : reply;
			// Stamped when served, not when scripted: pi compares reply times with compaction entries' times.
			return typeof answer === "string" ? say(answer) : { ...answer, timestamp: Date.now() };
		};
	}
}

interface FauxApi {
	readonly api: string;
	/** Registers the dispatching stream in pi-ai's provider registry (again after pi's reload cleared it). */
	install(): void;
	uninstall(): void;
}

// The faux provider streams a message the way a provider does; its own queue is fed one reply per request, from
// the script, at the moment pi asks, so a reply can depend on the request and concurrent calls cannot mix.
// The model a request names comes from pi's registry (see registerModels); faux's own model list goes unused.
function fauxApi(script: Script): FauxApi {
	const faux = registerFauxProvider({ provider: FAUX_PROVIDER });
	const inner = getApiProvider(faux.api);
	faux.unregister();
	if (inner === undefined) throw new Error("harness: pi-ai did not register the faux provider");
	const sourceId = `longhaul-harness:${faux.api}`;
	const dispatch = (
		model: Model<Api>,
		context: Context,
		options?: SimpleStreamOptions,
	): AssistantMessageEventStream => {
		faux.setResponses([script.take(model, context, options)]);
		return inner.streamSimple(model, context, options);
	};
	return {
		api: faux.api,
		install: () => registerApiProvider({ api: faux.api, stream: dispatch, streamSimple: dispatch }, sourceId),
		uninstall: () => unregisterApiProviders(sourceId),
	};
}

function registerModels(registry: ModelRegistry, api: string, specs: readonly FauxModelSpec[]): void {
	registry.registerProvider(FAUX_PROVIDER, {
		api,
		baseUrl: "http://localhost:0",
		apiKey: "faux-key",
		models: specs.map((spec) => ({
			id: spec.id,
			name: spec.id,
			reasoning: spec.reasoning ?? false,
			thinkingLevelMap: spec.thinkingLevelMap,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: spec.contextWindow ?? 128_000,
			maxTokens: spec.maxTokens ?? 16_384,
		})),
	});
}

// ---------------------------------------------------------------------------------------------------------------
// What the extensions showed
// ---------------------------------------------------------------------------------------------------------------

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

// pi's headless context (no UI bound: print mode) ignores notify and setStatus and reports `hasUI` false; binding
// any other context makes `hasUI` true, as in RPC mode, whose notify and setStatus are fire-and-forget too.
function recordingUi(base: ExtensionUIContext, captured: CapturedUi): ExtensionUIContext {
	return {
		...base,
		notify: (message, type) => {
			captured.notices.push({ message, type });
		},
		setStatus: (key, text) => {
			captured.statusChanges.push({ key, text });
			if (text === undefined) captured.statuses.delete(key);
			else captured.statuses.set(key, text);
		},
	};
}

// ---------------------------------------------------------------------------------------------------------------
// The session
// ---------------------------------------------------------------------------------------------------------------

/** How to start a harness session. */
export interface HarnessOptions {
	/** Extension files or package directories, loaded by path as `pi -e` does; nothing else is discovered. */
	readonly extensionPaths: readonly string[];
	/** Extensions written inline in the test (pi's `extensionFactories`), loaded beside the paths. */
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
	readonly thinkingLevel?: ModelThinkingLevel;
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
	/** Start even when an extension failed to load or a path loaded none (default false: the start throws). */
	readonly allowLoadErrors?: boolean;
}

/** A running pi session with a scripted model. */
export interface Harness {
	/** The active session; it changes after `fork` (or an extension's `ctx.newSession`/`ctx.fork`). */
	readonly session: AgentSession;
	readonly sessionManager: SessionManager;
	readonly runtime: AgentSessionRuntime;
	readonly cwd: string;
	/** The temp agent dir (`PI_CODING_AGENT_DIR` while the harness lives). */
	readonly agentDir: string;
	readonly model: ScriptedModel;
	readonly ui: CapturedUi;
	/** Every session event (agent, tool, compaction_start/end, …) over all sessions of the harness. */
	readonly events: readonly AgentSessionEvent[];
	/** Errors extension handlers threw; pi swallows them and goes on. */
	readonly extensionErrors: readonly ExtensionError[];
	/** Extensions that failed to load, as pi reported them. */
	readonly loadErrors: readonly { readonly path: string; readonly error: string }[];
	/** Sends a user message (or runs a `/command`) and waits until the agent, and any auto-compaction, is done. */
	prompt(text: string): Promise<void>;
	/** Runs pi's manual compaction (`/compact`) and waits for it; rejects as pi does when it fails. */
	compact(customInstructions?: string): Promise<CompactionResult>;
	/** The entries from the root to the leaf. */
	branch(): SessionEntry[];
	/** Moves the leaf as `/tree` does. */
	navigateTree(
		targetId: string,
		options?: { summarize?: boolean; label?: string },
	): Promise<{ editorText?: string; cancelled: boolean }>;
	/** Forks from an entry into a new session, as `/fork` does; the harness follows the new session. */
	fork(entryId: string, options?: { position?: "before" | "at" }): Promise<{ cancelled: boolean }>;
	/** Reloads extensions as `/reload` does, then puts the faux provider back (pi's reload clears pi-ai's registry). */
	reload(): Promise<void>;
	/** Shuts the session down (`session_shutdown`), restores the environment and removes the temp dirs. */
	dispose(): Promise<void>;
}

const DEFAULT_MODELS: readonly FauxModelSpec[] = [{ id: "faux-1" }];

function writeFiles(root: string, files: Readonly<Record<string, string>> | undefined): void {
	for (const [relative, text] of Object.entries(files ?? {})) {
		const path = join(root, relative);
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, text);
	}
}

class EnvOverride {
	private readonly saved = new Map<string, string | undefined>();

	set(vars: Readonly<Record<string, string | undefined>>): void {
		for (const [key, value] of Object.entries(vars)) {
			if (!this.saved.has(key)) this.saved.set(key, process.env[key]);
			if (value === undefined) Reflect.deleteProperty(process.env, key);
			else process.env[key] = value;
		}
	}

	restore(): void {
		for (const [key, value] of this.saved) {
			if (value === undefined) Reflect.deleteProperty(process.env, key);
			else process.env[key] = value;
		}
		this.saved.clear();
	}
}

class PiHarness implements Harness {
	readonly ui: CapturedUi = { notices: [], statuses: new Map(), statusChanges: [] };
	readonly events: AgentSessionEvent[] = [];
	readonly extensionErrors: ExtensionError[] = [];
	readonly loadErrors: { path: string; error: string }[] = [];
	private active: AgentSessionRuntime | undefined;
	private uiContext: ExtensionUIContext | undefined;
	private detach: (() => void) | undefined;
	private readonly settler = new Settler();

	constructor(
		readonly model: Script,
		readonly cwd: string,
		readonly agentDir: string,
		private readonly faux: FauxApi,
		private readonly env: EnvOverride,
		private readonly removeOnDispose: readonly string[],
		private readonly recordUi: boolean,
	) {}

	get runtime(): AgentSessionRuntime {
		if (this.active === undefined) throw new Error("harness: the session has not started");
		return this.active;
	}

	set runtime(runtime: AgentSessionRuntime) {
		this.active = runtime;
	}

	get session(): AgentSession {
		return this.runtime.session;
	}

	get sessionManager(): SessionManager {
		return this.session.sessionManager;
	}

	/** Subscribes to a (new) session and binds extensions to it, which emits its `session_start`. */
	async attach(session: AgentSession): Promise<void> {
		this.detach?.();
		const offSettler = this.settler.watch(session);
		const offSession = session.subscribe((event) => {
			this.events.push(event);
		});
		this.detach = () => {
			offSettler();
			offSession();
		};
		if (this.recordUi) this.uiContext ??= recordingUi(session.extensionRunner.getUIContext(), this.ui);
		await session.bindExtensions({
			uiContext: this.uiContext,
			commandContextActions: this.commandActions(),
			onError: (error) => {
				this.extensionErrors.push(error);
			},
		});
	}

	private commandActions(): ExtensionCommandContextActions {
		return {
			waitForIdle: () => this.settle(),
			newSession: (options) => this.runtime.newSession(options),
			fork: (entryId, options) => this.fork(entryId, options),
			navigateTree: (targetId, options) => this.navigateTree(targetId, options),
			switchSession: (path, options) => this.runtime.switchSession(path, options),
			reload: () => this.reload(),
		};
	}

	/** Waits until pi has handled every agent event and no compaction runs. */
	settle(): Promise<void> {
		return this.settler.settle();
	}

	async prompt(text: string): Promise<void> {
		await this.session.prompt(text);
		await this.settle();
	}

	async compact(customInstructions?: string): Promise<CompactionResult> {
		await this.settle();
		return this.session.compact(customInstructions);
	}

	branch(): SessionEntry[] {
		return this.sessionManager.getBranch();
	}

	navigateTree(
		targetId: string,
		options?: { summarize?: boolean; label?: string },
	): Promise<{ editorText?: string; cancelled: boolean }> {
		return this.session.navigateTree(targetId, options);
	}

	async fork(entryId: string, options?: { position?: "before" | "at" }): Promise<{ cancelled: boolean }> {
		const result = await this.runtime.fork(entryId, options);
		return { cancelled: result.cancelled };
	}

	async reload(): Promise<void> {
		await this.session.reload();
		this.faux.install();
	}

	async dispose(): Promise<void> {
		try {
			await this.active?.dispose();
		} finally {
			this.detach?.();
			this.faux.uninstall();
			this.env.restore();
			for (const dir of this.removeOnDispose) rmSync(dir, { recursive: true, force: true });
		}
	}
}

/** pi's runtime factory, as its modes write it: used at start and again for every fork, new or resumed session. */
function runtimeFactory(
	options: HarnessOptions,
	specs: readonly FauxModelSpec[],
	faux: FauxApi,
	harness: PiHarness,
): CreateAgentSessionRuntimeFactory {
	const authStorage = AuthStorage.inMemory();
	authStorage.setRuntimeApiKey(FAUX_PROVIDER, "faux-key");
	const modelRegistry = ModelRegistry.inMemory(authStorage);
	registerModels(modelRegistry, faux.api, specs);
	const model = modelRegistry.find(FAUX_PROVIDER, specs[0]?.id ?? "");
	const settingsManager = SettingsManager.inMemory({
		compaction: {
			enabled: options.autoCompaction ?? true,
			keepRecentTokens: options.keepRecentTokens ?? 20,
			reserveTokens: options.reserveTokens ?? 16_384,
		},
		retry: { enabled: false },
	});
	return async (target) => {
		if (model === undefined) throw new Error("harness: no faux model to start the session with");
		const services = await createAgentSessionServices({
			cwd: target.cwd,
			agentDir: target.agentDir,
			authStorage,
			settingsManager,
			modelRegistry,
			resourceLoaderOptions: {
				additionalExtensionPaths: [...options.extensionPaths],
				extensionFactories: [...(options.extensionFactories ?? [])],
				noExtensions: true,
				noSkills: true,
				noPromptTemplates: true,
				noThemes: true,
				noContextFiles: true,
			},
		});
		harness.loadErrors.push(...services.resourceLoader.getExtensions().errors);
		const created = await createAgentSessionFromServices({
			services,
			sessionManager: target.sessionManager,
			sessionStartEvent: target.sessionStartEvent,
			model,
			thinkingLevel: options.thinkingLevel ?? "off",
		});
		return { ...created, services, diagnostics: services.diagnostics };
	};
}

/** Starts a pi session with the given extensions, a temp agent dir and a scripted faux model. */
export async function startSession(options: HarnessOptions): Promise<Harness> {
	const agentDir = mkdtempSync(join(tmpdir(), "longhaul-agent-"));
	const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), "longhaul-cwd-"));
	const removeOnDispose = options.cwd === undefined ? [agentDir, cwd] : [agentDir];
	writeFiles(agentDir, options.agentFiles);
	writeFiles(cwd, options.projectFiles);
	const env = new EnvOverride();
	env.set({ PI_CODING_AGENT_DIR: agentDir, ...options.env });

	const specs = options.models ?? DEFAULT_MODELS;
	const script = new Script();
	const faux = fauxApi(script);
	faux.install();
	const harness = new PiHarness(script, cwd, agentDir, faux, env, removeOnDispose, options.ui ?? true);
	try {
		harness.runtime = await createAgentSessionRuntime(runtimeFactory(options, specs, faux, harness), {
			cwd,
			agentDir,
			sessionManager:
				options.sessionFile !== undefined
					? SessionManager.open(options.sessionFile, undefined, cwd)
					: options.persist
						? SessionManager.create(cwd, join(agentDir, "sessions", "harness"))
						: SessionManager.inMemory(cwd),
		});
		// A package dir whose manifest names a missing file loads nothing and reports nothing: count what loaded.
		const loaded = harness.session.extensionRunner.getExtensionPaths();
		const short = loaded.length < options.extensionPaths.length;
		if ((harness.loadErrors.length > 0 || short) && options.allowLoadErrors !== true) {
			throw new Error(`harness: extensions failed to load: ${JSON.stringify({ loaded, errors: harness.loadErrors })}`);
		}
		harness.runtime.setRebindSession((session) => harness.attach(session));
		await harness.attach(harness.runtime.session);
	} catch (error) {
		await harness.dispose().catch(() => undefined);
		throw error;
	}
	return harness;
}

import { rmSync } from "node:fs";
import { join } from "node:path";
import {
	type Api,
	type AssistantMessageEventStream,
	type Context,
	fauxAssistantMessage,
	getApiProvider,
	type Model,
	registerApiProvider,
	registerFauxProvider,
	type SimpleStreamOptions,
	unregisterApiProviders,
} from "@mariozechner/pi-ai";
import {
	type AgentSession,
	type AgentSessionRuntime,
	AuthStorage,
	type CreateAgentSessionRuntimeFactory,
	createAgentSessionFromServices,
	createAgentSessionRuntime,
	createAgentSessionServices,
	type ExtensionCommandContextActions,
	type ExtensionFactory,
	type ExtensionUIContext,
	estimateTokens,
	ModelRegistry,
	SessionManager,
	SettingsManager,
} from "@mariozechner/pi-coding-agent";
import { Settler } from "../../src/eval/settler.js";
import {
	type BackendSetup,
	type BranchEntry,
	FAUX_PROVIDER,
	fauxProvider,
	type Harness,
	type HarnessError,
	type HarnessEvent,
	harnessSettings,
	loaderOptions,
	recordingUi,
	type Script,
} from "./harness-parts.js";

// The harness's pi 0.73 backend (`@mariozechner/pi-coding-agent` 0.73.1, Node 20): pi's SDK with an AuthStorage
// and a ModelRegistry of its own; provider streams get pi-ai's `Context` (system prompt and tools as fields).

/** The API an extension's own provider stream serves (`pi.registerProvider` with `streamSimple`). */
const EXTENSION_API = "longhaul-harness-extension-stream";

interface FauxApi {
	readonly api: string;
	readonly stream: (model: Model<Api>, context: Context, options?: SimpleStreamOptions) => AssistantMessageEventStream;
	/** Registers the stream in pi-ai's API registry (again after pi's reload cleared it), in registry mode. */
	install(): void;
	uninstall(): void;
}

// The faux provider streams a message the way a provider does; its own queue is fed one reply per request, from
// the script, at the moment pi asks, so a reply can depend on the request and concurrent calls cannot mix.
// The model a request names comes from pi's registry; faux's own model list goes unused.
function fauxApi(script: Script, provider: BackendSetup["provider"]): FauxApi {
	const faux = registerFauxProvider({ provider: FAUX_PROVIDER });
	const inner = getApiProvider(faux.api);
	faux.unregister();
	if (inner === undefined) throw new Error("harness: pi-ai did not register the faux provider");
	const sourceId = `longhaul-harness:${faux.api}`;
	const stream = (model: Model<Api>, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream => {
		const answer = script.take(
			model,
			{
				systemPrompt: context.systemPrompt,
				messages: context.messages,
				tools: (context.tools ?? []).map((t) => t.name),
			},
			options,
		);
		faux.setResponses([
			async () => {
				const { content, stopReason, errorMessage } = await answer();
				return fauxAssistantMessage(content, { stopReason, ...(errorMessage === undefined ? {} : { errorMessage }) });
			},
		]);
		// pi-ai's registry wraps the faux stream in a check that the model names faux's own API; a model pi serves
		// through an extension's stream names that extension's API instead.
		return inner.streamSimple({ ...model, api: faux.api }, context, options);
	};
	const api = provider === "registry" ? faux.api : EXTENSION_API;
	return {
		api,
		stream,
		install: () => {
			if (provider === "registry") registerApiProvider({ api, stream, streamSimple: stream }, sourceId);
		},
		uninstall: () => unregisterApiProviders(sourceId),
	};
}

class Pi073Harness implements Harness {
	readonly pi = "0.73";
	readonly ui = { notices: [], statuses: new Map(), statusChanges: [] };
	readonly events: HarnessEvent[] = [];
	readonly extensionErrors: HarnessError[] = [];
	readonly loadErrors: HarnessError[] = [];
	readonly model: Script;
	readonly cwd: string;
	readonly agentDir: string;
	private active: AgentSessionRuntime | undefined;
	private uiContext: ExtensionUIContext | undefined;
	private detach: (() => void) | undefined;
	private readonly settler = new Settler();

	constructor(
		private readonly setup: BackendSetup,
		private readonly faux: FauxApi,
	) {
		this.model = setup.script;
		this.cwd = setup.cwd;
		this.agentDir = setup.agentDir;
	}

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
			this.events.push(event.type === "compaction_start" ? { type: event.type, reason: event.reason } : event);
		});
		this.detach = () => {
			offSettler();
			offSession();
		};
		if (this.setup.options.ui ?? true) this.uiContext ??= recordingUi(session.extensionRunner.getUIContext(), this.ui);
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
			waitForIdle: () => this.settler.settle(),
			newSession: (options) => this.runtime.newSession(options),
			fork: (entryId, options) => this.fork(entryId, options),
			navigateTree: (targetId, options) => this.navigateTree(targetId, options),
			switchSession: (path, options) => this.runtime.switchSession(path, options),
			reload: () => this.reload(),
		};
	}

	async prompt(text: string): Promise<void> {
		await this.session.prompt(text);
		await this.settler.settle();
	}

	async compact(customInstructions?: string): Promise<{ readonly summary: string }> {
		await this.settler.settle();
		return this.session.compact(customInstructions);
	}

	branch(): BranchEntry[] {
		return this.sessionManager.getBranch();
	}

	tokensFrom(entryId: string): number {
		const branch = this.sessionManager.getBranch();
		const from = branch.findIndex((entry) => entry.id === entryId);
		if (from < 0) throw new Error(`harness: no entry ${entryId} on the branch`);
		return branch.slice(from).reduce((sum, e) => sum + (e.type === "message" ? estimateTokens(e.message) : 0), 0);
	}

	navigateTree(targetId: string, options?: { summarize?: boolean; label?: string }) {
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
			this.setup.env.restore();
			for (const dir of this.setup.removeOnDispose) rmSync(dir, { recursive: true, force: true });
		}
	}
}

/** pi's runtime factory, as its modes write it: used at start and again for every fork, new or resumed session. */
function runtimeFactory(setup: BackendSetup, faux: FauxApi, harness: Pi073Harness): CreateAgentSessionRuntimeFactory {
	const { options, specs } = setup;
	const authStorage = AuthStorage.inMemory();
	authStorage.setRuntimeApiKey(FAUX_PROVIDER, "faux-key");
	const modelRegistry = ModelRegistry.inMemory(authStorage);
	if (setup.provider === "registry") modelRegistry.registerProvider(FAUX_PROVIDER, fauxProvider(setup.specs, faux.api));
	// An extension that registers the faux provider with its own stream, as a provider extension does.
	const extensionProvider: ExtensionFactory = (pi) =>
		pi.registerProvider(FAUX_PROVIDER, { ...fauxProvider(setup.specs, faux.api), streamSimple: faux.stream });
	const settingsManager = SettingsManager.inMemory(harnessSettings(options));
	return async (target) => {
		const services = await createAgentSessionServices({
			cwd: target.cwd,
			agentDir: target.agentDir,
			authStorage,
			settingsManager,
			modelRegistry,
			resourceLoaderOptions: {
				...loaderOptions(options),
				extensionFactories: [...(options.extensionFactories ?? [])],
				...(setup.provider === "extension" ? { extensionFactories: [extensionProvider] } : {}),
			},
		});
		harness.loadErrors.push(...services.resourceLoader.getExtensions().errors);
		const model = services.modelRegistry.find(FAUX_PROVIDER, specs[0]?.id ?? "");
		if (model === undefined) throw new Error("harness: no faux model to start the session with");
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

/** Starts a pi 0.73 session with the given extensions and the scripted faux model. */
export async function startPi073(setup: BackendSetup): Promise<Harness> {
	const faux = fauxApi(setup.script, setup.provider);
	faux.install();
	const harness = new Pi073Harness(setup, faux);
	const { options, cwd, agentDir } = setup;
	try {
		harness.runtime = await createAgentSessionRuntime(runtimeFactory(setup, faux, harness), {
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
		const inline = setup.provider === "extension" ? 1 : 0;
		const short = loaded.length < options.extensionPaths.length + inline;
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

/** The pi 0.73.1 session manager behind a harness, for tests of pi 0.73.1's own cut (undefined under pi 1.x). */
export function sessionManager073(h: Harness): SessionManager | undefined {
	return h instanceof Pi073Harness ? h.sessionManager : undefined;
}

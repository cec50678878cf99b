import { rmSync } from "node:fs";
import { join } from "node:path";
import {
	type Api,
	type AssistantMessageEventStream,
	createFauxCore,
	fauxAssistantMessage,
	getCurrentSystemPrompt,
	getCurrentTools,
	InMemoryCredentialStore,
	InMemoryModelsStore,
	type Model,
	type SimpleStreamOptions,
	type TranscriptContext,
} from "@earendil-works/pi-ai";
import { registerApiProvider, unregisterApiProviders } from "@earendil-works/pi-ai/compat";
import {
	type AgentSession,
	type AgentSessionRuntime,
	type CreateAgentSessionRuntimeFactory,
	createAgentSessionFromServices,
	createAgentSessionRuntime,
	createAgentSessionServices,
	type ExtensionCommandContextActions,
	type ExtensionFactory,
	type ExtensionUIContext,
	estimateTokens,
	ModelRuntime,
	SessionManager,
	SettingsManager,
} from "@earendil-works/pi-coding-agent";
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
import { branchEntries } from "./pi-1x-entries.js";

// The harness's pi 1.x backend (`@earendil-works/pi-coding-agent` 1.6.0, Node >= 22.19), loaded only when
// LONGHAUL_PI=1: pi's SDK with a ModelRuntime (no AuthStorage, `createAgentSession({ modelRuntime })`), the faux
// core from `@earendil-works/pi-ai`, and provider streams that get a transcript context (system prompt and tools
// inside system messages), so agent turns are told from side calls by the tools the transcript declares.

/** The API an extension's own provider stream serves (`pi.registerProvider` with `streamSimple`). */
const EXTENSION_API = "longhaul-harness-extension-stream";

type Stream = (
	model: Model<Api>,
	context: TranscriptContext,
	options?: SimpleStreamOptions,
) => AssistantMessageEventStream;

interface FauxApi {
	readonly api: string;
	readonly stream: Stream;
	/** Registers the stream in pi-ai's API registry (pi's providers fall back to it for an API of their own), in registry mode. */
	install(): void;
	uninstall(): void;
}

function fauxApi(script: Script, provider: BackendSetup["provider"]): FauxApi {
	const core = createFauxCore({ provider: FAUX_PROVIDER });
	const sourceId = `longhaul-harness:${core.api}`;
	const stream: Stream = (model, context, options) => {
		const messages = context.messages.filter((m) => m.role !== "system");
		const answer = script.take(
			model,
			{
				systemPrompt: getCurrentSystemPrompt(context.messages) || undefined,
				messages,
				tools: getCurrentTools(context.messages).map((t) => t.name),
			},
			options,
		);
		core.setResponses([
			async () => {
				const { content, stopReason, errorMessage } = await answer();
				return fauxAssistantMessage(content, { stopReason, ...(errorMessage === undefined ? {} : { errorMessage }) });
			},
		]);
		return core.streamSimple(model, context, options);
	};
	const api = provider === "registry" ? core.api : EXTENSION_API;
	return {
		api,
		stream,
		install: () => {
			if (provider === "registry") registerApiProvider({ api, stream, streamSimple: stream }, sourceId);
		},
		uninstall: () => unregisterApiProviders(sourceId),
	};
}

class Pi1xHarness implements Harness {
	readonly pi = "1.x";
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
		this.detach = session.subscribe((event) => {
			this.events.push(event.type === "compaction_start" ? { type: event.type, reason: event.reason } : event);
		});
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
			waitForIdle: () => this.session.waitForIdle(),
			newSession: (options) => this.runtime.newSession(options),
			fork: (entryId, options) => this.fork(entryId, options),
			navigateTree: (targetId, options) => this.navigateTree(targetId, options),
			switchSession: (path, options) => this.runtime.switchSession(path, options),
			reload: () => this.reload(),
		};
	}

	// pi 1.x's waitForIdle waits for the agent run and any compaction it set off (`isIdle`).
	async prompt(text: string): Promise<void> {
		await this.session.prompt(text);
		await this.session.waitForIdle();
	}

	async compact(customInstructions?: string): Promise<{ readonly summary: string }> {
		await this.session.waitForIdle();
		return this.session.compact(customInstructions);
	}

	branch(): BranchEntry[] {
		return branchEntries(this.sessionManager.getBranch());
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
async function runtimeFactory(
	setup: BackendSetup,
	faux: FauxApi,
	harness: Pi1xHarness,
): Promise<CreateAgentSessionRuntimeFactory> {
	const { options, specs } = setup;
	const modelRuntime = await ModelRuntime.create({
		credentials: new InMemoryCredentialStore(),
		modelsStore: new InMemoryModelsStore(),
		modelsPath: null,
		allowModelNetwork: false,
		refreshOnCreate: false,
	});
	await modelRuntime.setRuntimeApiKey(FAUX_PROVIDER, "faux-key");
	if (setup.provider === "registry") modelRuntime.registerProvider(FAUX_PROVIDER, fauxProvider(setup.specs, faux.api));
	// An extension that registers the faux provider with its own stream, as a provider extension does.
	const extensionProvider: ExtensionFactory = (pi) =>
		pi.registerProvider(FAUX_PROVIDER, { ...fauxProvider(setup.specs, faux.api), streamSimple: faux.stream });
	if ((options.extensionFactories ?? []).length > 0)
		throw new Error("harness: inline extensions (extensionFactories) run under pi 0.73.1 only");
	const settingsManager = SettingsManager.inMemory(harnessSettings(options));
	return async (target) => {
		const services = await createAgentSessionServices({
			cwd: target.cwd,
			agentDir: target.agentDir,
			settingsManager,
			modelRuntime,
			resourceLoaderOptions: {
				...loaderOptions(options),
				...(setup.provider === "extension" ? { extensionFactories: [extensionProvider] } : {}),
			},
		});
		harness.loadErrors.push(...services.resourceLoader.getExtensions().errors);
		const model = services.modelRuntime.getModel(FAUX_PROVIDER, specs[0]?.id ?? "");
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

/** Starts a pi 1.x session with the given extensions and the scripted faux model. */
export async function startPi1x(setup: BackendSetup): Promise<Harness> {
	const faux = fauxApi(setup.script, setup.provider);
	faux.install();
	const harness = new Pi1xHarness(setup, faux);
	const { options, cwd, agentDir } = setup;
	try {
		harness.runtime = await createAgentSessionRuntime(await runtimeFactory(setup, faux, harness), {
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

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
	type ExtensionFactory,
	type ExtensionUIContext,
	estimateTokens,
	ModelRuntime,
	SessionManager,
	SettingsManager,
} from "@earendil-works/pi-coding-agent";
import {
	type BackendSetup,
	FAUX_PROVIDER,
	fauxProvider,
	type Harness,
	type HarnessError,
	harnessSettings,
	loaderOptions,
	type Script,
} from "./harness-parts.js";
import { type FauxApi, type PiLine, startOn } from "./harness-session.js";
import { branchEntries } from "./pi-1x-entries.js";
import { branchTokens, ExtensionBinder, sessionFromServices, sessionManagerOn } from "./pi-shared.js";

// The harness's pi 1.x line (`@earendil-works/pi-coding-agent` 1.6.0, Node >= 22.19), what harness-session.ts's one
// harness is handed for it, loaded only when LONGHAUL_PI=1: pi's SDK with a ModelRuntime (no AuthStorage,
// `createAgentSession({ modelRuntime })`), the faux core from `@earendil-works/pi-ai`, and provider streams that get a
// transcript context (system prompt and tools inside system messages), so agent turns are told from side calls by
// the tools the transcript declares.

/** The API an extension's own provider stream serves (`pi.registerProvider` with `streamSimple`). */
const EXTENSION_API = "longhaul-harness-extension-stream";

type Stream = (
	model: Model<Api>,
	context: TranscriptContext,
	options?: SimpleStreamOptions,
) => AssistantMessageEventStream;

function fauxApi(script: Script, provider: BackendSetup["provider"]): FauxApi<Stream> {
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

/** pi's runtime factory, as its modes write it: used at start and again for every fork, new or resumed session. */
async function runtimeFactory(
	setup: BackendSetup,
	faux: FauxApi<Stream>,
	loadErrors: HarnessError[],
): Promise<CreateAgentSessionRuntimeFactory> {
	const { options } = setup;
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
		return sessionFromServices(
			setup,
			services,
			target,
			loadErrors,
			(services, id) => services.modelRuntime.getModel(FAUX_PROVIDER, id),
			createAgentSessionFromServices,
		);
	};
}

/** pi 1.x's line, made anew for a harness: its UI context serves all of the harness's sessions. */
function pi1xLine(): PiLine<AgentSession, AgentSessionRuntime, Stream> {
	const binder = new ExtensionBinder<ExtensionUIContext>();
	return {
		pi: "1.x",
		fauxApi,
		runtime: async (setup, faux, sessions, loadErrors) =>
			createAgentSessionRuntime(await runtimeFactory(setup, faux, loadErrors), {
				cwd: setup.cwd,
				agentDir: setup.agentDir,
				sessionManager: sessionManagerOn(SessionManager, sessions),
			}),
		watch: () => () => undefined,
		// pi 1.x's waitForIdle waits for the agent run and any compaction it set off (`isIdle`).
		settle: (session) => session.waitForIdle(),
		bind: (session, runtime, bindings) => binder.bind(session, runtime, bindings),
		branch: (session) => branchEntries(session.sessionManager.getBranch()),
		tokens: (session) => branchTokens(session.sessionManager.getBranch(), estimateTokens),
	};
}

/** Starts a pi 1.x session with the given extensions and the scripted faux model. */
export function startPi1x(setup: BackendSetup): Promise<Harness> {
	return startOn(pi1xLine(), setup);
}

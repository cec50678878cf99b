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
	FAUX_PROVIDER,
	fauxProvider,
	type Harness,
	type HarnessError,
	harnessSettings,
	loaderOptions,
	type Script,
} from "./harness-parts.js";
import { type FauxApi, type PiHarness, type PiLine, startOn } from "./harness-session.js";
import { branchTokens, ExtensionBinder, sessionFromServices, sessionManagerOn } from "./pi-shared.js";

// The harness's pi 0.73 line (`@mariozechner/pi-coding-agent` 0.73.1, Node 20), what harness-session.ts's one
// harness is handed for it: pi's SDK with an AuthStorage and a ModelRegistry of its own; provider streams get pi-ai's
// `Context` (system prompt and tools as fields).

/** The API an extension's own provider stream serves (`pi.registerProvider` with `streamSimple`). */
const EXTENSION_API = "longhaul-harness-extension-stream";

type Stream = (model: Model<Api>, context: Context, options?: SimpleStreamOptions) => AssistantMessageEventStream;

// The faux provider streams a message the way a provider does; its own queue is fed one reply per request, from
// the script, at the moment pi asks, so a reply can depend on the request and concurrent calls cannot mix.
// The model a request names comes from pi's registry; faux's own model list goes unused.
function fauxApi(script: Script, provider: BackendSetup["provider"]): FauxApi<Stream> {
	const faux = registerFauxProvider({ provider: FAUX_PROVIDER });
	const inner = getApiProvider(faux.api);
	faux.unregister();
	if (inner === undefined) throw new Error("harness: pi-ai did not register the faux provider");
	const sourceId = `longhaul-harness:${faux.api}`;
	const stream: Stream = (model, context, options) => {
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

/** pi's runtime factory, as its modes write it: used at start and again for every fork, new or resumed session. */
function runtimeFactory(
	setup: BackendSetup,
	faux: FauxApi<Stream>,
	loadErrors: HarnessError[],
): CreateAgentSessionRuntimeFactory {
	const { options } = setup;
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
		return sessionFromServices(
			setup,
			services,
			target,
			loadErrors,
			(services, id) => services.modelRegistry.find(FAUX_PROVIDER, id),
			createAgentSessionFromServices,
		);
	};
}

/** pi 0.73's line, made anew for a harness: its settler and UI context serve all of the harness's sessions. */
function pi073Line(): PiLine<AgentSession, AgentSessionRuntime, Stream> {
	// pi 0.73.1's waitForIdle does not wait for a compaction the run set off: the settler follows both.
	const settler = new Settler();
	const binder = new ExtensionBinder<ExtensionUIContext>();
	return {
		pi: "0.73",
		fauxApi,
		runtime: (setup, faux, sessions, loadErrors) =>
			createAgentSessionRuntime(runtimeFactory(setup, faux, loadErrors), {
				cwd: setup.cwd,
				agentDir: setup.agentDir,
				sessionManager: sessionManagerOn(SessionManager, sessions),
			}),
		watch: (session) => settler.watch(session),
		settle: () => settler.settle(),
		bind: (session, runtime, bindings) => binder.bind(session, runtime, bindings),
		branch: (session) => session.sessionManager.getBranch(),
		tokens: (session) => branchTokens(session.sessionManager.getBranch(), estimateTokens),
	};
}

const started = new WeakMap<Harness, PiHarness<AgentSession, AgentSessionRuntime, Stream>>();

/** Starts a pi 0.73 session with the given extensions and the scripted faux model. */
export async function startPi073(setup: BackendSetup): Promise<Harness> {
	const harness = await startOn(pi073Line(), setup);
	started.set(harness, harness);
	return harness;
}

/** The pi 0.73.1 session manager behind a harness, for tests of pi 0.73.1's own cut (undefined under pi 1.x). */
export function sessionManager073(h: Harness): SessionManager | undefined {
	return started.get(h)?.sessionManager;
}

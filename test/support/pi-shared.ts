import {
	type BackendSetup,
	type BranchEntry,
	type HarnessError,
	type HarnessOptions,
	type RecordedCalls,
	recordingUi,
} from "./harness-parts.js";
import type { Bindings, SessionChoice } from "./harness-session.js";

// What the two pi lines (pi-073.ts, pi-1x.ts) write the same way over their own SDKs: the shapes below name only
// what that code uses of a pi's objects, so both SDKs' classes and functions fit them as they are.

type Outcome = Promise<{ cancelled: boolean }>;

/** The command-context actions handed to pi; `N` and `W` are the option types of pi's own runtime methods. */
interface CommandActions<N, W> {
	waitForIdle(): Promise<void>;
	newSession(options?: N): Outcome;
	fork(entryId: string, options?: { position?: "before" | "at" }): Outcome;
	navigateTree(targetId: string, options?: { summarize?: boolean; label?: string }): Outcome;
	switchSession(path: string, options?: W): Outcome;
	reload(): Promise<void>;
}

/** What binding extensions calls on a pi's `AgentSession`. */
export interface BindableSession<UI, N, W> {
	readonly extensionRunner: { getUIContext(): UI };
	bindExtensions(bindings: {
		uiContext?: UI;
		commandContextActions?: CommandActions<N, W>;
		onError?: (error: HarnessError) => void;
	}): Promise<void>;
}

/** What binding extensions calls on a pi's `AgentSessionRuntime`: the actions that replace the session. */
export interface ReplacingRuntime<N, W> {
	newSession(options?: N): Outcome;
	switchSession(path: string, options?: W): Outcome;
}

/** Binds extensions to each session of one harness; the first session's UI context, recorded, serves them all. */
export class ExtensionBinder<UI extends RecordedCalls> {
	private uiContext: UI | undefined;

	async bind<N, W>(session: BindableSession<UI, N, W>, runtime: ReplacingRuntime<N, W>, bindings: Bindings) {
		if (bindings.ui !== undefined) this.uiContext ??= recordingUi(session.extensionRunner.getUIContext(), bindings.ui);
		await session.bindExtensions({
			uiContext: this.uiContext,
			commandContextActions: {
				waitForIdle: bindings.waitForIdle,
				newSession: (options) => runtime.newSession(options),
				fork: bindings.fork,
				navigateTree: bindings.navigateTree,
				switchSession: (path, options) => runtime.switchSession(path, options),
				reload: bindings.reload,
			},
			onError: bindings.onError,
		});
	}
}

/** The session-manager constructors of a pi's `SessionManager` class. */
export interface SessionManagers<M> {
	open(file: string, sessionDir: undefined, cwd: string): M;
	create(cwd: string, dir: string): M;
	inMemory(cwd: string): M;
}

/** The session manager `sessions` names, made by a pi's own `SessionManager`. */
export function sessionManagerOn<M>(managers: SessionManagers<M>, sessions: SessionChoice): M {
	if (sessions.kind === "open") return managers.open(sessions.file, undefined, sessions.cwd);
	if (sessions.kind === "create") return managers.create(sessions.cwd, sessions.dir);
	return managers.inMemory(sessions.cwd);
}

/** A branch entry as the token count reads it: a message entry carries pi's message, other kinds count 0. */
type TokenEntry<M> =
	| { readonly type: "message"; readonly id: string; readonly message: M }
	| { readonly type: Exclude<BranchEntry["type"], "message">; readonly id: string };

/** The branch's entries with a pi's own token estimate of each (0 for an entry that is no message). */
export function branchTokens<M>(
	branch: readonly TokenEntry<M>[],
	estimateTokens: (message: M) => number,
): { readonly id: string; readonly tokens: number }[] {
	return branch.map((entry) => ({
		id: entry.id,
		tokens: entry.type === "message" ? estimateTokens(entry.message) : 0,
	}));
}

/** What the harness reads of the services a pi's runtime factory makes. */
export interface LoadedServices {
	readonly resourceLoader: { getExtensions(): { readonly errors: readonly HarnessError[] } };
	readonly diagnostics: unknown;
}

/** What a pi's runtime factory is handed, as far as the session it creates reads it. */
export interface FactoryTarget {
	readonly sessionManager: unknown;
	readonly sessionStartEvent?: unknown;
}

/** The options `createAgentSessionFromServices` is called with, in each pi's own types. */
export interface SessionFromServices<S, T extends FactoryTarget, M> {
	readonly services: S;
	readonly sessionManager: T["sessionManager"];
	readonly sessionStartEvent: T["sessionStartEvent"];
	readonly model: M;
	readonly thinkingLevel: NonNullable<HarnessOptions["thinkingLevel"]>;
}

/**
 * The end of a pi's runtime factory: records the extensions that failed to load, starts the session on the first
 * faux model (which `findModel` looks up in pi's own registry), and hands back what pi's runtime takes.
 */
export async function sessionFromServices<S extends LoadedServices, T extends FactoryTarget, M, C extends object>(
	setup: BackendSetup,
	services: S,
	target: T,
	loadErrors: HarnessError[],
	findModel: (services: S, id: string) => M | undefined,
	create: (options: SessionFromServices<S, T, M>) => Promise<C>,
): Promise<C & { services: S; diagnostics: S["diagnostics"] }> {
	loadErrors.push(...services.resourceLoader.getExtensions().errors);
	const model = findModel(services, setup.specs[0]?.id ?? "");
	if (model === undefined) throw new Error("harness: no faux model to start the session with");
	const created = await create({
		services,
		sessionManager: target.sessionManager,
		sessionStartEvent: target.sessionStartEvent,
		model,
		thinkingLevel: setup.options.thinkingLevel ?? "off",
	});
	return { ...created, services, diagnostics: services.diagnostics };
}

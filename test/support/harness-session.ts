import { rmSync } from "node:fs";
import { join } from "node:path";
import type {
	BackendSetup,
	BranchEntry,
	CapturedUi,
	Harness,
	HarnessError,
	HarnessEvent,
	HarnessSession,
	PromptImage,
	Script,
} from "./harness-parts.js";

// The one harness, over either pi: the session's lifecycle (start, attach, prompt, compact, fork, reload, dispose)
// is written once here; a pi line (pi-073.ts, pi-1x.ts) supplies only what names its own SDK's types. The shapes
// below are what the harness calls on a pi's objects: both pis' have them, as methods, so each pi's own option and
// event types fit.

/** What the harness calls on a pi's `AgentSession`. */
export interface PiSession extends HarnessSession {
	prompt(text: string, options?: { images?: PromptImage[] }): Promise<void>;
	executeBash(command: string): Promise<unknown>;
	navigateTree(targetId: string, options?: { summarize?: boolean; label?: string }): Promise<{ cancelled: boolean }>;
	reload(): Promise<void>;
	subscribe(listener: (event: HarnessEvent) => void): () => void;
	readonly sessionManager: Harness["sessionManager"];
	readonly extensionRunner: { getExtensionPaths(): string[] };
}

/** What the harness calls on a pi's `AgentSessionRuntime`. */
export interface PiRuntime<S extends PiSession> {
	readonly session: S;
	fork(entryId: string, options?: { position?: "before" | "at" }): Promise<{ cancelled: boolean }>;
	setRebindSession(rebind: (session: S) => Promise<void>): void;
	dispose(): Promise<void>;
}

/** The faux provider's stream, registered in pi-ai's API registry (again after pi's reload cleared it). */
export interface FauxApi<Stream> {
	readonly api: string;
	readonly stream: Stream;
	install(): void;
	uninstall(): void;
}

/** What the harness hands a pi line to bind a session's extensions with. */
export interface Bindings {
	/** Where the UI calls go, unless the options turn the UI off. */
	readonly ui: CapturedUi | undefined;
	waitForIdle(): Promise<void>;
	fork(entryId: string, options?: { position?: "before" | "at" }): Promise<{ cancelled: boolean }>;
	navigateTree(targetId: string, options?: { summarize?: boolean; label?: string }): Promise<{ cancelled: boolean }>;
	reload(): Promise<void>;
	onError(error: HarnessError): void;
}

/** What one pi line supplies: made anew for every harness, so it may keep what a harness's sessions share. */
export interface PiLine<S extends PiSession, R extends PiRuntime<S>, Stream> {
	readonly pi: Harness["pi"];
	fauxApi(script: Script, provider: BackendSetup["provider"]): FauxApi<Stream>;
	/**
	 * pi's session runtime, as its modes make it (a factory used again for every fork, new or resumed session), on
	 * the session manager `sessions` names; extensions that fail to load are pushed to `loadErrors`.
	 */
	runtime(setup: BackendSetup, faux: FauxApi<Stream>, sessions: SessionChoice, loadErrors: HarnessError[]): Promise<R>;
	/** Follows a session until the returned function is called. */
	watch(session: S): () => void;
	/** Waits until the agent run, and any compaction it set off, is done. */
	settle(session: S): Promise<void>;
	/** Binds extensions to a session, which emits its `session_start`. */
	bind(session: S, runtime: R, bindings: Bindings): Promise<void>;
	branch(session: S): BranchEntry[];
	/** The branch's entries with pi's own token estimate of each (each pi counts some content its own way; 0 if no message). */
	tokens(session: S): { readonly id: string; readonly tokens: number }[];
}

/** Which session manager a harness starts on: a stored file, a new persisted session, or one in memory. */
export type SessionChoice =
	| { readonly kind: "open"; readonly file: string; readonly cwd: string }
	| { readonly kind: "create"; readonly cwd: string; readonly dir: string }
	| { readonly kind: "memory"; readonly cwd: string };

function sessionChoice(setup: BackendSetup): SessionChoice {
	const { options, cwd, agentDir } = setup;
	if (options.sessionFile !== undefined) return { kind: "open", file: options.sessionFile, cwd };
	if (options.persist) return { kind: "create", cwd, dir: join(agentDir, "sessions", "harness") };
	return { kind: "memory", cwd };
}

/** A running pi session of either line, with a scripted model. */
export class PiHarness<S extends PiSession, R extends PiRuntime<S>, Stream> implements Harness {
	readonly ui = { notices: [], statuses: new Map(), statusChanges: [] };
	readonly events: HarnessEvent[] = [];
	readonly extensionErrors: HarnessError[] = [];
	readonly loadErrors: HarnessError[] = [];
	readonly model: Script;
	readonly cwd: string;
	readonly agentDir: string;
	private active: R | undefined;
	private detach: (() => void) | undefined;

	constructor(
		private readonly line: PiLine<S, R, Stream>,
		private readonly setup: BackendSetup,
		private readonly faux: FauxApi<Stream>,
	) {
		this.model = setup.script;
		this.cwd = setup.cwd;
		this.agentDir = setup.agentDir;
	}

	get pi(): Harness["pi"] {
		return this.line.pi;
	}

	get runtime(): R {
		if (this.active === undefined) throw new Error("harness: the session has not started");
		return this.active;
	}

	get session(): S {
		return this.runtime.session;
	}

	get sessionManager(): S["sessionManager"] {
		return this.session.sessionManager;
	}

	/** Starts pi's runtime, checks every extension loaded, and follows the session (and every later one). */
	async start(): Promise<void> {
		const { setup } = this;
		this.active = await this.line.runtime(setup, this.faux, sessionChoice(setup), this.loadErrors);
		// A package dir whose manifest names a missing file loads nothing and reports nothing: count what loaded.
		const loaded = this.session.extensionRunner.getExtensionPaths();
		const inline = setup.provider === "extension" ? 1 : 0;
		const short = loaded.length < setup.options.extensionPaths.length + inline;
		if ((this.loadErrors.length > 0 || short) && setup.options.allowLoadErrors !== true) {
			throw new Error(`harness: extensions failed to load: ${JSON.stringify({ loaded, errors: this.loadErrors })}`);
		}
		this.runtime.setRebindSession((session) => this.attach(session));
		await this.attach(this.session);
	}

	/** Subscribes to a (new) session and binds extensions to it, which emits its `session_start`. */
	private async attach(session: S): Promise<void> {
		this.detach?.();
		const offLine = this.line.watch(session);
		const offSession = session.subscribe((event) => {
			this.events.push(event.type === "compaction_start" ? { type: event.type, reason: event.reason } : event);
		});
		this.detach = () => {
			offLine();
			offSession();
		};
		await this.line.bind(session, this.runtime, {
			ui: (this.setup.options.ui ?? true) ? this.ui : undefined,
			waitForIdle: () => this.line.settle(this.session),
			fork: (entryId, options) => this.fork(entryId, options),
			navigateTree: (targetId, options) => this.navigateTree(targetId, options),
			reload: () => this.reload(),
			onError: (error) => {
				this.extensionErrors.push(error);
			},
		});
	}

	async prompt(text: string, images?: readonly PromptImage[]): Promise<void> {
		await this.session.prompt(text, images === undefined ? undefined : { images: [...images] });
		await this.line.settle(this.session);
	}

	async bash(command: string): Promise<void> {
		await this.session.executeBash(command);
		await this.line.settle(this.session);
	}

	async compact(customInstructions?: string): Promise<{ readonly summary: string }> {
		await this.line.settle(this.session);
		return this.session.compact(customInstructions);
	}

	branch(): BranchEntry[] {
		return this.line.branch(this.session);
	}

	tokensFrom(entryId: string): number {
		const branch = this.line.tokens(this.session);
		const from = branch.findIndex((entry) => entry.id === entryId);
		if (from < 0) throw new Error(`harness: no entry ${entryId} on the branch`);
		return branch.slice(from).reduce((sum, entry) => sum + entry.tokens, 0);
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

/** Starts a harness on pi line `line`; a start that fails disposes what it made. */
export async function startOn<S extends PiSession, R extends PiRuntime<S>, Stream>(
	line: PiLine<S, R, Stream>,
	setup: BackendSetup,
): Promise<PiHarness<S, R, Stream>> {
	const faux = line.fauxApi(setup.script, setup.provider);
	faux.install();
	const harness = new PiHarness(line, setup, faux);
	try {
		await harness.start();
	} catch (error) {
		await harness.dispose().catch(() => undefined);
		throw error;
	}
	return harness;
}

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ImageContent } from "@mariozechner/pi-ai";
import {
	type AgentSession,
	AuthStorage,
	createAgentSession,
	DefaultResourceLoader,
	defineTool,
	type ExtensionError,
	ModelRegistry,
	type SessionEntry,
	SessionManager,
	SettingsManager,
	type ToolDefinition,
} from "@mariozechner/pi-coding-agent";
import * as E from "fp-ts/lib/Either.js";
import { Type } from "typebox";
import { EnvOverride } from "../adapters/env-override.js";
import { type Answer, FAUX_MODEL, FAUX_PROVIDER, type FauxLimits, fauxRoute, registerFauxModel } from "./faux-route.js";
import type { RecordedBash, RecordedResult } from "./recording.js";
import { Settler } from "./settler.js";

// A real pi session (pi's SDK: AgentSession, its extension runner, its compaction) with Longhaul loaded by path
// as `pi -e` loads it, where only the model is faked and every tool answers from a table: nothing runs. One at a
// time per process: a session sets process.env (agent dir, log, PI_COMPACTOR) for its life.

/** Longhaul's own tools, which replay lets run: they only read and append to the session. */
export const LONGHAUL_TOOLS: readonly string[] = ["longhaul_remember", "longhaul_recall"];

/** How to start an evaluation session. */
export interface EvalSessionOptions {
	/** The extension to load (Longhaul's package root). */
	readonly extensionPath: string;
	/** The faked model. */
	readonly answer: Answer;
	/** Tool names that answer from `toolResult` instead of running. */
	readonly tools: readonly string[];
	/** The answer to a tool call, by its id; undefined is an error result. */
	readonly toolResult: (toolCallId: string, name: string) => RecordedResult | undefined;
	/** Environment set for the session's life (PI_CODING_AGENT_DIR is set to a temp dir). */
	readonly env?: Readonly<Record<string, string | undefined>>;
	/** pi's `compaction.keepRecentTokens`: how much of the newest context a compaction keeps (pi's default 20000). */
	readonly keepRecentTokens?: number;
	/** The faked model's limits (those of the real model behind it, when there is one). */
	readonly limits?: FauxLimits;
}

/** A running evaluation session. */
export interface EvalSession {
	readonly session: AgentSession;
	/** Errors extension handlers threw; pi swallows them and goes on. */
	readonly handlerErrors: readonly ExtensionError[];
	/** Sends a user message (never run as a command or template) and waits until pi has handled the whole run. */
	prompt(text: string, images?: readonly ImageContent[]): Promise<void>;
	/** Records a user's `!` run with its recorded output, as pi does after running it. */
	recordBash(step: RecordedBash): void;
	/** Runs pi's manual compaction, keeping `keepRecentTokens` when given; a failure is its message. */
	compact(keepRecentTokens?: number): Promise<E.Either<string, void>>;
	/** Sets environment variables and reloads the extensions, as `/reload` does (they read the env at load). */
	reload(env: Readonly<Record<string, string | undefined>>): Promise<void>;
	branch(): SessionEntry[];
	/** The session as a JSONL transcript: pi's header, then every entry. */
	jsonl(): string;
	dispose(): Promise<void>;
}

function resultText(result: RecordedResult): string {
	return result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/** A tool of `name` that answers from the table; the arguments are not read, so any recorded shape passes. */
function answeringTool(name: string, toolResult: EvalSessionOptions["toolResult"]): ToolDefinition {
	return defineTool({
		name,
		label: name,
		description: `${name} (answers with a recorded result; nothing runs)`,
		parameters: Type.Object({}),
		prepareArguments: () => ({}),
		execute: async (toolCallId) => {
			const result = toolResult(toolCallId, name);
			if (result === undefined) throw new Error(`no recorded result for this ${name} call`);
			if (result.isError) throw new Error(resultText(result));
			return { content: [...result.content], details: result.details };
		},
	});
}

/** Starts pi with the extension loaded by path, the faked model, answering tools and a temp agent dir and cwd. */
export async function startEvalSession(options: EvalSessionOptions): Promise<EvalSession> {
	const agentDir = mkdtempSync(join(tmpdir(), "longhaul-eval-agent-"));
	const cwd = mkdtempSync(join(tmpdir(), "longhaul-eval-cwd-"));
	const env = new EnvOverride();
	env.set({ PI_CODING_AGENT_DIR: agentDir, ...options.env });
	const route = fauxRoute(options.answer);
	route.install();
	const cleanup = () => {
		route.uninstall();
		env.restore();
		rmSync(agentDir, { recursive: true, force: true });
		rmSync(cwd, { recursive: true, force: true });
	};
	try {
		const authStorage = AuthStorage.inMemory();
		authStorage.setRuntimeApiKey(FAUX_PROVIDER, "faux-key");
		const modelRegistry = ModelRegistry.inMemory(authStorage);
		registerFauxModel(modelRegistry, route.api, options.limits);
		// pi's own compaction settings, but never automatic: compactions come where the recording had them.
		const settingsManager = SettingsManager.inMemory({
			compaction: {
				enabled: false,
				...(options.keepRecentTokens === undefined ? {} : { keepRecentTokens: options.keepRecentTokens }),
			},
			retry: { enabled: false },
		});
		const resourceLoader = new DefaultResourceLoader({
			cwd,
			agentDir,
			settingsManager,
			additionalExtensionPaths: [options.extensionPath],
			noExtensions: true,
			noSkills: true,
			noPromptTemplates: true,
			noThemes: true,
			noContextFiles: true,
		});
		await resourceLoader.reload();
		const loaded = resourceLoader.getExtensions();
		if (loaded.errors.length > 0 || loaded.extensions.length === 0)
			throw new Error(`the extension did not load: ${loaded.errors.map((e) => e.error).join("; ")}`);
		const { session } = await createAgentSession({
			cwd,
			agentDir,
			authStorage,
			modelRegistry,
			model: modelRegistry.find(FAUX_PROVIDER, FAUX_MODEL),
			thinkingLevel: "off",
			resourceLoader,
			sessionManager: SessionManager.inMemory(cwd),
			settingsManager,
			customTools: options.tools.map((name) => answeringTool(name, options.toolResult)),
			tools: [...new Set([...options.tools, ...LONGHAUL_TOOLS])],
		});
		const handlerErrors: ExtensionError[] = [];
		const settler = new Settler();
		settler.watch(session);
		await session.bindExtensions({ onError: (error) => handlerErrors.push(error) });
		return {
			session,
			handlerErrors,
			prompt: async (text, images) => {
				await session.prompt(text, {
					expandPromptTemplates: false,
					...(images === undefined || images.length === 0 ? {} : { images: [...images] }),
				});
				await settler.settle();
			},
			recordBash: (step) =>
				session.recordBashResult(
					step.command,
					{ output: step.output, exitCode: step.exitCode, cancelled: step.cancelled, truncated: step.truncated },
					{ excludeFromContext: step.excludeFromContext },
				),
			compact: async (keepRecentTokens) => {
				await settler.settle();
				if (keepRecentTokens !== undefined) settingsManager.applyOverrides({ compaction: { keepRecentTokens } });
				const done = await session.compact().then(
					() => E.right(undefined),
					(error: unknown) => E.left(error instanceof Error ? error.message : String(error)),
				);
				// Longhaul appends its compaction line one event-loop turn after the compaction (docs/how-it-works.md,
				// One pass, step 9).
				await new Promise<void>((resolve) => setTimeout(resolve, 1));
				return done;
			},
			reload: async (vars) => {
				env.set(vars);
				await session.reload();
				route.install();
			},
			branch: () => session.sessionManager.getBranch(),
			jsonl: () => {
				const header = session.sessionManager.getHeader();
				const entries = session.sessionManager.getEntries();
				return `${[header, ...entries].map((line) => JSON.stringify(line)).join("\n")}\n`;
			},
			dispose: async () => {
				try {
					session.dispose();
				} finally {
					cleanup();
				}
			},
		};
	} catch (error) {
		cleanup();
		throw error;
	}
}

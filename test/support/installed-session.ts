import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Context, fauxAssistantMessage, registerFauxProvider } from "@mariozechner/pi-ai";
import {
	AuthStorage,
	type CompactionEntry,
	createAgentSession,
	DefaultResourceLoader,
	ModelRegistry,
	SessionManager,
	SettingsManager,
} from "@mariozechner/pi-coding-agent";
import { lastUserText } from "../../src/eval/faux-route.js";
import { Settler } from "../../src/eval/settler.js";
import { carefulAnswer } from "./fake-summarizer.js";

// A pi session that loads its extensions the way pi does at start: from the packages in the agent dir's
// settings.json, which `pi install` wrote, through pi's own resource loader and package manager. Only the model is
// faked (pi-ai's faux provider). Unlike test/support/pi-harness.ts, nothing is loaded by path.

/** What the session did with the installed package. */
export interface InstalledRun {
	/** The extension files pi loaded. */
	readonly extensions: readonly string[];
	/** Load and handler errors pi reported. */
	readonly errors: readonly string[];
	/** The compaction entry the manual compaction wrote. */
	readonly compaction: CompactionEntry | undefined;
	/** The session file, for `longhaul state`. */
	readonly sessionFile: string;
}

/** The user's turns: a rule given in passing, then ordinary work. */
export const TURNS = ["Never commit generated files to this repository. Set the project up.", "Now add a README."];

function withEnv(vars: Readonly<Record<string, string>>): () => void {
	const saved = Object.entries(vars).map(([key]) => [key, process.env[key]] as const);
	Object.assign(process.env, vars);
	return () => {
		for (const [key, value] of saved) {
			if (value === undefined) Reflect.deleteProperty(process.env, key);
			else process.env[key] = value;
		}
	};
}

/** Keeps one token at a compaction, so the turns above are the span Longhaul compacts. */
function keepOneToken(agentDir: string): void {
	const path = join(agentDir, "settings.json");
	const settings: unknown = JSON.parse(readFileSync(path, "utf8"));
	const merged = { ...(typeof settings === "object" ? settings : {}), compaction: { keepRecentTokens: 1 } };
	writeFileSync(path, JSON.stringify(merged, null, 2));
}

/**
 * Starts pi in `cwd` with `agentDir` (where `pi install` put the package), sends the turns, runs `/compact` and
 * returns what happened. `env` is set for the session's life (PI_OFFLINE=1 always: pi never installs a missing
 * package here, so a wrong setup cannot fetch anything from the registry).
 */
export async function compactWithInstalled(
	agentDir: string,
	cwd: string,
	env: Readonly<Record<string, string>> = {},
): Promise<InstalledRun> {
	keepOneToken(agentDir);
	const restore = withEnv({ PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", ...env });
	const faux = registerFauxProvider({ provider: "faux" });
	try {
		const authStorage = AuthStorage.inMemory();
		authStorage.setRuntimeApiKey("faux", "faux-key");
		const modelRegistry = ModelRegistry.inMemory(authStorage);
		modelRegistry.registerProvider("faux", {
			api: faux.api,
			baseUrl: "http://localhost:0",
			apiKey: "faux-key",
			models: [
				{
					id: "faux-1",
					name: "faux-1",
					reasoning: false,
					input: ["text"],
					cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
					contextWindow: 128_000,
					maxTokens: 16_384,
				},
			],
		});
		// Agent turns (requests with tools) get a short reply; Longhaul's diff call gets a careful model's answer.
		const reply = (context: Context) =>
			fauxAssistantMessage((context.tools?.length ?? 0) > 0 ? "Done." : carefulAnswer(lastUserText(context)));
		faux.setResponses(Array.from({ length: 8 }, () => reply));
		const settingsManager = SettingsManager.create(cwd, agentDir);
		const resourceLoader = new DefaultResourceLoader({
			cwd,
			agentDir,
			settingsManager,
			noSkills: true,
			noPromptTemplates: true,
			noThemes: true,
			noContextFiles: true,
		});
		await resourceLoader.reload();
		const loaded = resourceLoader.getExtensions();
		const errors = loaded.errors.map((e) => `${e.path}: ${e.error}`);
		const { session } = await createAgentSession({
			cwd,
			agentDir,
			authStorage,
			modelRegistry,
			model: modelRegistry.find("faux", "faux-1"),
			thinkingLevel: "off",
			resourceLoader,
			settingsManager,
			sessionManager: SessionManager.create(cwd, join(agentDir, "sessions")),
		});
		const settler = new Settler();
		settler.watch(session);
		await session.bindExtensions({ onError: (error) => errors.push(`${error.extensionPath}: ${error.error}`) });
		try {
			for (const turn of TURNS) {
				await session.prompt(turn);
				await settler.settle();
			}
			await session.compact();
			const compaction = session.sessionManager
				.getBranch()
				.filter((entry): entry is CompactionEntry => entry.type === "compaction")
				.at(-1);
			return {
				extensions: loaded.extensions.map((e) => e.path),
				errors,
				compaction,
				sessionFile: session.sessionFile ?? "",
			};
		} finally {
			session.dispose();
		}
	} finally {
		faux.unregister();
		restore();
	}
}

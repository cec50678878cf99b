import { join } from "node:path";
import { type AssistantMessage, type Context, completeSimple, type SimpleStreamOptions } from "@mariozechner/pi-ai";
import { AuthStorage, ModelRegistry } from "@mariozechner/pi-coding-agent";
import * as E from "fp-ts/lib/Either.js";
import { agentDir } from "../adapters/agent-dir.js";

/** The real model `score` spends calls on: the summarizers, the probes and the judge all use it. */
export interface ProbeModel {
	/** `provider/id`. */
	readonly name: string;
	readonly contextWindow: number;
	readonly maxTokens: number;
	readonly complete: (context: Context, options: SimpleStreamOptions) => Promise<AssistantMessage>;
}

/** What `score` needs when it has no usable route, said in one place. */
export const NEEDS_ROUTE =
	"score spends real model calls and needs a route: --model provider/id (a model pi knows, e.g. anthropic/claude-sonnet-4-5), " +
	"with its key in pi's auth.json (PI_CODING_AGENT_DIR applies) or the provider's environment variable (e.g. ANTHROPIC_API_KEY).";

/** Resolves `provider/id` with pi's own registry and credentials (the agent dir's auth.json and models.json, env keys). */
export async function resolveRoute(route: string, env: NodeJS.ProcessEnv): Promise<E.Either<string, ProbeModel>> {
	const slash = route.indexOf("/");
	if (slash <= 0 || slash === route.length - 1)
		return E.left(`"${route}" is not provider/id (a model pi knows, e.g. anthropic/claude-sonnet-4-5)`);
	const provider = route.slice(0, slash);
	const id = route.slice(slash + 1);
	const dir = agentDir(env);
	const registry = ModelRegistry.create(AuthStorage.create(join(dir, "auth.json")), join(dir, "models.json"));
	const model = registry.find(provider, id);
	if (model === undefined) return E.left(`pi knows no model ${provider}/${id}`);
	// pi's own test of a usable model (`getAvailable`): a key in auth.json, the provider's env variable, or models.json.
	if (!registry.hasConfiguredAuth(model))
		return E.left(
			`no credentials for ${provider}: no key in ${join(dir, "auth.json")} or models.json, and no API-key environment variable of ${provider} is set`,
		);
	const auth = await registry.getApiKeyAndHeaders(model);
	if (!auth.ok) return E.left(`no credentials for ${provider}: ${auth.error}`);
	return E.right({
		name: `${provider}/${id}`,
		contextWindow: model.contextWindow,
		maxTokens: model.maxTokens,
		complete: (context, options) =>
			completeSimple(model, context, {
				...options,
				...(auth.apiKey === undefined ? {} : { apiKey: auth.apiKey }),
				...(auth.headers === undefined ? {} : { headers: { ...auth.headers, ...options.headers } }),
			}),
	});
}

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import type { Either } from "fp-ts/lib/Either.js";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { safeJson } from "../projections/index.js";

// ---------------------------------------------------------------------------------------------------------------
// Codecs: the summarizer route and the config
// ---------------------------------------------------------------------------------------------------------------

/** pi's thinking levels, as a route's `:thinking` suffix names them. */
const ThinkingLevelCodec = t.keyof({ off: null, minimal: null, low: null, medium: null, high: null, xhigh: null });
export type ThinkingLevel = t.TypeOf<typeof ThinkingLevelCodec>;

/** A summarizer route, parsed: the model `provider/model`, and the thinking level when the route names one. */
const RouteValue = t.intersection([
	t.readonly(t.type({ provider: t.string, model: t.string })),
	t.readonly(t.partial({ thinking: ThinkingLevelCodec })),
]);
export type Route = t.TypeOf<typeof RouteValue>;

const ROUTE_MAX_CHARS = 200;
// Printable ASCII without the space: every provider and model id pi knows, and nothing that could fool a terminal.
const ROUTE_PART = /^[\x21-\x7e]+$/;
const ROUTE_RULE = `must be "provider/model" or "provider/model:thinking" (thinking one of ${Object.keys(ThinkingLevelCodec.keys).join(", ")})`;

/**
 * Parses `provider/model` or `provider/model:thinking`. The model id may hold `/` and `:` itself (`openrouter/
 * qwen/qwen3:free`); a last `:` part is the thinking level only when it names one, as pi reads `--model`.
 */
function parseRoute(route: string): Either<string, Route> {
	const slash = route.indexOf("/");
	if (route.length > ROUTE_MAX_CHARS || slash < 1) return E.left(ROUTE_RULE);
	const provider = route.slice(0, slash);
	const rest = route.slice(slash + 1);
	const colon = rest.lastIndexOf(":");
	const suffix = colon === -1 ? "" : rest.slice(colon + 1);
	const thinking = ThinkingLevelCodec.is(suffix) ? suffix : undefined;
	const model = thinking === undefined ? rest : rest.slice(0, colon);
	if (!ROUTE_PART.test(provider) || !ROUTE_PART.test(model)) return E.left(ROUTE_RULE);
	return E.right(thinking === undefined ? { provider, model } : { provider, model, thinking });
}

function routeText(route: Route): string {
	return route.thinking === undefined
		? `${route.provider}/${route.model}`
		: `${route.provider}/${route.model}:${route.thinking}`;
}

/** A route as the config file writes it: a string, decoded by {@link parseRoute}. */
const RouteCodec = new t.Type<Route, string, unknown>(
	"Route",
	RouteValue.is,
	(u, c) =>
		typeof u === "string" ? E.fold(() => t.failure<Route>(u, c), t.success<Route>)(parseRoute(u)) : t.failure(u, c),
	routeText,
);

/** Bounds of the numeric keys: integers, inclusive. */
const BOUNDS = {
	retryNoteChars: [0, 100_000],
	maxChunks: [1, 16],
	summaryChars: [1_000, 1_000_000],
	turnsBudgetMs: [1_000, 3_600_000],
	turnBudgetMs: [1_000, 3_600_000],
} as const;

function integerFrom([min, max]: readonly [number, number]): t.Type<number, number, unknown> {
	const fits = (u: unknown): u is number => typeof u === "number" && Number.isInteger(u) && u >= min && u <= max;
	return new t.Type<number, number, unknown>(
		`IntegerFrom${min}To${max}`,
		fits,
		(u, c) => (fits(u) ? t.success(u) : t.failure(u, c)),
		t.identity,
	);
}

const ConfigCodec = t.readonly(
	t.type({
		narrativeMode: t.keyof({ single: null, turns: null }),
		summarizer: t.union([RouteCodec, t.null]),
		retryNoteChars: integerFrom(BOUNDS.retryNoteChars),
		maxChunks: integerFrom(BOUNDS.maxChunks),
		summaryChars: integerFrom(BOUNDS.summaryChars),
		turnsBudgetMs: integerFrom(BOUNDS.turnsBudgetMs),
		turnBudgetMs: integerFrom(BOUNDS.turnBudgetMs),
		redact: t.boolean,
	}),
);
/** Longhaul's settings (docs/contracts.md, Inside pi); `summarizer` null means the session's own model. */
export type Config = t.TypeOf<typeof ConfigCodec>;

const PartialConfigCodec = t.partial(ConfigCodec.type.props);
type Key = keyof Config;

function isKey(key: string): key is Key {
	return Object.hasOwn(ConfigCodec.type.props, key);
}

/** The settings when no file sets any. Exported for tests. */
export const DEFAULT_CONFIG: Config = Object.freeze({
	narrativeMode: "single",
	summarizer: null,
	retryNoteChars: 2000,
	maxChunks: 4,
	summaryChars: 12_000,
	turnsBudgetMs: 300_000,
	turnBudgetMs: 120_000,
	redact: true,
});

function integerRule([min, max]: readonly [number, number]): string {
	return `must be an integer from ${min} to ${max}`;
}

/** What a key must hold, as a problem line says it. */
const RULES: { readonly [K in Key]: string } = {
	narrativeMode: 'must be "single" or "turns"',
	summarizer: `${ROUTE_RULE}, or null`,
	retryNoteChars: integerRule(BOUNDS.retryNoteChars),
	maxChunks: integerRule(BOUNDS.maxChunks),
	summaryChars: integerRule(BOUNDS.summaryChars),
	turnsBudgetMs: integerRule(BOUNDS.turnsBudgetMs),
	turnBudgetMs: integerRule(BOUNDS.turnBudgetMs),
	redact: "must be true or false",
};

// ---------------------------------------------------------------------------------------------------------------
// Reading a file: never more than the cap, never blocking on a FIFO, never a device
// ---------------------------------------------------------------------------------------------------------------

/** The most a config file may hold; a bigger one is named and ignored, unread. Exported for tests. */
export const CONFIG_MAX_BYTES = 64 * 1024;

type FileText =
	| { readonly kind: "missing" }
	| { readonly kind: "text"; readonly text: string }
	| { readonly kind: "bad"; readonly why: string };

function errorCode(error: unknown): string {
	return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : "error";
}

function readOpen(fd: number): FileText {
	const stats = fstatSync(fd);
	if (!stats.isFile()) return { kind: "bad", why: "not a regular file" };
	if (stats.size > CONFIG_MAX_BYTES) return { kind: "bad", why: `larger than ${CONFIG_MAX_BYTES / 1024} KiB` };
	// One byte past the cap tells a file that grew after fstat from one that fits.
	const buffer = Buffer.alloc(CONFIG_MAX_BYTES + 1);
	let length = 0;
	for (;;) {
		const read = readSync(fd, buffer, length, buffer.length - length, null);
		if (read === 0) break;
		length += read;
		if (length > CONFIG_MAX_BYTES) return { kind: "bad", why: `larger than ${CONFIG_MAX_BYTES / 1024} KiB` };
	}
	return { kind: "text", text: buffer.toString("utf8", 0, length) };
}

function readCapped(path: string): FileText {
	let fd: number;
	try {
		// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
		fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
	} catch (error) {
		const code = errorCode(error);
		return code === "ENOENT" ? { kind: "missing" } : { kind: "bad", why: `unreadable (${code})` };
	}
	try {
		return readOpen(fd);
	} catch (error) {
		return { kind: "bad", why: `unreadable (${errorCode(error)})` };
	} finally {
		closeSync(fd);
	}
}

type Parsed =
	| { readonly kind: "missing" }
	| { readonly kind: "object"; readonly value: object }
	| { readonly kind: "bad"; readonly why: string };

function parseObject(file: FileText): Parsed {
	if (file.kind !== "text") return file;
	let value: unknown;
	try {
		value = JSON.parse(file.text.replace(/^\uFEFF/, ""));
	} catch {
		return { kind: "bad", why: "not valid JSON" };
	}
	return typeof value === "object" && value !== null && !Array.isArray(value)
		? { kind: "object", value }
		: { kind: "bad", why: "not a JSON object" };
}

// ---------------------------------------------------------------------------------------------------------------
// Layering: defaults, then the agent dir's file, then the project's, key by key
// ---------------------------------------------------------------------------------------------------------------

const NAMED_UNKNOWN_KEYS = 5;
const KEY_SHOWN_CHARS = 40;

function shown(value: Config[Key]): string {
	if (value === null) return "none";
	if (typeof value === "boolean") return String(value);
	if (typeof value === "object") return JSON.stringify(routeText(value));
	return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function unknownKeysLine(label: string, keys: readonly string[]): string {
	const names = keys.slice(0, NAMED_UNKNOWN_KEYS).map((key) => safeJson(key.slice(0, KEY_SHOWN_CHARS)));
	const more = keys.length > NAMED_UNKNOWN_KEYS ? ` and ${keys.length - NAMED_UNKNOWN_KEYS} more` : "";
	return `${label}: unknown key${keys.length === 1 ? "" : "s"} ${names.join(", ")}${more} ignored`;
}

/** The config with a file's good values laid over it; each bad value or unknown key is a problem line. */
function overlay(base: Config, label: string, value: object, problems: string[]): Config {
	let config = base;
	const unknown: string[] = [];
	for (const [key, raw] of Object.entries(value)) {
		if (!isKey(key)) {
			unknown.push(key);
			continue;
		}
		const decoded = PartialConfigCodec.decode({ [key]: raw });
		if (E.isRight(decoded)) config = { ...config, ...decoded.right };
		else problems.push(`${label}: ${key} ${RULES[key]}; using ${shown(config[key])}`);
	}
	if (unknown.length > 0) problems.push(unknownKeysLine(label, unknown));
	return config;
}

function layer(base: Config, path: string, label: string, problems: string[]): Config {
	const parsed = parseObject(readCapped(path));
	if (parsed.kind === "missing") return base;
	if (parsed.kind === "bad") {
		problems.push(`${label}: ${parsed.why}; file ignored`);
		return base;
	}
	return overlay(base, label, parsed.value, problems);
}

/**
 * The problem line of a project's `"redact": false`, which a repository must not be able to set for its user.
 * Exported for tests.
 */
export const PROJECT_REDACT_IGNORED =
	".pi/longhaul.json: redact false ignored (only longhaul.json in pi's agent dir can turn redaction off)";

/**
 * Longhaul's config: `longhaul.json` in pi's agent dir, overridden key by key by `<cwd>/.pi/longhaul.json`. A
 * missing file is no problem; a bad file or value is one problem line and the value beneath it stands. The project's
 * file can turn redaction on but never off: a cloned repository is not the user. Never throws.
 */
export function loadConfig(agentDir: string, cwd: string): { config: Config; problems: string[] } {
	const problems: string[] = [];
	const agentPath = join(agentDir, "longhaul.json");
	const fromAgent = layer(DEFAULT_CONFIG, agentPath, agentPath, problems);
	const config = layer(fromAgent, join(cwd, ".pi", "longhaul.json"), ".pi/longhaul.json", problems);
	if (!fromAgent.redact || config.redact) return { config, problems };
	return { config: { ...config, redact: true }, problems: [...problems, PROJECT_REDACT_IGNORED] };
}

/**
 * The one notice a session gets when the user turned redaction off (`"redact": false`), since secrets in tool output
 * then reach the summary, the prompt and recall as they stand; undefined while redaction is on.
 */
export function redactNotice(config: Config): string | undefined {
	return config.redact
		? undefined
		: 'Longhaul: redaction is off (longhaul.json "redact": false): keys and tokens in tool output reach the summary, the diff prompt and recall as they stand.';
}

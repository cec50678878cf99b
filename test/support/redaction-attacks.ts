import { randomBytes } from "node:crypto";

// The tool outputs of issue 27 that once stopped a session at compaction (V8's regular-expression compiler aborted
// on a pattern built from the secrets found): runs of a token prefix, and tens of thousands of distinct tokens.
// Tokens are made at run time, so no token-shaped literal is committed.

const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** How many characters of a token's body the leak check reads as one block. */
const BLOCK = 12;

/** A GitHub-shaped token: `ghp_` and its body, 36 random base62 characters. */
export interface GithubToken {
	readonly text: string;
	readonly body: string;
}

/** `count` distinct random GitHub-shaped tokens. */
export function githubTokens(count: number): GithubToken[] {
	const seen = new Set<string>();
	const tokens: GithubToken[] = [];
	while (tokens.length < count) {
		const body = [...randomBytes(36)].map((b) => BASE62.charAt(b % BASE62.length)).join("");
		if (seen.has(body)) continue;
		seen.add(body);
		tokens.push({ text: `ghp_${body}`, body });
	}
	return tokens;
}

/** The shell command whose output is `prefix` printed `times` times in a row, as the probe ran it. */
export function repeatCommand(prefix: string, times: number): string {
	return `printf '${prefix}%.0s' $(seq 1 ${times})`;
}

/**
 * The tokens of which some 12-character block of the body (at 0, 12 or 24) stands in `text`: any run of 23 body
 * characters or more holds one. Linear in `text`: each of its windows is looked up in a set, never searched for.
 */
export function leakedTokens(tokens: readonly GithubToken[], text: string): GithubToken[] {
	const owner = new Map<string, GithubToken>();
	for (const token of tokens)
		for (let at = 0; at + BLOCK <= token.body.length; at += BLOCK) owner.set(token.body.slice(at, at + BLOCK), token);
	const leaked = new Set<GithubToken>();
	for (let at = 0; at + BLOCK <= text.length; at++) {
		const token = owner.get(text.slice(at, at + BLOCK));
		if (token !== undefined) leaked.add(token);
	}
	return [...leaked];
}

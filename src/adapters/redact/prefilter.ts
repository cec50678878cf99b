/**
 * What secretlint's recommended preset needs to see on a line to find anything there: a vendor prefix, an AWS secret
 * key's or account id's name, a private key's header, credentials in a URL. A superset on purpose: a line without
 * any of these is never linted, which keeps the lint (the costly step) to a few lines of a long prompt.
 */
export const LINT_TRIGGER =
	/gh[pousr]_|github_pat_|sk-|xox|xapp-|hooks\.slack|npm_|x-oauth-basic|_authToken|lin_api_|shp(?:pa|ca|at|ss)_|SG\.|ops_ey|A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|PRIVATE KEY|[Ss]ecret|SECRET|[Aa]ccount|ACCOUNT|:\/\/[^\s/@:]{1,300}:[^\s/@]{1,300}@/;

/**
 * What Longhaul's own rules (src/pass/verify/secrets.ts) need to see on a line: a vendor prefix, a key word, a URL,
 * a private key's lines, or a cut mark. Also a superset.
 */
export const RULE_TRIGGER =
	/gh[pousr]_|github_pat_|sk-|xox|xapp-|hooks\.slack|npm_|lin_api_|shp(?:pa|ca|at|ss)_|SG\.|ops_ey|A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|PRIVATE KEY|:\/\/|key|token|secret|passw|passphrase|pwd|auth|credential|…/i;

const PRIVATE_KEY_BEGIN = /-----BEGIN[ A-Z]{0,20}PRIVATE KEY/;
const PRIVATE_KEY_END = /-----END[ A-Z]{0,20}PRIVATE KEY/;
/** The most lines a private key block is followed for (a 16384-bit RSA key is about 200). */
const KEY_BLOCK_LINES = 250;

/**
 * The lines of `texts` that may hold a secret, joined by line breaks: each line with a trigger, the line after it (a
 * value may follow its name on the next line), and a private key block to its end line. One string, so the whole
 * batch costs one scan.
 */
export function candidateLines(texts: readonly string[], trigger: RegExp): string {
	const picked: string[] = [];
	for (const text of texts) {
		if (!trigger.test(text)) continue;
		const lines = text.split("\n");
		let until = -1;
		for (let i = 0; i < lines.length; i++) {
			const line = lines[i] ?? "";
			if (i <= until || trigger.test(line)) {
				picked.push(line);
				if (PRIVATE_KEY_BEGIN.test(line) && !PRIVATE_KEY_END.test(line)) until = Math.max(until, i + KEY_BLOCK_LINES);
				else if (PRIVATE_KEY_END.test(line)) until = i;
				else until = Math.max(until, i + 1);
			}
		}
	}
	return picked.join("\n");
}

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { disposedAfterEach } from "../support/disposed-sessions.js";
import { carefulAnswer, isDiffCall } from "../support/fake-summarizer.js";
import { longhaulSession } from "../support/longhaul-session.js";
import {
	callBash,
	callTool,
	compactionsOn,
	type Harness,
	lastUserText,
	type ModelCall,
	say,
	toolResultTexts,
} from "../support/pi-harness.js";

const kept = disposedAfterEach();

const githubToken = "ghp_R8tKq2Lm5Nx7Vb3Zc9Wd4Fh6Jp1Sy0Ga2Ue";
const awsSecret = "Zq7Yx3Wv9Ut5Rs1Qp8On6Ml4Kj2Ih0GfEdCbA+/T";
/** Pieces of each secret that must not stand anywhere Longhaul stores, sends or shows. */
const pieces = [githubToken.slice(4, 16), githubToken.slice(-12), awsSecret.slice(0, 12), awsSecret.slice(-12)];

function leaked(text: string): string[] {
	return pieces.filter((piece) => text.includes(piece));
}

/** A summarizer that labels as a careful model does and names the values it saw, the token among them. */
function namingValues(call: ModelCall): string {
	const answer: unknown = JSON.parse(carefulAnswer(lastUserText(call)));
	const values = [
		{ name: "github token", value: githubToken, turn: "u1" },
		{ name: "AWS secret access key", value: awsSecret, turn: "u1" },
		{ name: "dev server port", value: "5173", turn: "u1" },
	];
	return JSON.stringify({ ...(typeof answer === "object" ? answer : {}), values });
}

describe("secrets stay where they were (a real pi session)", () => {
	it("cat .env once succeeding and once failing, then a compaction: no secret in what Longhaul stores, sends or shows", async () => {
		const h = await longhaulSession();
		kept(h);
		writeFileSync(join(h.cwd, ".env"), `PORT=5173\nGITHUB_TOKEN=${githubToken}\nAWS_SECRET_ACCESS_KEY=${awsSecret}\n`);
		h.model.scriptSide(namingValues);
		h.model.scriptAgent(
			callBash("cat .env"),
			say("the port is 5173"),
			callBash("cat .env && exit 3"),
			say("that failed"),
			say("ok"),
		);
		await h.prompt("read the env file; the dev server must keep port 5173");
		await h.prompt("read it again and fail");
		await h.prompt("go on");
		await h.compact();

		const [compaction] = compactionsOn(h.branch());
		const summary = compaction?.summary ?? "";
		expect(summary).toContain("## Open errors");
		expect(leaked(summary)).toEqual([]);
		expect(summary).toContain("5173");
		const prompts = JSON.stringify(h.model.calls.filter(isDiffCall).map((c) => c.context));
		expect(prompts).toContain("cat .env");
		expect(leaked(prompts)).toEqual([]);
		expect(prompts).toContain("[redacted: github token]");

		h.model.scriptAgent(
			callTool("longhaul_recall", { ref: "E1" }),
			callTool("longhaul_recall", { ref: "1" }),
			say("done"),
		);
		await h.prompt("what was E1?");
		const recalled = toolResultTexts(h.branch(), "longhaul_recall").join("\n");
		expect(recalled).toContain("E1");
		expect(leaked(recalled)).toEqual([]);

		await h.prompt("/longhaul");
		const view = h.ui.notices.at(-1)?.message ?? "";
		expect(view).toContain("5173");
		expect(leaked(view)).toEqual([]);
		await h.prompt("/longhaul-report");
		expect(leaked(h.ui.notices.at(-1)?.message ?? "")).toEqual([]);
	});

	it("source and config files an agent reads, in the forms gitleaks' rules test: none of their secrets in what Longhaul stores, sends or shows", async () => {
		const h = await longhaulSession();
		kept(h);
		// A typed declaration (TypeScript), a dotted token under a secret's name (Doppler's format), a generated
		// password holding `&` and `;` in quotes, Maven's settings.xml element, a Kubernetes env entry's two keys, and
		// a Vault token printed alone.
		const secrets = [
			"Zk3Qm9XwPq7Rt2LsAb4Cd6Ef",
			"dp.st.prd.Hk4Tn8Wq2Rv6Yp3ZaB7cD9eF1gH3jK5mN7pQ9rS",
			"Wv9Ut#X;k2&L@m4Pa8",
			"Qm9Xw3Pq7Rt2Ls5Ab",
			"Tn8Wq2Rv6Yp3Zk4Hm7",
			`hvs.CAESI${"Zq7Yx3Wv9UtXk2LmPa4RsBn6Cd8Ef1Gh".repeat(3)}`,
		];
		const [typed = "", dotted = "", quoted = "", element = "", entry = "", vault = ""] = secrets;
		writeFileSync(
			join(h.cwd, "config.txt"),
			[
				`const apiKey: string = "${typed}";`,
				`DOPPLER_TOKEN=${dotted}`,
				`DB_PASSWORD="${quoted}"`,
				`<server><id>repo</id><password>${element}</password></server>`,
				"env:",
				"  - name: STRIPE_API_TOKEN",
				`    value: "${entry}"`,
				vault,
				"",
			].join("\n"),
		);
		await expectKeptOut(h, "cat config.txt && exit 3", secrets, "C1");
	});

	it("tool output whose escapes hide a secret's name or a key's first line: none of it in what Longhaul stores, sends or shows", async () => {
		const h = await longhaulSession();
		kept(h);
		// As a terminal program may print them: `ESC p` takes the p of password=, an OSC 8 hyperlink holds a URL's
		// password, `ESC [` stands before a private key's first line. The tool keeps the bytes; the failing command
		// makes the output's head an open error, so it reaches the prompt and the summary. A bold colour code ends at
		// the m of mysql, so a terminal shows `ysql -u root -p…`.
		const password = "Zq7Yx3Wv9UtXk2Lm";
		const mysqlPassword = "Hk4Tn8Wq2Rv6Yp3Z";
		const urlPassword = "S3cretPassw0rd";
		const keyBody = "MIIBVQIBADANBgkqhkiG9w0BAQEFAASC";
		writeFileSync(
			join(h.cwd, "out.bin"),
			[
				`\u001bpassword=${password}`,
				`\u001b[1mysql -u root -p${mysqlPassword} -h db.internal app`,
				`\u001b]8;;https://admin:${urlPassword}@db.example.com\u001b\\db\u001b]8;;\u001b\\`,
				"\u001b[-----BEGIN PRIVATE KEY-----",
				keyBody,
				"-----END PRIVATE KEY-----",
				"",
			].join("\n"),
		);
		const summary = await expectKeptOut(
			h,
			"cat out.bin && exit 3",
			[password, mysqlPassword, urlPassword, keyBody],
			"E1",
		);
		expect(summary).toContain("password=[redacted: password]");
	});

	/**
	 * The session runs `command`, whose output holds each of `secrets` (it fails, so the output's head is an open
	 * error the prompt and the summary show), goes on and is compacted by a careful model: none of the secrets stands
	 * in the summary, the compaction's details, the diff prompts, what `longhaul_recall` gives for `ref`, or
	 * /longhaul. Gives the summary.
	 */
	async function expectKeptOut(h: Harness, command: string, secrets: readonly string[], ref: string): Promise<string> {
		h.model.scriptSide((call) => carefulAnswer(lastUserText(call)));
		h.model.scriptAgent(callBash(command), say("that failed"), say("ok"));
		await h.prompt("print it");
		await h.prompt("go on");
		const leaking = (text: string) => secrets.filter((secret) => text.includes(secret));
		expect(leaking(toolResultTexts(h.branch(), "bash").join("\n"))).toEqual(secrets);
		await h.compact();

		const [compaction] = compactionsOn(h.branch());
		const summary = compaction?.summary ?? "";
		expect(summary).toContain("## Open errors");
		expect(leaking(summary)).toEqual([]);
		expect(leaking(JSON.stringify(compaction?.details ?? null))).toEqual([]);
		const prompts = JSON.stringify(h.model.calls.filter(isDiffCall).map((c) => c.context));
		expect(prompts).toContain(command);
		expect(leaking(prompts)).toEqual([]);
		h.model.scriptAgent(callTool("longhaul_recall", { ref }), say("done"));
		await h.prompt(`what was ${ref}?`);
		const recalled = toolResultTexts(h.branch(), "longhaul_recall").join("\n");
		expect(recalled).toContain(ref);
		expect(leaking(recalled)).toEqual([]);
		await h.prompt("/longhaul");
		expect(leaking(h.ui.notices.at(-1)?.message ?? "")).toEqual([]);
		return summary;
	}

	/** The session cats a `.env` holding the token, fails, goes on, and is compacted by a careful model. */
	async function compactAfterCatEnv(h: Harness): Promise<void> {
		writeFileSync(join(h.cwd, ".env"), `GITHUB_TOKEN=${githubToken}\n`);
		h.model.scriptSide((call) => carefulAnswer(lastUserText(call)));
		h.model.scriptAgent(callBash("cat .env && exit 3"), say("that failed"), say("ok"));
		await h.prompt("read the env file");
		await h.prompt("go on");
		await h.compact();
	}

	it('with "redact": false in the agent dir the user chose to see them: one notice, and the summary keeps the error as it was', async () => {
		const h = await longhaulSession({ agentFiles: { "longhaul.json": JSON.stringify({ redact: false }) } });
		kept(h);
		await compactAfterCatEnv(h);
		expect(h.ui.notices.filter((n) => n.message.startsWith("Longhaul: redaction is off"))).toHaveLength(1);
		const [compaction] = compactionsOn(h.branch());
		expect(compaction?.summary ?? "").toContain(githubToken);
	});

	it('ignores a repository\'s .pi/longhaul.json "redact": false, says so once, and still redacts', async () => {
		const h = await longhaulSession({ projectFiles: { ".pi/longhaul.json": JSON.stringify({ redact: false }) } });
		kept(h);
		await compactAfterCatEnv(h);
		expect(h.ui.notices.filter((n) => n.message.includes("redact false ignored"))).toHaveLength(1);
		expect(h.ui.notices.filter((n) => n.message.startsWith("Longhaul: redaction is off"))).toEqual([]);
		const [compaction] = compactionsOn(h.branch());
		expect(compaction?.summary ?? "").not.toContain(githubToken);
	});
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRedactor, marker } from "../../../../src/adapters/redact/index.js";
import { FINDERS } from "../../../../src/pass/secrets/index.js";
import { leakedPiece, plantedKinds } from "../../../support/secrets.js";

const redactor = createRedactor(true);

/** The event loop's turns while `run` runs. */
async function turnsDuring(run: () => Promise<unknown>): Promise<number> {
	let turns = 0;
	let running = true;
	const tick = () => {
		turns++;
		if (running) setImmediate(tick);
	};
	setImmediate(tick);
	await run();
	running = false;
	return turns;
}

/** One sample of each kind, fixed by the seed so a failure names the same secret every time. */
const samples = Object.entries(plantedKinds).map(([name, arb]) => ({
	name,
	planted: fc.sample(arb, { seed: 7, numRuns: 1 })[0],
}));

describe("the redactor replaces each supported kind with a marker naming it", () => {
	for (const { name, planted } of samples) {
		it(`${name}`, async () => {
			if (planted === undefined) throw new Error("no sample");
			const out = await redactor.redact(`$ cat .env\nPORT=5173\n${planted.text}\nDEBUG=1\n`);
			expect(leakedPiece(out, planted)).toBeUndefined();
			expect(out).toContain(marker(planted.kind));
			expect(out).toContain("PORT=5173");
			expect(out).toContain("DEBUG=1");
		});
	}
});

describe("the redactor", () => {
	const token = `ghp_${"aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"}`;

	it("keeps the name of an assignment and replaces only its value", async () => {
		const out = await redactor.redact(`GITHUB_TOKEN=${token}`);
		expect(out).toBe("GITHUB_TOKEN=[redacted: github token]");
	});

	// A Maven settings.xml server entry and a NuGet.config credential (maven.apache.org/settings.html,
	// learn.microsoft.com/nuget/reference/nuget-config-file), as `cat` prints them.
	it("replaces the password of a settings file's element and of a key and value pair, and keeps the labels", async () => {
		const text = [
			"<server>",
			"  <id>internal</id>",
			"  <password>Zq7Yx3Wv9UtXk2LmPa4Rs</password>",
			"</server>",
			'<add key="ClearTextPassword" value="Mn4Bv6Cx8Zl1Kj3Hg5Fd" />',
		].join("\n");
		expect(await redactor.redact(text)).toBe(
			[
				"<server>",
				"  <id>internal</id>",
				"  <password>[redacted: password]</password>",
				"</server>",
				'<add key="ClearTextPassword" value="[redacted: password]" />',
			].join("\n"),
		);
	});

	it("replaces a secret found in one text of a batch wherever else it stands, in one call", async () => {
		const key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y";
		const [a, b] = await redactor.redactAll([`AWS_SECRET_ACCESS_KEY=${key}`, `the key was ${key}.`]);
		expect(a).toBe("AWS_SECRET_ACCESS_KEY=[redacted: aws secret access key]");
		expect(b).toBe("the key was [redacted: aws secret access key].");
	});

	it("is not switched off by a secretlint-disable comment in the text", async () => {
		const out = await redactor.redact(`# secretlint-disable\nGITHUB_TOKEN=${token}`);
		expect(out).not.toContain(token.slice(4));
	});

	it("finds a token right after a JSON escape, as in a prompt's encoded lines", async () => {
		const out = await redactor.redact(JSON.stringify({ text: `PORT=5173\n${token}\n` }));
		expect(out).not.toContain(token.slice(4, 16));
		expect(out).toContain("PORT=5173");
	});

	it("finds a private key inside JSON, its line breaks escaped", async () => {
		const [planted] = fc.sample(plantedKinds["private key"] ?? fc.constant(undefined), { seed: 3, numRuns: 1 });
		if (planted === undefined) throw new Error("no sample");
		const out = await redactor.redact(JSON.stringify({ output: `key:\n${planted.text}\nok` }));
		expect(leakedPiece(out, planted)).toBeUndefined();
		expect(out).toContain("[redacted: private key]");
	});

	it("takes a token cut short by its prefix, and guesses at no piece beside a cut mark", async () => {
		expect(await redactor.redact(`fatal: bad credentials ${token.slice(0, 20)}`)).toBe(
			"fatal: bad credentials [redacted: github token]",
		);
		for (const text of [
			"PORT=5173 … NG/bPxRfiCYzq2Lr0Tm9Y DEBUG=1",
			"mkdir -p /Users/…/pi-mono/packages/coding-agent/docs",
			"const apiKey = getApiKey(provider)",
		])
			expect(await redactor.redact(text)).toBe(text);
	});

	it("replaces a secret where it stands; a copy elsewhere only when it is long enough to be no word", async () => {
		const [a, b] = await redactor.redactAll(["PGPASSWORD=s3cr3tpw", "s3cr3tpw is also a word here"]);
		expect(a).toBe("PGPASSWORD=[redacted: password]");
		expect(b).toBe("s3cr3tpw is also a word here");
	});

	it("finds a token in terminal colours, raw or escaped as text, and keeps the colour codes around the marker", async () => {
		const esc = String.fromCharCode(27);
		expect(await redactor.redact(`${esc}[32m${token}${esc}[0m`)).toBe(`${esc}[32m[redacted: github token]${esc}[0m`);
		expect(await redactor.redact(`GITHUB_TOKEN=\\x1b[1m${token}`)).toBe(
			"GITHUB_TOKEN=\\x1b[1m[redacted: github token]",
		);
	});

	it.each([
		["ESC ( B and a reset, as `tput sgr0` writes them", "\u001b(B\u001b[m"],
		["ESC 7 (save the cursor)", "\u001b7"],
		["ESC c (reset the terminal)", "\u001bc"],
		["a window title and its string terminator ESC \\", "\u001b]0;ci\u001b\\"],
		["a window title ended by a bell", "\u001b]0;ci\u0007"],
	])("finds a token right after a terminal escape a terminal does not print: %s", async (_name, before) => {
		expect(await redactor.redact(`${before}${token}`)).toBe(`${before}[redacted: github token]`);
	});

	it.each([
		["a password after ESC p", "\u001bpassword=Zq7Yx3Wv9UtXk2Lm", "\u001bpassword=[redacted: password]"],
		["a token after ESC t", "\u001btoken: Zq7Yx3Wv9UtXk2LmPa4Rs", "\u001btoken: [redacted: token]"],
		["a secret after ESC s", "\u001bsecret=Zq7Yx3Wv9UtXk2LmPa4Rs", "\u001bsecret=[redacted: secret]"],
		[
			"a long flag after ESC - - p",
			"mysql \u001b--password Zq7Yx3Wv9UtXk2Lm",
			"mysql \u001b--password [redacted: password]",
		],
		[
			"a password in a JSON pair after ESC c and ESC p",
			'\u001bc\u001b"password": "Zq7Yx3Wv9UtXk2Lm"',
			'\u001bc\u001b"password": "[redacted: password]"',
		],
		[
			"a password after a CSI with a parameter, ESC [ 1 p",
			"\u001b[1password=Zq7Yx3Wv9UtXk2Lm",
			"\u001b[1password=[redacted: password]",
		],
		[
			"a mysql password after a bold colour code, ESC [ 1 m",
			"\u001b[1mysql -u root -pZq7Yx3Wv9UtXk2Lm -h db",
			"\u001b[1mysql -u root -p[redacted: password] -h db",
		],
		[
			"a mysql password after the reset `tput sgr0` writes, ESC ( B ESC [ m",
			"\u001b(B\u001b[mysql -pZq7Yx3Wv9UtXk2Lm",
			"\u001b(B\u001b[mysql -p[redacted: password]",
		],
		[
			"a token after ESC [ 2 t written as text",
			"\\033[2token: Zq7Yx3Wv9UtXk2LmPa4Rs",
			"\\033[2token: [redacted: token]",
		],
	])(
		"finds a secret by its name where an escape's final byte is the name's first letter: %s",
		async (_name, text, want) => {
			expect(await redactor.redact(text)).toBe(want);
			expect(await createRedactor(true, 1).redact(`PORT=5173\n${text}\nDEBUG=1`)).toBe(`PORT=5173\n${want}\nDEBUG=1`);
		},
	);

	it.each([
		["ESC [ 1 g", "\u001b[1"],
		["ESC [ ? 25 g", "\u001b[?25"],
		["a CSI byte, 0 ; 1 and g", "\u009b0;1"],
		["ESC [ 1 g written as text", "\\x1b[1"],
	])(
		"finds a token whose first letter is a control sequence's final byte after its parameters: %s",
		async (_name, before) => {
			expect(await redactor.redact(`${before}${token}`)).toBe(`${before}[redacted: github token]`);
			expect(await createRedactor(true, 1).redact(`PORT=5173\n${before}${token}\nDEBUG=1`)).toBe(
				`PORT=5173\n${before}[redacted: github token]\nDEBUG=1`,
			);
		},
	);

	it("leaves a name of no secret alone where an escape's final byte stands before it", async () => {
		const text =
			"\u001bMPUBLIC_KEY=Zq7Yx3Wv9UtXk2LmPa4Rs\n\r\u001b[Kcache_key=9f86d081884c7d65\n\u001b[2Kpublic_key: Zq7Yx3Wv9UtXk2Lm";
		expect(await redactor.redact(text)).toBe(text);
		expect(await createRedactor(true, 1).redact(text)).toBe(text);
	});

	it("finds a secret inside a hyperlink's or a window title's escape, which a terminal does not print as text", async () => {
		expect(
			await redactor.redact("\u001b]8;;https://admin:S3cretPassw0rd@db.example.com\u001b\\db\u001b]8;;\u001b\\"),
		).toBe("\u001b]8;;https://admin:[redacted: password in url]@db.example.com\u001b\\db\u001b]8;;\u001b\\");
		expect(await redactor.redact("\u001b]0;password=Zq7Yx3Wv9UtXk2Lm")).toBe("\u001b]0;password=[redacted: password]");
	});

	it("leaves ordinary output alone: ports, hashes, versions, counts, references to secrets", async () => {
		const text = [
			"commit 1507f8b3c2d4e5f60718293a4b5c6d7e8f901234",
			"listening on http://localhost:5173",
			"vitest v4.1.12: 12 passed (340ms)",
			"max_tokens: 4096",
			"const key = process.env.API_KEY;",
			"GITHUB_TOKEN=$GITHUB_TOKEN",
			"password: ********",
			"see https://example.com:8443/path?q=1",
			"the tokenizer splits words … and then more",
		].join("\n");
		expect(await redactor.redact(text)).toBe(text);
	});

	it("changes nothing when off (redact: false)", async () => {
		const text = `GITHUB_TOKEN=${token}`;
		expect(await createRedactor(false).redact(text)).toBe(text);
	});

	it("gives the event loop turns between a finder's steps inside one line too long to cut", async () => {
		// 50,000 names of secrets with values too short to be one, on one line of 350 KB: no line break to cut at and
		// nothing to replace, so only the finders' steps can pause. A turn between reads and finders alone would be
		// about ten; stepping gives one each STEPS_PER_LOOK anchors.
		const line = Array.from({ length: 50_000 }, (_, i) => `key=${i % 10}`).join(" ");
		let paced = "";
		expect(
			await turnsDuring(async () => (paced = await createRedactor(true, undefined, 0).redact(line))),
		).toBeGreaterThan(150);
		expect(paced).toBe(line);
	});

	it("finds the same, paced at every look, in one line too long to cut", async () => {
		// 50,000 flags on one line of about a megabyte.
		const line = Array.from({ length: 50_000 }, (_, i) => `--token tK${i}x9Qz${i}`).join(" ");
		const paced = await createRedactor(true, undefined, 0).redact(line);
		expect(paced).toBe(await redactor.redact(line));
		expect(paced).not.toContain("tK49999x9Qz49999");
	});

	it("reads a lone surrogate as one character, so what follows it is replaced where it stands", async () => {
		const text = `\u0041 \ud800 x\u200b ${token} \udc00 ok`;
		expect(await redactor.redact(text)).toBe(`\u0041 \ud800 x\u200b ${marker("github token")} \udc00 ok`);
	});

	it("is idempotent: a redacted text redacts to itself", async () => {
		const once = await redactor.redact(`GITHUB_TOKEN=${token} … K7MDENG/bPxRfiCYzq`);
		expect(await redactor.redact(once)).toBe(once);
	});
});

describe("the redactor's choices between finds", () => {
	const token = `ghp_${"aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"}`;
	const key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y";

	it("names a stretch both secretlint and its own finders find by secretlint's kind", async () => {
		// Its own finders take this value for a "secret" by its name; secretlint knows the AWS name.
		expect(await redactor.redact(`aws_secret_access_key = ${key}`)).toBe(
			"aws_secret_access_key = [redacted: aws secret access key]",
		);
	});

	it("replaces overlapping finds by one marker, named by the longest that starts first", async () => {
		// The flag's value runs to the blank, past the token's end: one marker for the flag's value.
		expect(await redactor.redact(`gh auth login --token ${token}/extra --hostname github.com`)).toBe(
			"gh auth login --token [redacted: token] --hostname github.com",
		);
	});

	it("replaces a copy twelve characters long elsewhere in the batch, and leaves an eleven-character one", async () => {
		const [a, b] = await redactor.redactAll(["PGPASSWORD=Qm9XwPq7Rt2z", "psql: auth failed for Qm9XwPq7Rt2z"]);
		expect([a, b]).toEqual(["PGPASSWORD=[redacted: password]", "psql: auth failed for [redacted: password]"]);
		const [c, d] = await redactor.redactAll(["PGPASSWORD=Qm9XwPq7Rt2", "psql: auth failed for Qm9XwPq7Rt2"]);
		expect([c, d]).toEqual(["PGPASSWORD=[redacted: password]", "psql: auth failed for Qm9XwPq7Rt2"]);
	});

	it("names a copy by the kind its first find had", async () => {
		const [a, b] = await redactor.redactAll([`aws_secret_access_key = ${key}`, `echo ${key}`]);
		expect(a).toBe("aws_secret_access_key = [redacted: aws secret access key]");
		expect(b).toBe("echo [redacted: aws secret access key]");
	});

	it("gives back each text of a batch as it was when off, in order", async () => {
		const texts = [`GITHUB_TOKEN=${token}`, "PORT=5173"];
		expect(await createRedactor(false).redactAll(texts)).toEqual(texts);
	});
});

describe("the redactor reading long texts in chunks", () => {
	const token = (n: number) => `ghp_${n}aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3h`.slice(0, 40);
	const ESC = String.fromCharCode(27);

	it("finds secretlint's finds in every chunk of every text and replaces them where they stand", async () => {
		const key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y";
		const other = "Xk3Qm9XwPq7Rt2aB3dE6gH9jK2mN5pQ8sT1vW4yZ";
		const texts = [
			"PORT=5173\nDEBUG=1",
			`$ cat ~/.aws/credentials\n[default]\naws_secret_access_key = ${key}\nregion = eu-west-1\n`,
			`[prod]\nregion = us-east-1\naws_secret_access_key = ${other}`,
		];
		expect(await createRedactor(true, 1).redactAll(texts)).toEqual([
			"PORT=5173\nDEBUG=1",
			"$ cat ~/.aws/credentials\n[default]\naws_secret_access_key = [redacted: aws secret access key]\nregion = eu-west-1\n",
			"[prod]\nregion = us-east-1\naws_secret_access_key = [redacted: aws secret access key]",
		]);
	});

	it("finds a token at a chunk's first character", async () => {
		const text = `PORT=5173\n${token(1)}\nDEBUG=1\n${token(2)} was revoked`;
		expect(await createRedactor(true, 1).redact(text)).toBe(
			"PORT=5173\n[redacted: github token]\nDEBUG=1\n[redacted: github token] was revoked",
		);
	});

	it("finds a private key block whose first line an escape's final byte stands on, read in chunks", async () => {
		const text = `$ cat key\n${ESC}[-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASC\nAT8wggE7AgEAAkEAq7BF\n$ ls`;
		expect(await createRedactor(true, 1).redact(text)).toBe(`$ cat key\n${ESC}[[redacted: private key]$ ls`);
		expect(await redactor.redact(text)).toBe(`$ cat key\n${ESC}[[redacted: private key]$ ls`);
	});

	it("finds in each chunk a token an escape's final byte stands on, where it stands in the text", async () => {
		// A CSI escape ends at its first letter: the view reads `hp_…`, so the token is found in the text as it stands.
		const text = [
			"$ gh auth status",
			`${ESC}[${token(1)}`,
			`  token: ${ESC}[${token(2)} (keyring)`,
			`\\u001b[${token(3)}`,
			"done",
		].join("\n");
		const want = [
			"$ gh auth status",
			`${ESC}[[redacted: github token]`,
			`  token: ${ESC}[[redacted: github token] (keyring)`,
			"\\u001b[[redacted: github token]",
			"done",
		].join("\n");
		expect(await createRedactor(true, 1).redact(text)).toBe(want);
		expect(await redactor.redact(text)).toBe(want);
	});
});

describe("the redactor's pace", () => {
	// 200 lines of 59 characters and a break, no lint trigger: with chunks of 64 characters, two lines a chunk.
	const text = Array.from({ length: 200 }, (_, i) => `line ${String(i).padStart(3, "0")} ${"x".repeat(50)}`).join("\n");

	it("gives the event loop no turn while it has held the thread for less than its time", async () => {
		expect(await turnsDuring(() => createRedactor(true, 64, Number.POSITIVE_INFINITY).redact(text))).toBe(0);
	});

	it("gives the event loop a turn after each chunk's finders and each chunk's copies once its time is up", async () => {
		expect(await turnsDuring(() => createRedactor(true, 64, 0).redact(text))).toBeGreaterThanOrEqual(2 * 100);
	});

	it("gives the event loop a turn after each finder's run over a chunk once its time is up", async () => {
		// One chunk with no anchor: each finder's run is one search over it, a step too few to reach a look. On a
		// megabyte of `ESC [ m PUBLIC_KEY=`, the runs between looks held the thread 60 ms.
		expect(await turnsDuring(() => createRedactor(true, undefined, 0).redact("x".repeat(100)))).toBeGreaterThanOrEqual(
			FINDERS.length,
		);
	});

	it("gives each of three batches redacted at once, turn by turn, what it gives alone", async () => {
		// Paced at every look, the batches' finders take steps in turn over the same patterns: every kind of secret
		// in one batch; in two others, a line of 5,000 flags each, the flags of one far apart, so a search that took
		// up the other's place would pass over its own.
		const kinds = samples.map(({ planted }) => `PORT=5173 ${planted?.text ?? ""} DEBUG=1`);
		const dense = [Array.from({ length: 5_000 }, (_, i) => `--token tK${i}x9Qz${i}`).join(" ")];
		const sparse = [Array.from({ length: 5_000 }, (_, i) => `${"x".repeat(60)} --token sP${i}x7Rw${i}`).join(" ")];
		const paced = createRedactor(true, 64, 0);
		const together = await Promise.all([paced.redactAll(dense), paced.redactAll(sparse), paced.redactAll(kinds)]);
		expect(together).toEqual([
			await redactor.redactAll(dense),
			await redactor.redactAll(sparse),
			await redactor.redactAll(kinds),
		]);
		expect(together[0]?.[0]).not.toContain("tK4999x9Qz4999");
		expect(together[1]?.[0]).not.toContain("sP4999x7Rw4999");
	});
});

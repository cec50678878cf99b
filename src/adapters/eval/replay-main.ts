import { runReplayCli } from "./replay-cli.js";
import { repoRoot } from "./repo-root.js";

const result = await runReplayCli(process.argv.slice(2), { root: repoRoot(), now: () => performance.now() });
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
process.exitCode = result.code;

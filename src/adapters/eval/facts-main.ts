import { runFactsCli } from "./facts-cli.js";
import { repoRoot } from "./repo-root.js";

const result = runFactsCli(process.argv.slice(2), { root: repoRoot() });
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
process.exitCode = result.code;

import { resolveRoute } from "./probe-model.js";
import { repoRoot } from "./repo-root.js";
import { runScoreCli } from "./score-cli.js";

const result = await runScoreCli(process.argv.slice(2), {
	root: repoRoot(),
	resolve: (route) => resolveRoute(route, process.env),
});
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
process.exitCode = result.code;

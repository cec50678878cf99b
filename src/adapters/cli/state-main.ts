import { runStateCli } from "./state-cli.js";

const result = runStateCli(process.argv.slice(2), process.env);
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
process.exitCode = result.code;

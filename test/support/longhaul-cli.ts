import { runLonghaul } from "../../src/adapters/cli/main.js";

// The `longhaul` command line from the sources, as bin/longhaul.js runs it from dist/ (which a clone builds first):
// tests run it as a process through jiti, so a crash of the process shows as its exit, not as a dead test worker.
process.exitCode = await runLonghaul(process.argv.slice(2));

import { afterEach } from "vitest";

/** Anything a test starts that must be ended after it: a pi session's harness. */
interface Disposable {
	dispose(): Promise<void>;
}

/**
 * For a test file that starts pi sessions: registers one afterEach that disposes every harness the returned `kept` was
 * handed during the test, so that no session outlives its test even when the test fails part way.
 */
export function disposedAfterEach(): <H extends Disposable>(harness: H) => H {
	let open: Disposable[] = [];
	afterEach(async () => {
		const ending = open;
		open = [];
		for (const harness of ending) await harness.dispose();
	});
	return (harness) => {
		open.push(harness);
		return harness;
	};
}

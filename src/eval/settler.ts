import type { AgentSession } from "@mariozechner/pi-coding-agent";

/**
 * Waits for pi's event queue to catch up with a session. pi hands agent events to its own listeners through a
 * queue; counting the agent's own `agent_end` against the session's tells when the queue, auto-compaction included,
 * has caught up. Used by the eval tools and the test harness alike.
 */
export class Settler {
	private ended = 0;
	private handled = 0;
	private session: AgentSession | undefined;
	private readonly waiting: (() => void)[] = [];

	/** Follows `session` from now on (a fork or a new session replaces the one before); returns the unsubscribe. */
	watch(session: AgentSession): () => void {
		this.session = session;
		this.ended = 0;
		this.handled = 0;
		const offAgent = session.agent.subscribe((event) => {
			if (event.type === "agent_end") this.ended++;
		});
		const offSession = session.subscribe((event) => {
			if (event.type === "agent_end") this.handled++;
			for (const wake of this.waiting.splice(0)) wake();
		});
		return () => {
			offAgent();
			offSession();
		};
	}

	private next(): Promise<void> {
		return new Promise((resolve) => {
			this.waiting.push(resolve);
		});
	}

	/** Waits until pi has handled every agent event and no compaction runs. */
	async settle(): Promise<void> {
		for (;;) {
			if (this.handled < this.ended) {
				await this.next();
				continue;
			}
			// Auto-compaction starts right after agent_end reaches the listeners; let that step run.
			await new Promise<void>((resolve) => setImmediate(resolve));
			if (this.handled < this.ended || this.session?.isCompacting === true) {
				await this.next();
				continue;
			}
			return;
		}
	}
}

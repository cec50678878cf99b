// A generated session of `compactions` rounds, each a user turn, a bash call whose output shows values (a port, a
// version, a path), an assistant reply that uses the previous round's values, and a pi compaction keeping the
// round's user turn: the shape `facts` reads, as large as asked, with no real transcript needed.

const TS = "2026-01-01T00:00:00.000Z";

/** The text of a session with `compactions` pi compactions, one line per entry. */
export function compactionsSession(compactions: number): string {
	const lines = [JSON.stringify({ type: "session", version: 3, id: "bench", timestamp: TS, cwd: "/tmp" })];
	let parentId: string | null = null;
	let n = 0;
	const add = (body: Record<string, unknown>): string => {
		const id = `e${++n}`;
		lines.push(JSON.stringify({ ...body, id, parentId, timestamp: TS }));
		parentId = id;
		return id;
	};
	for (let i = 0; i < compactions; i++) {
		const user = add({ type: "message", message: { role: "user", content: `round ${i}: check it`, timestamp: 0 } });
		const call = `call${i}`;
		const command = `cat /srv/app-${i}/config.json`;
		add({
			type: "message",
			message: {
				role: "assistant",
				content: [{ type: "toolCall", id: call, name: "bash", arguments: { command } }],
				stopReason: "toolUse",
				timestamp: 0,
			},
		});
		add({
			type: "message",
			message: {
				role: "toolResult",
				toolCallId: call,
				toolName: "bash",
				content: [
					{ type: "text", text: `listening on port ${10000 + i}, version v1.${i}.0, log /var/log/app-${i}.log` },
				],
				isError: false,
				timestamp: 0,
			},
		});
		const previous = i === 0 ? "nothing yet" : `port ${10000 + i - 1} and /var/log/app-${i - 1}.log`;
		add({
			type: "message",
			message: {
				role: "assistant",
				content: [{ type: "text", text: `Earlier: ${previous}.` }],
				stopReason: "stop",
				timestamp: 0,
			},
		});
		add({
			type: "compaction",
			summary: `Round ${i}: the app listens on port ${10000 + i}.`,
			firstKeptEntryId: user,
			tokensBefore: 1000,
		});
	}
	return `${lines.join("\n")}\n`;
}

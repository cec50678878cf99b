import { describe, expect, it } from "vitest";
import { secretValueKind } from "../../../../src/pass/verify/secrets.js";

describe("secretValueKind: a value whose text is a secret", () => {
	it("is named by its own text when it carries a vendor prefix, whole or cut", () => {
		expect(secretValueKind("token", "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6")).toBe("github token");
		expect(secretValueKind("deploy token", "ghp_aB3dE6gH9j")).toBe("github token");
	});

	it("is named by the assignment its name makes, where the text alone looks like any random string", () => {
		expect(secretValueKind("AWS secret access key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y")).toBe("secret");
		expect(secretValueKind("database password", "s3cretPassw0rd")).toBe("password");
	});

	it("is not any harmless value: a port, a hash, a version, a count, a key's name", () => {
		for (const [name, value] of [
			["dev server port", "5173"],
			["commit", "1507f8b"],
			["node version", "v20.19.4"],
			["tests", "12 passed"],
			["api key variable", "STRIPE_API_KEY"],
			["token budget", "4096"],
		])
			expect(secretValueKind(name ?? "", value ?? "")).toBeUndefined();
	});
});
